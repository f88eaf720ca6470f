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
        (
            "export json|csv PATH",
            "write the table's objects (query and sort applied) to a file (asks before replacing one)"
        ),
        (
            "export realm PATH",
            "write the whole file as a Realm file (Realm Core format 24) that Realm apps open; "
                + "--key HEX or --key-file PATH encrypts it for their encryptionKey"
        ),
        ("copy PATH", "write a compacted copy of the file and go on in the copy, writable"),
        ("sync", "start the sync agent of a synced file (as realmtui sync FILE), or stop it"),
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

    /// Where help's columns start on a screen: keys, action, help text.
    struct Layout {
        var keyWidth: Int
        var actionWidth: Int
        var helpColumn: Int { 6 + keyWidth + actionWidth }
    }

    static func layout(_ lines: [(keys: String, action: String, help: String)]) -> Layout {
        // Keys of bindings set the key column; a line without an action (the mouse, the `:`
        // commands) may run on into the action column.
        Layout(
            keyWidth: min(24, lines.filter { !$0.action.isEmpty }.map { displayWidth($0.keys) }.max() ?? 8),
            actionWidth: lines.map { displayWidth($0.action) }.max() ?? 8)
    }

    /// The rows help shows on `state`'s screen: each line, its help text wrapped to the screen
    /// (continuation rows have no keys and a hanging indent). Scrolling counts these rows.
    static func rows(_ state: ExplorerState) -> [(keys: String, action: String, help: String)] {
        let lines = lines(for: state.current.kind, keyMap: state.keyMap)
        let room = state.width - layout(lines).helpColumn
        return lines.flatMap { line in
            WrappedText.hanging(line.help, width: room).enumerated().map { index, piece in
                index == 0 ? (line.keys, line.action, piece) : ("", "", piece)
            }
        }
    }

    static func draw(_ state: ExplorerState, top: Int, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        let layout = layout(lines(for: state.current.kind, keyMap: state.keyMap))
        let shown = self.rows(state)
        grid.write(
            "Keys of this screen (\(state.current.kind.rawValue)) — j/k scroll, q or any other key closes", column: 2,
            row: rows.lowerBound,
            style: theme.header, width: max(0, grid.width - 2))
        for (offset, row) in rows.dropFirst(2).enumerated() {
            let index = top + offset
            guard shown.indices.contains(index) else { break }
            let line = shown[index]
            grid.write(
                line.keys, column: 2, row: row, style: theme.input,
                limit: line.action.isEmpty ? layout.keyWidth + 2 + layout.actionWidth : layout.keyWidth)
            grid.write(
                line.action, column: 4 + layout.keyWidth, row: row, style: theme.muted, limit: layout.actionWidth)
            grid.write(line.help, column: layout.helpColumn, row: row)
        }
    }
}

/// Text wrapped into a column: at word boundaries (`DetailLayout.wrap`), the rows after the
/// first indented by two columns, so a continuation is not taken for a new entry.
enum WrappedText {
    static let indent = 2

    /// `text` in rows of at most `width` columns (a column narrower than 8 is not wrapped: the
    /// screen cuts it, as there is no room to read it either way).
    static func hanging(_ text: String, width: Int) -> [String] {
        let clean = sanitizeForTerminal(text)
        guard width >= 8, displayWidth(clean) > width else { return [clean] }
        var rows: [String] = []
        var rest = Substring(clean)
        var room = width
        while !rest.isEmpty {
            let piece = DetailLayout.wrap(String(rest), width: room).first ?? String(rest)
            guard !piece.isEmpty else { break }
            rows.append(rows.isEmpty ? piece : String(repeating: " ", count: indent) + piece)
            rest = rest.dropFirst(piece.count)
            while rest.first == " " { rest = rest.dropFirst() }
            room = width - indent
        }
        return rows
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

    /// The rows `:schema` shows on `state`'s screen, the attributes wrapped to the screen
    /// (continuation rows have no name nor type). Scrolling counts these rows.
    static func rows(_ state: ExplorerState) -> (rows: [(String, String, String)], nameWidth: Int, typeWidth: Int) {
        let lines = lines(state.realm.schema)
        let nameWidth = min(28, lines.map { displayWidth($0.0) }.max() ?? 8)
        let typeWidth = min(32, lines.map { displayWidth($0.1) }.max() ?? 8)
        let room = state.width - (nameWidth + typeWidth + 5)
        let rows = lines.flatMap { line in
            WrappedText.hanging(line.2, width: room).enumerated().map { index, piece in
                index == 0 ? (line.0, line.1, piece) : ("", " ", piece)
            }
        }
        return (rows, nameWidth, typeWidth)
    }

    static func draw(_ state: ExplorerState, top: Int, into grid: inout Grid) {
        let theme = state.theme
        let (lines, nameWidth, typeWidth) = rows(state)
        for (offset, row) in state.contentRows.enumerated() {
            let index = top + offset
            guard lines.indices.contains(index) else { break }
            let (name, type, attributes) = lines[index]
            // A continuation row's type is " " (not a class heading, which has no type).
            grid.write(name, column: 1, row: row, style: type.isEmpty ? theme.header : .plain, limit: nameWidth)
            grid.write(type, column: nameWidth + 3, row: row, style: theme.link, limit: typeWidth)
            grid.write(attributes, column: nameWidth + typeWidth + 5, row: row, style: theme.muted)
        }
    }
}
