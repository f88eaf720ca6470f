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
            let highlighted = nested ? (detail.nestedMarks[line.row].map { $0 > state.now } ?? false)
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
                grid.write(name, column: DetailLayout.gutter + indent, row: row, style: selected ? theme.selectedCell : theme.header,
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
        let items: [Value]
        do {
            items = try screen.object.list(forKey: screen.property.name).elements()
        } catch {
            grid.write("⚠ \(ExplorerText.listUnreadable(error, screen.property.name))", column: 2, row: rows.lowerBound, style: theme.error)
            return
        }
        let count = items.count
        if count == 0 {
            grid.write("the list is empty", column: 2, row: rows.lowerBound, style: theme.muted)
            return
        }
        let indexWidth = String(count - 1).count
        for (offset, row) in rows.enumerated() {
            let index = screen.top + offset
            guard index < count else { break }
            let selected = index == screen.cursor
            if selected {
                grid.fill(row: row, style: theme.selection)
                grid.write("›", column: 0, row: row, style: theme.selection)
            }
            grid.write(String(index), column: 2, row: row, style: selected ? theme.selection : theme.muted,
                       width: indexWidth, alignment: .right)
            let shown = formatter.shown(items[index], screen.property, oneLine: true, element: true)
            grid.write(shown.text, column: 4 + indexWidth, row: row,
                       style: selected ? theme.selection : (shown.isNull ? theme.null : .plain))
        }
    }
}
