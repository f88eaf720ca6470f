import Foundation
import RealmEngine

/// The input bar above the status line: the query (`/`), the class filter, the command line
/// (`:`), with a caret under the column of a query's mistake and Tab's candidates.
enum InputBarView {
    static func draw(_ state: ExplorerState, into grid: inout Grid) {
        let theme = state.theme
        var row = state.contentRows.upperBound
        switch state.mode {
        case .query(let bar):
            if !bar.completions.isEmpty {
                grid.write(bar.completions.joined(separator: "  "), column: 2, row: row, style: theme.muted)
                row += 1
            }
            drawEditor(bar.editor, prompt: "/", row: row, state: state, into: &grid)
            if let error = bar.error {
                let rows = errorRows(
                    message: error.message, caretColumn: caretColumn(error, bar.editor, width: state.width),
                    width: state.width)
                for (offset, text) in rows.enumerated() {
                    grid.write(text, column: 0, row: row + 1 + offset, style: theme.error)
                }
            }
        case .classFilter(let editor):
            drawEditor(editor, prompt: "/", row: row, state: state, into: &grid)
        case .command(let editor):
            drawEditor(editor, prompt: ":", row: row, state: state, into: &grid)
        case .edit(let flow):
            EditorView.draw(state, flow, into: &grid)
        default: break
        }
    }

    /// The rows under the query bar for an error: a caret under the column of the mistake with
    /// the message after it, wrapped to at most three rows.
    static func errorRows(message: String, caretColumn: Int, width: Int) -> [String] {
        let caret = String(repeating: " ", count: max(0, min(caretColumn, width - 1))) + "^"
        let startsAfterCaret = caretColumn + 2 + min(displayWidth(message), 20) <= width
        var rows: [String] = []
        if startsAfterCaret {
            let wrapped = DetailLayout.wrap(message, width: width - caretColumn - 2)
            rows.append(caret + " " + wrapped[0])
            let rest = wrapped.dropFirst().joined()
            if !rest.isEmpty { rows += DetailLayout.wrap(rest, width: width) }
        } else {
            rows.append(caret)
            rows += DetailLayout.wrap(message, width: width)
        }
        return Array(rows.prefix(3))
    }

    /// The display columns taken by the first `column - 1` scalars of `text` (the engine's
    /// columns are 1-based Unicode scalars).
    static func columns(before column: Int, in text: String) -> Int {
        guard column > 1 else { return 0 }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(column - 1))
        return displayWidth(String(scalars))
    }

    /// The screen column of the caret under a query's mistake: under the text as drawn, which
    /// scrolls left when the query is longer than the bar (column 1 when the mistake is out of view).
    static func caretColumn(_ error: (message: String, column: Int), _ editor: LineEditor, width: Int) -> Int {
        let hidden = displayWidth(String(Array(editor.text)[0..<firstShown(editor, room: width - 2)]))
        return max(1, 1 + columns(before: error.column, in: editor.text) - hidden)
    }

    /// The first character the bar shows: the text scrolls so the cursor stays in `room` columns.
    static func firstShown(_ editor: LineEditor, room: Int) -> Int {
        let chars = Array(editor.text)
        var width = displayWidth(String(chars[0..<editor.cursor]))
        var start = 0
        if width >= room {
            while start < editor.cursor, width >= room - 1 {
                width -= displayWidth(of: chars[start])
                start += 1
            }
        }
        return start
    }

    /// A prompt and an editor's text with its cursor cell reversed; scrolls to keep the cursor.
    static func drawEditor(_ editor: LineEditor, prompt: String, row: Int, state: ExplorerState, into grid: inout Grid)
    {
        let theme = state.theme
        grid.write(prompt, column: 0, row: row, style: theme.input)
        let chars = Array(editor.text)
        let room = state.width - 2
        let start = firstShown(editor, room: room)
        let used = grid.write(String(chars[start...]), column: 1, row: row, style: theme.input, limit: room)
        _ = used
        let cursorX = 1 + displayWidth(String(chars[start..<editor.cursor]))
        var cell = grid[cursorX, row]
        if cell.isContinuation || cell.text.isEmpty { cell.text = " " }
        cell.style.reverse.toggle()
        grid[cursorX, row] = cell
    }
}

/// The bottom row: file, read-only or writable, version, other processes, count, position, and
/// the last message or error.
enum StatusLineView {
    /// The status fields, most important last removed: each has a priority (lower stays longer).
    static func fields(_ state: ExplorerState) -> [(text: String, priority: Int)] {
        var fields: [(String, Int)] = [(state.fileName, 2), (state.readOnly ? "read-only" : "writable", 3)]
        // After "writable" and dropped with it, before the file's name (which says what is open).
        if let note = state.fileNote { fields.append((note, 3)) }
        // A commit set aside when the file was opened stays on the status line (the message
        // saying why goes at the first key).
        if let lost = state.realm.recoveredFromDamagedCommit ?? state.setAsideCopies.last?.version {
            fields.append(("⚠ v\(lost) set aside · :recover", 0))
        }
        let latest = state.realm.latestVersion
        if state.isPaused {
            let behind = latest - min(latest, state.realm.version)
            fields.append(
                ("paused at version \(state.realm.version), \(behind) commit\(behind == 1 ? "" : "s") behind", 0))
        } else {
            fields.append(("v\(latest)", 3))
        }
        if let batch = state.batch { fields.append(("batch: \(batch.writes.count) staged", 0)) }
        if let sync = try? SyncIndicator.read(state.realm) { fields.append((syncText(sync), 2)) }
        if let agent = state.syncAgent { fields.append((agent.text, 2)) }
        let others = state.otherProcesses
        if others > 0 { fields.append(("\(others) other process\(others == 1 ? "" : "es")", 4)) }
        switch state.current {
        case .classes(let screen):
            let count = state.visibleClasses.count
            if screen.filter.isEmpty {
                fields.append(("\(count) class\(count == 1 ? "" : "es")", 1))
            } else {
                // The filter's input bar is gone after Enter: this is where it still shows.
                let total = state.realm.schema.objectSchemas.count
                fields.append(("\(count) of \(total) class\(total == 1 ? "" : "es")", 1))
                if case .classFilter = state.mode {} else { fields.append(("/" + screen.filter, cutNotDropped)) }
            }
        case .table(let table):
            if table.base.isInvalidated {
                fields.append(("⚠ its object was deleted", 0))
                break
            }
            guard let count = try? table.rows.checkedCount() else {
                fields.append(("⚠ damaged: cannot count", 0))
                break
            }
            fields.append(("\(ValueFormatter.grouped(count)) object\(count == 1 ? "" : "s")", 1))
            if count > 0 {
                fields.append(
                    ("row \(ValueFormatter.grouped(table.cursorRow + 1)) of \(ValueFormatter.grouped(count))", 0))
            }
            if !table.query.isEmpty { fields.append(("/" + table.query, cutNotDropped)) }
        case .detail(let detail):
            fields.append(("\(detail.object.className)#\(detail.object.key.rawValue)", 1))
        case .values(let values):
            let count = state.rowCount
            let noun = values.isDictionary ? "entr" + (count == 1 ? "y" : "ies") : "value" + (count == 1 ? "" : "s")
            fields.append(("\(values.property.name): \(ValueFormatter.grouped(count)) \(noun)", 1))
        }
        return fields
    }

    /// A synced file's indicator: what waits for upload and when changes last went up or came
    /// down (UTC, as the explorer shows dates), from the file alone — no server is asked.
    static func syncText(_ sync: SyncIndicator) -> String {
        let pending = "⇅ \(ValueFormatter.grouped(sync.pending)) pending"
        guard let last = sync.lastSync else { return pending + " · never synced" }
        return pending + " · synced " + syncClock.string(from: last.date) + " UTC"
    }

    private static var syncClock: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }

    /// The priority of the query (or class filter) field: cut to fit, never dropped, since a
    /// filtered table must not look unfiltered. At least `/…` stays.
    static let cutNotDropped = -1
    /// The columns the query keeps while other fields are dropped to make room for it; what is
    /// left after that goes to it too.
    static let queryRoom = 16

    /// The fields that fit in `room` columns, dropping the least important first; the query is
    /// cut instead (`cutNotDropped`).
    static func line(_ fields: [(text: String, priority: Int)], room: Int) -> String {
        var kept = fields
        func joined() -> String { " " + kept.map(\.text).joined(separator: " · ") }
        let query = kept.firstIndex { $0.priority == cutNotDropped }.map { kept[$0].text }
        if let query, let at = kept.firstIndex(where: { $0.priority == cutNotDropped }) {
            kept[at].text = truncate(query, toWidth: min(displayWidth(query), queryRoom))
        }
        while displayWidth(joined()) > room, kept.count > 1,
            let drop = kept.indices.max(by: { kept[$0].priority < kept[$1].priority }),
            kept[drop].priority != cutNotDropped
        {
            kept.remove(at: drop)
        }
        if let query, let at = kept.firstIndex(where: { $0.priority == cutNotDropped }) {
            kept[at].text = "/…"
            kept[at].text = truncate(query, toWidth: max(2, 2 + room - displayWidth(joined())))
        }
        return joined()
    }

    /// The columns the status fields keep beside a message; a longer message gets rows of its
    /// own above the status line (`ExplorerState.messageRows`).
    static let fieldsRoom = 22

    static func draw(_ state: ExplorerState, into grid: inout Grid) {
        let theme = state.theme
        let row = state.height - 1
        grid.fill(row: row, style: theme.status)
        let fields = fields(state)
        var messageStyle = theme.status
        if state.message?.isError == true {
            messageStyle = theme.error
            messageStyle.reverse = true
        }
        let wrapped = state.messageRows
        for (offset, text) in wrapped.enumerated() {
            let messageRow = row - wrapped.count + offset
            grid.fill(row: messageRow, style: messageStyle)
            grid.write(text, column: 0, row: messageRow, style: messageStyle, limit: state.width)
        }
        guard let message = state.message, wrapped.isEmpty else {
            grid.write(line(fields, room: state.width), column: 0, row: row, style: theme.status)
            return
        }
        let messageWidth = min(displayWidth(message.text), state.width - fieldsRoom)
        let leftRoom = state.width - messageWidth - 3
        grid.write(line(fields, room: leftRoom), column: 0, row: row, style: theme.status, limit: leftRoom)
        grid.write(
            message.text, column: state.width - messageWidth - 1, row: row, style: messageStyle, limit: messageWidth)
    }
}
