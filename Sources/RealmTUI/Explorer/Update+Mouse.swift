import RealmEngine

extension ExplorerState {
    /// A click selects a class, row or cell (a click on what is already selected opens it); a
    /// click on a table header sorts by that column (again: the other way); the wheel scrolls.
    mutating func handleMouse(_ mouse: MouseEvent) -> [ExplorerEffect] {
        guard case .browse = mode else { return [] }
        switch mouse.kind {
        case .wheelUp: moveRows(-3)
        case .wheelDown: moveRows(3)
        case .press(button: 1): click(column: mouse.column, row: mouse.row)
        case .press: break
        }
        return []
    }

    private mutating func click(column: Int, row: Int) {
        let rows = contentRows
        guard rows.contains(row) else { return }
        let offset = row - rows.lowerBound
        switch current {
        case .classes(var screen):
            let listWidth = ClassesView.listWidth(self)
            if column >= listWidth {
                screen.previewFocused = true
                current = .classes(screen)
                return
            }
            let index = screen.top + offset
            guard visibleClasses.indices.contains(index) else { return }
            let wasSelected = index == screen.cursor && !screen.previewFocused
            screen.cursor = index
            screen.previewFocused = false
            current = .classes(screen)
            if wasSelected { openSelection() }
        case .table(var table):
            let layout = TableLayout.cached(table, realm: realm, width: width, bodyHeight: tableBodyHeight)
            let hit = layout.columns.first { column >= $0.x && column < $0.x + $0.width + 1 }
            if offset < TableLayout.headerRows {
                guard let hit else { return }
                table.cursorColumn = hit.property
                current = .table(table)
                let property = table.schema.properties[hit.property]
                let ascending = !(table.shownSort?.keyPath == property.name && table.shownSort?.ascending == true)
                sortByCursorColumn(ascending: ascending)
                return
            }
            let index = table.topRow + offset - TableLayout.headerRows
            guard index < layout.count else { return }
            let wasSelected = index == table.cursorRow && hit?.property == table.cursorColumn
            table.cursorRow = index
            if let hit { table.cursorColumn = hit.property }
            current = .table(table)
            if wasSelected { openSelection() }
        case .detail(var detail):
            let layout = DetailLayout.cached(detail, realm: realm, width: width)
            let line = detail.topLine + offset
            guard layout.lines.indices.contains(line) else { return }
            let wasSelected = detail.cursorRow == layout.lines[line].row
            detail.cursorRow = layout.lines[line].row
            current = .detail(detail)
            if wasSelected { openSelection() }
        case .values(var values):
            let index = values.top + offset
            guard index < rowCount else { return }
            values.cursor = index
            current = .values(values)
        }
        keepCursorInView()
    }
}
