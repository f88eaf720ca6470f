/// The type picker of a Mixed value's edit: a box over the right of the content, one choice a
/// row, the cursor's highlighted and the current value's type marked `(now)`; it scrolls to keep
/// the cursor in view on a short screen.
enum MixedTypePickerView {
    static func draw(_ state: ExplorerState, _ picker: MixedTypePicker, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        let now = picker.isChoosingClass || picker.isNew ? nil : MixedKind(of: picker.current).rawValue
        let nowClass: String? =
            if picker.isChoosingClass, case .typedLink(let link) = picker.current { link.className } else { nil }
        let title = picker.isChoosingClass ? " link to " : " edit as "
        let mark = " (now)"
        let labelWidth = picker.choices.map { displayWidth($0) }.max() ?? 0
        let inner = min(state.width - 4, max(displayWidth(title) + 2, labelWidth + displayWidth(mark) + 3))
        let visible = max(1, min(picker.choices.count, rows.count - 2))
        let height = visible + 2
        let left = max(0, state.width - inner - 4)
        let top = rows.lowerBound + max(0, min(1, rows.count - height))
        let first = max(0, min(picker.cursor - visible + 1, picker.choices.count - visible))
        let border = theme.header
        grid.write("┌" + String(repeating: "─", count: inner) + "┐", column: left, row: top, style: border)
        grid.write(title, column: left + 2, row: top, style: border)
        for offset in 0..<visible {
            let index = first + offset
            let row = top + 1 + offset
            grid.write("│" + String(repeating: " ", count: inner) + "│", column: left, row: row, style: border)
            guard picker.choices.indices.contains(index) else { continue }
            let choice = picker.choices[index]
            let selected = index == picker.cursor
            let style = selected ? theme.selection : theme.input
            let text = (selected ? "› " : "  ") + choice
            let padded = text + String(repeating: " ", count: max(0, inner - displayWidth(text)))
            grid.write(padded, column: left + 1, row: row, style: style, limit: inner)
            if choice == now || choice == nowClass {
                grid.write(
                    mark, column: left + 1 + displayWidth(text), row: row, style: selected ? style : theme.muted,
                    limit: max(0, inner - displayWidth(text)))
            }
        }
        // More choices above or below the window: an arrow in the border says so.
        let bottom = "└" + String(repeating: "─", count: inner) + "┘"
        grid.write(bottom, column: left, row: top + height - 1, style: border)
        if first > 0 { grid.write("↑", column: left + inner - 1, row: top, style: border) }
        if first + visible < picker.choices.count {
            grid.write("↓", column: left + inner - 1, row: top + height - 1, style: border)
        }
    }
}
