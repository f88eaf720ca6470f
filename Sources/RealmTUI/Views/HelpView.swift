import RealmEngine

/// `?`: every key of the current screen with what it does, generated from the key map.
enum HelpView {
    /// The help lines for a screen: bindings, then the mouse and the input bars.
    static func lines(for screen: ScreenKind, keyMap: KeyMap) -> [(keys: String, action: String, help: String)] {
        var lines = keyMap.bindings(on: screen).map { binding in
            (binding.keys.map(name(of:)).joined(separator: " "), binding.action.rawValue, binding.help)
        }
        lines.append(("", "", ""))
        lines.append(("click", "", "select a class, row or cell (click again: open)"))
        if screen == .table {
            lines.append(("click header", "", "sort by that column (again: the other way)"))
            lines.append(("in the query bar", "", "Enter apply · Esc cancel · Up/Down history · Tab complete"))
        }
        lines.append(("wheel", "", "scroll"))
        lines.append(("", "", ""))
        lines += commands.map { (":" + $0.command, "", $0.help) }
        return lines
    }

    /// The `:` commands, for help and for the message naming an unknown one.
    static let commands: [(command: String, help: String)] = [
        ("set P = V", "set property P to V on every object of the table (asks y/n)"),
        ("delete", "delete every object of the table (asks y/n)"),
        ("clear", "empty the list shown (asks y/n)"),
        ("begin", "stage edits instead of writing them; :commit (ctrl-s) writes them, :rollback drops them"),
        ("export json|csv PATH", "write the table's objects (query and sort applied) to a file (asks before replacing one)"),
        ("copy PATH", "write a compacted copy of the file and go on in the copy, writable"),
        ("recover [PATH]", "salvage a commit that was set aside (⚠ on the status line) into a new file"),
        ("schema", "every class and property"),
        ("help", "this help"),
        ("q", "quit (asks when edits are staged; :q! does not)"),
    ]

    /// How a key is written in help.
    static func name(of key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let ch): String(ch)
        case .control(let ch): "ctrl-\(ch)"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .tab: "Tab"
        case .backTab: "shift-Tab"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        }
    }

    /// The help lines a screen shows at once: the content rows below the heading and a blank.
    static func visibleRows(_ state: ExplorerState) -> Int { max(1, state.contentRows.count - 2) }

    static func draw(_ state: ExplorerState, top: Int, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        let lines = lines(for: state.current.kind, keyMap: state.keyMap)
        // Keys of bindings set the key column; a line without an action (the mouse, the `:`
        // commands) may run on into the action column.
        let keyWidth = min(24, lines.filter { !$0.action.isEmpty }.map { displayWidth($0.keys) }.max() ?? 8)
        let actionWidth = lines.map { displayWidth($0.action) }.max() ?? 8
        grid.write("Keys of this screen (\(state.current.kind.rawValue)) — j/k scroll, q or any other key closes", column: 2, row: rows.lowerBound,
                   style: theme.header)
        for (offset, row) in rows.dropFirst(2).enumerated() {
            let index = top + offset
            guard lines.indices.contains(index) else { break }
            let line = lines[index]
            grid.write(line.keys, column: 2, row: row, style: theme.input,
                       limit: line.action.isEmpty ? keyWidth + 2 + actionWidth : keyWidth)
            grid.write(line.action, column: 4 + keyWidth, row: row, style: theme.muted, limit: actionWidth)
            grid.write(line.help, column: 6 + keyWidth + actionWidth, row: row)
        }
    }
}

/// `:schema`: every class and its properties.
enum SchemaView {
    static func lines(_ schema: Schema) -> [(String, String, String)] {
        var out: [(String, String, String)] = []
        for objectSchema in schema.objectSchemas {
            out.append((objectSchema.name, "", ""))
            for property in objectSchema.properties {
                out.append(("  " + property.name, property.typeDescription, ClassesView.attributes(property)))
            }
            out.append(("", "", ""))
        }
        return out
    }

    /// The schema lines a screen shows at once: all its content rows.
    static func visibleRows(_ state: ExplorerState) -> Int { max(1, state.contentRows.count) }

    static func draw(_ state: ExplorerState, top: Int, into grid: inout Grid) {
        let theme = state.theme
        let lines = lines(state.realm.schema)
        let nameWidth = min(28, lines.map { displayWidth($0.0) }.max() ?? 8)
        let typeWidth = min(32, lines.map { displayWidth($0.1) }.max() ?? 8)
        for (offset, row) in state.contentRows.enumerated() {
            let index = top + offset
            guard lines.indices.contains(index) else { break }
            let (name, type, attributes) = lines[index]
            grid.write(name, column: 1, row: row, style: type.isEmpty ? theme.header : .plain, limit: nameWidth)
            grid.write(type, column: nameWidth + 3, row: row, style: theme.link, limit: typeWidth)
            grid.write(attributes, column: nameWidth + typeWidth + 5, row: row, style: theme.muted)
        }
    }
}
