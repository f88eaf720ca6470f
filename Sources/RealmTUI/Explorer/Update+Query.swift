import RealmEngine

extension ExplorerState {
    /// The file the query history files this explorer's queries under.
    var historyFile: String { QueryHistory.fileKey(for: realm.configuration) }

    /// Keys while the query bar is open: editing, history (Up/Down), completion (Tab), Enter
    /// asks to run the query, Esc closes the bar and keeps the last query that worked.
    mutating func handleQueryKey(_ key: Key) -> [ExplorerEffect] {
        guard case .query(var bar) = mode, case .table(let table) = current else { return [] }
        let past = history.queries(file: historyFile, className: table.schema.name)
        switch key {
        case .enter:
            return [.runQuery(bar.editor.text)]
        case .escape:
            mode = .browse
            return []
        case .up:
            guard !past.isEmpty else { return [] }
            if bar.historyIndex == nil { bar.draft = bar.editor.text }
            let index = max(0, (bar.historyIndex ?? past.count) - 1)
            bar.historyIndex = index
            bar.editor.set(past[index])
        case .down:
            guard let index = bar.historyIndex else { return [] }
            if index + 1 < past.count {
                bar.historyIndex = index + 1
                bar.editor.set(past[index + 1])
            } else {
                bar.historyIndex = nil
                bar.editor.set(bar.draft)
            }
        case .tab:
            let completion = QueryCompletion(schema: realm.schema, className: table.schema.name)
            let (range, candidates) = completion.candidates(in: bar.editor.text, cursor: bar.editor.cursor)
            if candidates.count == 1, let only = candidates.first {
                bar.editor.replace(range, with: only)
                bar.completions = []
            } else if !candidates.isEmpty {
                let common = QueryCompletion.commonPrefix(candidates)
                let typed = String(Array(bar.editor.text)[range])
                if common.count >= range.count, common != typed { bar.editor.replace(range, with: common) }
                bar.completions = candidates
            } else {
                bar.completions = []
            }
            mode = .query(bar)
            return []
        default:
            guard bar.editor.handle(key) else { return [] }
            bar.historyIndex = nil
        }
        bar.completions = []
        mode = .query(bar)
        return []
    }

    /// Applies a query to the current table (what the session does for `.runQuery`): on success
    /// the table shows its objects from the top and the query joins the class's history; a
    /// query with a mistake leaves the table as it was and shows the engine's message with a
    /// caret under its column.
    public mutating func applyQuery(_ text: String) -> [ExplorerEffect] {
        guard case .table(var table) = current else { return [] }
        do {
            // The most recent sort request wins: a query with its own SORT replaces the column
            // sort (applied after it, the column sort would have overridden the query's).
            let own = try TableScreen.rows(base: table.base, query: text, sort: nil)
            if !own.results.sortDescriptors.isEmpty { table.sort = nil }
            table.rows = table.sort == nil ? own : try TableScreen.rows(base: table.base, query: text, sort: table.sort)
            table.query = text
            table.cursorRow = 0
            table.topRow = 0
            current = .table(table)
            mode = .browse
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let count = try? table.rows.checkedCount() {
                message = Message(
                    text: trimmed.isEmpty
                        ? "query cleared"
                        : count == 1 ? "1 object matches" : "\(ValueFormatter.grouped(count)) objects match",
                    isError: false, version: realm.version)
            } else {
                message = Message(text: "the objects cannot be read: the file is damaged", isError: true)
            }
            guard !trimmed.isEmpty else { return [] }
            history.record(trimmed, file: historyFile, className: table.schema.name)
            return [.saveHistory]
        } catch {
            var bar: QueryBar
            if case .query(let open) = mode { bar = open } else { bar = QueryBar(editor: LineEditor(text)) }
            if case .query(let text, let column)? = error as? RealmError {
                bar.error = (text, column)
            } else {
                bar.error = (ExplorerText.describe(error), 0)
            }
            bar.completions = []
            mode = .query(bar)
            return []
        }
    }
}

import Foundation
