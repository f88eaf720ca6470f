import RealmEngine

/// The edit flow's input bar: the property being edited, its type and whether it may be null,
/// the editor, and a refusal on the row above; or the `y/n` question of a confirmation.
enum EditorView {
    /// Rows the edit flow takes above the status line.
    /// The rows of the edit bar on a screen `width` columns wide: a question or refusal longer
    /// than the screen wraps (at most three rows), never cut.
    static func rows(_ flow: EditFlow, width: Int) -> Int {
        switch flow {
        case .editing(let edit):
            2 + wrapped(edit.refusal, width: width).count + (edit.isMultiline ? multilineRows(edit.editor) - 1 : 0)
        case .confirming(let confirmation): max(1, wrapped(confirmation.question, width: width).count)
        case .creating(let form): max(1, wrapped(form.refusal, width: width).count)
        case .writing: 1
        case .choosingType(let picker): max(1, wrapped(pickerHint(picker), width: width).count)
        }
    }

    /// The input bar under a Mixed value's type picker.
    static func pickerHint(_ picker: MixedTypePicker) -> String {
        let what = picker.isChoosingClass ? "the class it links to" : "its type"
        return "\(picker.base.object.className).\(picker.base.property.name) mixed: pick \(what): "
            + "Enter picks, Esc cancels, ↑/↓ or j/k move, a letter jumps"
    }

    /// `text` in rows of the screen's width (at most three); none for nil.
    static func wrapped(_ text: String?, width: Int) -> [String] {
        guard let text else { return [] }
        return Array(DetailLayout.wrap(text, width: max(1, width - 1)).prefix(3))
    }

    static func draw(_ state: ExplorerState, _ flow: EditFlow, into grid: inout Grid) {
        let theme = state.theme
        var row = state.contentRows.upperBound
        switch flow {
        case .confirming(let confirmation):
            var style = theme.error
            style.bold = true
            for (offset, text) in wrapped(confirmation.question, width: state.width).enumerated() {
                grid.fill(row: row + offset, style: theme.input)
                grid.write(text, column: 0, row: row + offset, style: style)
            }
        case .writing(let status):
            let text =
                switch status.phase {
                case .waitingForLock: "waiting for another writer… Esc cancels (nothing written yet)"
                case .started, .writing: "writing… Esc cancels (nothing is written before the commit)"
                }
            grid.write(
                status.isCancelling ? "cancelling: nothing will be written" : text, column: 0, row: row,
                style: status.phase == .waitingForLock ? theme.error : theme.muted)
        case .creating(let form):
            if form.refusal != nil {
                for (offset, text) in wrapped(form.refusal, width: state.width).enumerated() {
                    grid.write(text, column: 0, row: row + offset, style: theme.error)
                }
            } else {
                grid.write(
                    "Enter creates, Esc cancels, ↑/↓ fields, ^N null, typing replaces a default",
                    column: 0, row: row, style: theme.muted)
            }
        case .choosingType(let picker):
            for (offset, text) in wrapped(pickerHint(picker), width: state.width).enumerated() {
                grid.write(text, column: 0, row: row + offset, style: theme.muted)
            }
        case .editing(let edit):
            let property = edit.property
            var hints =
                edit.isMultiline
                ? ["^S writes", "Enter new line", "Esc cancels"] : ["Enter writes", "Esc cancels", "^U clears"]
            if property.isOptional { hints.append("null/^N") }
            switch property.type {
            case .bool: hints.append("space toggles")
            case .date: hints.append("ISO 8601/now")
            case .objectId, .uuid: hints.append("new: generate")
            case .data: hints.append("0x hex/base64")
            case .decimal128: hints.append("exact decimal (12.50, 1E-6143), NaN, Inf")
            case .object: hints.append("primary key or \(property.objectClassName ?? "")#key")
            case .mixed where edit.mixedAs == .list: hints.append("JSON: [1, \"two\", {\"$date\": ..}, [..]]")
            case .mixed where edit.mixedAs == .dictionary: hints.append("JSON: {\"key\": 1, \"k2\": [..]}")
            case .mixed:
                hints.append("JSON: 5 int, 5.0 double, \"5\" text, [..], {..}, {\"$date\": ..}; Class#key a link")
            default: break
            }
            // A Mixed edited as a type says so (its editor is that type's, the property Mixed).
            let type = edit.mixedAs.map { "mixed as \($0.rawValue)" } ?? property.typeDescription
            var head = "\(edit.object.className).\(property.name) \(type):"
            switch edit.entry?.step {
            case .newKey?, .rename?:
                head = "\(edit.object.className).\(property.name): the key (no '.', not starting with '$'):"
                hints = ["Enter goes on", "Esc cancels"]
            case .key(let key)?:
                head = "\(edit.object.className).\(property.name)[\(ValueFormatter.key(key))] \(type):"
            default: break
            }
            grid.write(head + " " + hints.joined(separator: ", "), column: 0, row: row, style: theme.muted)
            row += 1
            for text in wrapped(edit.refusal, width: state.width) {
                grid.write(text, column: 0, row: row, style: theme.error)
                row += 1
            }
            if edit.isMultiline {
                drawMultiline(edit.editor, top: row, rows: multilineRows(edit.editor), state: state, into: &grid)
            } else {
                InputBarView.drawEditor(edit.editor, prompt: "=", row: row, state: state, into: &grid)
            }
        }
    }
}

extension EditorView {
    /// Rows of the multi-line editor: its lines, at least 3, at most 8.
    static func multilineRows(_ editor: LineEditor) -> Int {
        min(8, max(3, editor.text.split(separator: "\n", omittingEmptySubsequences: false).count))
    }

    /// The lines of a multi-line editor, scrolled to keep the cursor's line in view, the cursor
    /// cell reversed. Lines longer than the screen are cut (the cursor's line scrolls sideways
    /// with it, as in the one-line editor).
    static func drawMultiline(_ editor: LineEditor, top: Int, rows: Int, state: ExplorerState, into grid: inout Grid) {
        let lines = editor.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let before = Array(editor.text)[0..<editor.cursor]
        let cursorLine = before.filter { $0 == "\n" }.count
        let cursorColumn = before.count - (before.lastIndex(of: "\n").map { $0 + 1 } ?? 0)
        let first = max(0, cursorLine - rows + 1)
        for offset in 0..<rows {
            let index = first + offset
            let row = top + offset
            grid.write("│", column: 0, row: row, style: state.theme.muted)
            guard lines.indices.contains(index) else { continue }
            if index == cursorLine {
                // The cursor set at once: a key per column rebuilt the line each time, so a
                // long line took seconds a frame (found by the explorer fuzzer).
                let line = LineEditor(lines[index], cursor: cursorColumn)
                InputBarView.drawEditor(line, prompt: "│", row: row, state: state, into: &grid)
            } else {
                grid.write(lines[index], column: 1, row: row, style: state.theme.input, limit: state.width - 2)
            }
        }
    }
}

/// The form of a new object: one line per field — name (`*` for the primary key), `required`
/// where null is not allowed, the type, and the editor; the field being edited is highlighted.
enum FormView {
    static func draw(_ state: ExplorerState, _ form: ObjectForm, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        grid.write("new \(form.schema.name)", column: 2, row: rows.lowerBound, style: theme.header)
        let nameWidth = min(24, form.fields.map { displayWidth($0.property.name) + 1 }.max() ?? 0)
        let typeWidth = min(16, form.fields.map { displayWidth($0.property.typeDescription) }.max() ?? 0)
        let markWidth = displayWidth("required")
        let valueX = 2 + nameWidth + 1 + markWidth + 1 + typeWidth + 1
        let body = (rows.lowerBound + 2)..<rows.upperBound
        let top = max(0, form.cursor - body.count + 1)
        for (offset, row) in body.enumerated() {
            let index = top + offset
            guard form.fields.indices.contains(index) else { break }
            let field = form.fields[index]
            let selected = index == form.cursor
            if selected { grid.write("›", column: 0, row: row, style: theme.selection) }
            let name = (field.property.isPrimaryKey ? "*" : "") + field.property.name
            grid.write(name, column: 2, row: row, style: theme.header, limit: nameWidth)
            if field.isRequired { grid.write("required", column: 2 + nameWidth + 1, row: row, style: theme.error) }
            grid.write(
                field.property.typeDescription, column: 2 + nameWidth + 1 + markWidth + 1, row: row, style: theme.muted,
                limit: typeWidth)
            // The selected field scrolls, as the query bar does, to keep its cursor in view.
            let chars = Array(field.editor.text)
            let room = max(1, state.width - valueX - 1)
            let start = selected ? InputBarView.firstShown(field.editor, room: room) : 0
            // An untouched default is muted: typing replaces it.
            let style = field.isDefault && !field.editor.text.isEmpty ? theme.muted : (selected ? theme.input : .plain)
            _ = grid.write(String(chars[start...]), column: valueX, row: row, style: style, limit: room)
            guard selected else { continue }
            let cursorX = valueX + displayWidth(String(chars[start..<field.editor.cursor]))
            guard cursorX < state.width else { continue }
            var cell = grid[cursorX, row]
            if cell.isContinuation || cell.text.isEmpty { cell.text = " " }
            cell.style.reverse.toggle()
            grid[cursorX, row] = cell
        }
    }
}
