import RealmEngine

/// The edit flow's input bar: the property being edited, its type and whether it may be null,
/// the editor, and a refusal on the row above; or the `y/n` question of a confirmation.
enum EditorView {
    /// Rows the edit flow takes above the status line.
    static func rows(_ flow: EditFlow) -> Int {
        switch flow {
        case .editing(let edit): edit.refusal == nil ? 2 : 3
        case .confirming: 1
        }
    }

    static func draw(_ state: ExplorerState, _ flow: EditFlow, into grid: inout Grid) {
        let theme = state.theme
        var row = state.contentRows.upperBound
        switch flow {
        case .confirming(let confirmation):
            var style = theme.error
            style.bold = true
            grid.fill(row: row, style: theme.input)
            grid.write(confirmation.question, column: 0, row: row, style: style)
        case .editing(let edit):
            let property = edit.property
            var hints = ["Enter writes", "Esc cancels", "^U clears"]
            if property.isOptional { hints.append("null/^N") }
            switch property.type {
            case .bool: hints.append("space toggles")
            case .date: hints.append("ISO 8601/now")
            case .objectId, .uuid: hints.append("new: generate")
            case .data: hints.append("0x hex/base64")
            case .object: hints.append("primary key or \(property.objectClassName ?? "")#key")
            default: break
            }
            let head = "\(edit.object.className).\(property.name) \(property.typeDescription):"
            grid.write(head + " " + hints.joined(separator: ", "), column: 0, row: row, style: theme.muted)
            row += 1
            if let refusal = edit.refusal {
                grid.write(refusal, column: 0, row: row, style: theme.error)
                row += 1
            }
            InputBarView.drawEditor(edit.editor, prompt: "=", row: row, state: state, into: &grid)
        }
    }
}
