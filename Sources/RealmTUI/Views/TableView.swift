import RealmEngine

/// A table of objects: headers (name, `*` primary key, sort arrow; type), then the visible rows.
enum TableView {
    static func draw(_ state: ExplorerState, _ table: TableScreen, into grid: inout Grid) {
        let theme = state.theme
        let rows = state.contentRows
        let layout = TableLayout.cached(
            table, realm: state.realm, width: state.width, bodyHeight: state.tableBodyHeight)
        let properties = table.schema.properties
        let nameRow = rows.lowerBound
        let typeRow = rows.lowerBound + 1
        for column in layout.columns {
            let property = properties[column.property]
            let style = column.property == table.cursorColumn ? theme.selectedCell : theme.header
            grid.write(
                TableLayout.headerName(property, sort: table.shownSort), column: column.x, row: nameRow, style: style,
                width: column.width)
            grid.write(
                TableLayout.headerType(property), column: column.x, row: typeRow, style: theme.muted,
                limit: column.width)
        }
        if let first = layout.columns.first(where: {
            !properties[$0.property].isPrimaryKey || $0.property >= table.leftColumn
        }),
            first.property > 0, table.leftColumn > 0
        {
            grid.write("◀", column: 0, row: nameRow, style: theme.muted)
        }
        if let last = layout.columns.last, last.property < properties.count - 1 || last.isCut {
            grid.write("▶", column: state.width - 1, row: nameRow, style: theme.muted)
        }
        let body = (typeRow + 1)..<rows.upperBound
        if let error = layout.error {
            grid.write("⚠ \(error)", column: 2, row: body.lowerBound, style: theme.error)
            return
        }
        if layout.count == 0, let row = body.first {
            let text = table.query.isEmpty ? "no objects" : "no objects match this query"
            grid.write(text, column: 2, row: row, style: theme.muted)
            return
        }
        for (offset, resultRow) in layout.rows.enumerated() {
            let row = body.lowerBound + offset
            guard row < body.upperBound else { break }
            let selected = resultRow == table.cursorRow
            if selected {
                grid.fill(row: row, style: theme.selection)
                grid.write("›", column: 0, row: row, style: theme.selection)
            }
            var changedCells: Set<Int> = []
            if let key = layout.objects[offset]?.key, let mark = table.marks[key], mark.until > state.now {
                var style = mark.kind == .inserted ? theme.inserted : theme.modified
                if selected { style.reverse = true }
                grid.write(mark.kind == .inserted ? "+" : "~", column: 1, row: row, style: style)
                if mark.kind == .modified { changedCells = mark.cells }
            }
            for (index, column) in layout.columns.enumerated() {
                let property = properties[column.property]
                let staged = state.stagedCell(table, row: resultRow, property: property)
                let shown = staged ?? layout.cells[offset][index]
                var style: CellStyle =
                    staged != nil ? theme.staged : shown.isNull ? theme.null : (opens(property) ? theme.link : .plain)
                // A staged edit (batch mode) keeps its own colour: it is what `:commit` would write.
                let changed = staged == nil && changedCells.contains(column.property)
                if changed { style = theme.modified }
                if selected {
                    // On the cursor's row a changed cell is the change's style reversed, as the
                    // row is; the cell under the cursor keeps the cursor's style.
                    if column.property == table.cursorColumn {
                        style = theme.selectedCell
                    } else if changed {
                        style.reverse = true
                    } else {
                        style = theme.selection
                    }
                }
                let alignment: TextAlignment =
                    property.type.isNumeric && !property.isList && !shown.isNull ? .right : .left
                grid.write(
                    shown.text, column: column.x, row: row, style: style, width: column.width, alignment: alignment)
            }
        }
    }

    /// Whether Enter on this property's value opens something (a link, list or backlinks).
    static func opens(_ property: Property) -> Bool {
        property.type == .object || property.type == .linkingObjects || property.isList
    }
}
