import RealmEngine

/// One object: every property, one per line, full values wrapped.
enum DetailView {
    static func draw(_ state: ExplorerState, _ detail: DetailScreen, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        let layout = DetailLayout.cached(detail, realm: state.realm, width: state.width)
        if let error = layout.error {
            grid.write("⚠ \(error)", column: 2, row: rows.lowerBound, style: theme.error)
            return
        }
        let properties = detail.object.objectSchema.properties
        let valueX = DetailLayout.gutter + layout.nameWidth + 2
        for (offset, row) in rows.enumerated() {
            let index = detail.topLine + offset
            guard layout.lines.indices.contains(index) else { break }
            let line = layout.lines[index]
            let property = properties[line.property]
            let nested = !line.path.isEmpty
            let selected = line.row == detail.cursorRow
            if selected { grid.fill(row: row, style: theme.selection) }
            // A nested row is marked by its own change, a property's row by the property's.
            let highlighted =
                nested
                ? (detail.nestedMarks[line.row].map { $0 > state.now } ?? false)
                : (detail.changes[line.property].map { $0.until > state.now } ?? false)
            if line.isFirst {
                if selected { grid.write("›", column: 0, row: row, style: theme.selection) }
                if highlighted {
                    var mark = theme.modified
                    if selected { mark.reverse = true }
                    grid.write("~", column: 1, row: row, style: mark)
                }
                var name = line.label ?? property.name
                if property.isPrimaryKey && !nested { name = "*" + name }
                // A nested row's name is indented by its depth, within the name column.
                let indent = min(2 * line.depth, max(0, layout.nameWidth - 1))
                grid.write(
                    name, column: DetailLayout.gutter + indent, row: row,
                    style: selected ? theme.selectedCell : theme.header,
                    limit: layout.nameWidth - indent)
            }
            let opens = nested ? line.isExpandable : TableView.opens(property)
            var style: CellStyle = line.isNull ? theme.null : (opens ? theme.link : .plain)
            if line.isPrevious { style = theme.muted } else if highlighted { style = theme.modified }
            var text = line.text
            if !nested, let staged = state.stagedValue(detail.object, property) {
                // Batch mode: the staged value on the property's first line, the old one hidden.
                text = line.isFirst ? staged.text : ""
                style = theme.staged
            }
            if selected {
                // Under the cursor a changed value is the change's style reversed, as the line
                // is; `was:` is dimmed.
                if highlighted && !line.isPrevious {
                    style = theme.modified
                    style.reverse = true
                } else {
                    style = theme.selection
                    if line.isPrevious { style.dim = true }
                }
            }
            grid.write(text, column: valueX, row: row, style: style)
        }
    }
}

/// The values of a list of primitives, with their positions.
enum ValuesView {
    static func draw(_ state: ExplorerState, _ screen: ValuesScreen, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        let formatter = ValueFormatter(realm: state.realm)
        // The elements are read once a frame (each read of one element would read them all).
        let items: [ValueRow]
        do {
            items = try screen.rows()
        } catch {
            grid.write(
                "⚠ \(ExplorerText.listUnreadable(error, screen.property.name))", column: 2, row: rows.lowerBound,
                style: theme.error)
            return
        }
        let count = items.count
        let isDictionary = items.first?.key != nil || (count == 0 && screen.isDictionary)
        if count == 0 {
            grid.write(
                isDictionary ? "the dictionary is empty (a puts a key)" : "the list is empty", column: 2,
                row: rows.lowerBound, style: theme.muted)
            return
        }
        // A dictionary's keys in a column as wide as the widest (at most a third of the screen).
        let keys = items.map { $0.key.map { ValueFormatter.key($0) } ?? "" }
        let indexWidth =
            isDictionary
            ? min(max(1, keys.map(displayWidth).max() ?? 1), max(4, state.width / 3)) : String(count - 1).count
        let element = screen.path.isEmpty ? screen.property : screen.elementProperty
        for (offset, row) in rows.enumerated() {
            let index = screen.top + offset
            guard index < count else { break }
            let selected = index == screen.cursor
            if selected {
                grid.fill(row: row, style: theme.selection)
                grid.write("›", column: 0, row: row, style: theme.selection)
            }
            if isDictionary {
                grid.write(
                    truncate(keys[index], toWidth: indexWidth) + " →", column: 2, row: row,
                    style: selected ? theme.selection : theme.muted)
            } else {
                grid.write(
                    String(index), column: 2, row: row, style: selected ? theme.selection : theme.muted,
                    width: indexWidth, alignment: .right)
            }
            let valueColumn = 4 + indexWidth + (isDictionary ? 2 : 0)
            let shown = formatter.shown(items[index].value, element, oneLine: true, element: screen.path.isEmpty)
            grid.write(
                shown.text, column: valueColumn, row: row,
                style: selected ? theme.selection : (shown.isNull ? theme.null : .plain))
        }
    }
}
