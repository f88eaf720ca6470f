import Foundation
import RealmEngine

/// `c`: one line per commit since the explorer opened, newest first: version, time, and per
/// class `+inserted −deleted ~modified`; after Enter on one, that commit's objects.
enum ChangesView {
    /// The number of lines of the list of commits: one per commit, then the note on commits no
    /// longer in the file's change log, if any.
    static func lineCount(_ state: ExplorerState) -> Int {
        state.commitLog.count + (state.commitsNotShown > 0 ? 1 : 0)
    }

    /// Line `index` of the list of commits (0: the newest). Only the lines on screen are made:
    /// the list keeps up to 10,000 commits.
    static func line(_ index: Int, _ state: ExplorerState) -> String {
        guard index < state.commitLog.count else {
            return "(\(state.commitsNotShown) more commits, no longer in the file's change log)"
        }
        let entry = state.commitLog[state.commitLog.count - 1 - index]
        let classes = entry.summary.classes.map { "\($0.className) +\($0.inserted) −\($0.deleted) ~\($0.modified)" }
        let what =
            entry.summary.changedSchema
            ? "schema changed" : (classes.isEmpty ? "no objects changed" : classes.joined(separator: "  "))
        // Versions padded to the newest's width, so the times line up (v9 under v10).
        let width = "\(state.commitLog.last?.summary.version ?? 0)".count
        let version = "v\(entry.summary.version)".padding(toLength: width + 1, withPad: " ", startingAt: 0)
        return "\(version)  \(time(entry.seenAt))  \(what)"
    }

    /// A time of day in UTC, `HH:mm:ss` (seconds rounded down). Worked out, not formatted: a
    /// `DateFormatter` per line of every frame made a long commit list slow to draw.
    static func time(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "--:--:--" }
        let ofDay = (Int(seconds) % 86_400 + 86_400) % 86_400
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(ofDay / 3_600)):\(twoDigits(ofDay / 60 % 60)):\(twoDigits(ofDay % 60))"
    }

    static func draw(_ state: ExplorerState, into grid: inout Grid) {
        if let opened = state.changesPane.opened {
            drawCommit(state, opened, into: &grid)
            return
        }
        let rows = state.contentRows
        let pane = state.changesPane
        grid.write(
            "Commits since opening, newest first (UTC) — Enter: its objects · Esc: close",
            column: 2, row: rows.lowerBound, style: state.theme.header)
        let count = lineCount(state)
        if count == 0 {
            grid.write(
                "no commits yet: changes made here or by another process show up as they land",
                column: 2, row: rows.lowerBound + 2, style: state.theme.muted)
        }
        for (offset, row) in rows.dropFirst(2).enumerated() {
            let index = pane.top + offset
            guard index < count else { break }
            // The last line may be the note on commits no longer in the log: not a commit.
            let selected = index == pane.cursor && index < state.commitLog.count
            if selected {
                grid.fill(row: row, style: state.theme.selection)
                grid.write("›", column: 0, row: row, style: state.theme.selection)
            }
            grid.write(line(index, state), column: 2, row: row, style: selected ? state.theme.selection : .plain)
        }
    }

    /// One commit's objects: per class its counts, then each object created (`+`) or modified
    /// (`~`) as it is now, or `gone` when deleted since.
    static func drawCommit(_ state: ExplorerState, _ opened: OpenedCommit, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        grid.write(
            "Commit v\(opened.version) at \(time(opened.seenAt)) UTC — Enter opens an object, Esc back to the commits",
            column: 2, row: rows.lowerBound, style: theme.header)
        let formatter = ValueFormatter(realm: state.realm)
        for (offset, row) in rows.dropFirst(2).enumerated() {
            let index = opened.top + offset
            guard opened.entries.indices.contains(index) else { break }
            let selected = index == opened.cursor
            if selected {
                grid.fill(row: row, style: theme.selection)
                grid.write("›", column: 0, row: row, style: theme.selection)
            }
            func style(_ base: CellStyle) -> CellStyle { selected ? theme.selection : base }
            switch opened.entries[index] {
            case .heading(let text):
                grid.write(text, column: 2, row: row, style: style(theme.header))
            case .note(let text):
                grid.write(text, column: 4, row: row, style: style(theme.muted))
            case .object(let className, let key, let inserted):
                grid.write(
                    inserted ? "+" : "~", column: 4, row: row, style: style(inserted ? theme.inserted : theme.modified))
                let found: DynamicObject?
                do {
                    found = try state.realm.object(ofType: className, key: key)
                } catch {
                    grid.write(
                        "\(className)#\(key.rawValue)  ⚠ \(ExplorerText.describe(error))", column: 6, row: row,
                        style: style(theme.error))
                    continue
                }
                guard let object = found else {
                    grid.write(
                        "\(className)#\(key.rawValue)  gone (deleted since)", column: 6, row: row,
                        style: style(theme.muted))
                    continue
                }
                let name = formatter.name(of: object)
                let used = grid.write(name, column: 6, row: row, style: style(.plain), limit: 30)
                grid.write(
                    preview(object, skipping: name, formatter), column: 6 + used + 2, row: row,
                    style: style(theme.muted))
            }
        }
    }

    /// An object's scalar properties in one line, `age 3 · weight 12.5`, for the list of a
    /// commit's objects (the grid cuts it at the edge), without the one showing `name`.
    static func preview(_ object: DynamicObject, skipping name: String, _ formatter: ValueFormatter) -> String {
        object.objectSchema.properties.prefix(12).compactMap { property -> String? in
            guard !property.isList, property.type != .linkingObjects else { return nil }
            let text = formatter.cell(object, property).text
            // The value the object is named by is already on the line.
            return text == name ? nil : "\(property.name) \(text)"
        }.joined(separator: " · ")
    }
}
