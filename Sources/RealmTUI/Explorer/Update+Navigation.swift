import RealmEngine

extension ExplorerState {
    /// Rows a page moves: the visible rows of the current screen.
    var pageSize: Int {
        let rows = contentRows.count
        if case .table = current { return max(1, rows - TableLayout.headerRows) }
        return max(1, rows)
    }

    /// Rows of the table body (below its headers).
    var tableBodyHeight: Int { max(0, contentRows.count - TableLayout.headerRows) }

    /// The number of rows the current screen's cursor moves over.
    var rowCount: Int {
        switch current {
        case .classes(let screen): screen.previewFocused ? previewLineCount : visibleClasses.count
        case .table(let table): table.rows.count
        case .detail(let detail): DetailLayout.cached(detail, realm: realm, width: width).rows.count
        case .values(let values): (try? values.rows().count) ?? 0
        }
    }

    var previewLineCount: Int {
        let classes = visibleClasses
        guard case .classes(let screen) = stack[0], classes.indices.contains(screen.cursor) else { return 0 }
        return classes[screen.cursor].properties.count + 2
    }

    /// Moves the cursor `delta` rows (clamped), scrolling only as much as needed.
    mutating func moveRows(_ delta: Int) {
        let count = rowCount
        func moved(_ row: Int) -> Int { max(0, min(count - 1, row.addingReportingOverflow(delta).partialValue)) }
        switch current {
        case .classes(var screen):
            if screen.previewFocused {
                screen.previewTop = max(0, min(max(0, count - contentRows.count), screen.previewTop + delta))
            } else {
                screen.cursor = moved(screen.cursor)
                screen.previewTop = 0
            }
            current = .classes(screen)
        case .table(var table):
            table.cursorRow = moved(table.cursorRow)
            current = .table(table)
        case .detail(var detail):
            // A value taller than the screen scrolls line by line before the cursor leaves it
            // (`g`/`G` jump: their delta is half of Int's range).
            if let hidden = hiddenLinesOfCursorValue(detail, toward: delta), delta.magnitude < UInt(Int.max / 4) {
                detail.topLine += delta > 0 ? min(delta, hidden) : -min(-delta, hidden)
            } else {
                // The cursor moves over rows: properties and the rows nested under expanded ones.
                let rows = DetailLayout.cached(detail, realm: realm, width: width).rows
                if let at = rows.firstIndex(of: detail.cursorRow) { detail.cursorRow = rows[moved(at)] }
            }
            current = .detail(detail)
        case .values(var values):
            values.cursor = moved(values.cursor)
            current = .values(values)
        }
        keepCursorInView()
    }

    /// The lines of the detail cursor's value out of view in the direction of `delta` (below
    /// when positive), when there are any: the value is taller than the screen.
    private func hiddenLinesOfCursorValue(_ detail: DetailScreen, toward delta: Int) -> Int? {
        guard delta != 0,
            let span = DetailLayout.cached(detail, realm: realm, width: width).span(of: detail.cursorRow)
        else { return nil }
        let hidden =
            delta > 0 ? span.upperBound - (detail.topLine + contentRows.count) : detail.topLine - span.lowerBound
        return hidden > 0 ? hidden : nil
    }

    /// Moves the table's column cursor `delta` columns (clamped).
    mutating func moveColumns(_ delta: Int) {
        guard case .table(var table) = current else { return }
        let last = table.schema.properties.count - 1
        table.cursorColumn = max(0, min(last, table.cursorColumn.addingReportingOverflow(delta).partialValue))
        current = .table(table)
        keepCursorInView()
    }

    /// Clamps cursors to their lists and scrolls so the cursor (row and column) is on screen.
    mutating func keepCursorInView() {
        if case .changes = mode { moveChangesCursor(0) }
        let count = rowCount
        switch current {
        case .classes(var screen):
            let height = contentRows.count
            screen.cursor = max(0, min(screen.cursor, visibleClasses.count - 1))
            screen.top = scrolled(top: screen.top, cursor: screen.cursor, count: visibleClasses.count, height: height)
            current = .classes(screen)
        case .table(var table):
            let height = tableBodyHeight
            table.cursorRow = max(0, min(table.cursorRow, count - 1))
            table.topRow = scrolled(top: table.topRow, cursor: table.cursorRow, count: count, height: height)
            table.cursorColumn = max(0, min(table.cursorColumn, table.schema.properties.count - 1))
            table.cursorKey = count > 0 ? (try? table.rows.object(at: table.cursorRow))?.key : nil
            if table.cursorColumn < table.leftColumn { table.leftColumn = table.cursorColumn }
            table.leftColumn = TableLayout.leftColumn(
                showingCursorOf: table, realm: realm, width: width, bodyHeight: height)
            current = .table(table)
        case .detail(var detail):
            let lines = DetailLayout.cached(detail, realm: realm, width: width)
            // A nested row gone (collapsed, or its element removed): the nearest row above it
            // that is still there, else its property's.
            let rows = Set(lines.rows)
            while !detail.cursorPath.isEmpty && !rows.contains(detail.cursorRow) { detail.cursorPath.removeLast() }
            detail.cursor = max(0, min(detail.cursor, detail.object.objectSchema.properties.count - 1))
            if let span = lines.span(of: detail.cursorRow) {
                let height = contentRows.count
                if span.count > height {
                    // Taller than the screen: the window stays within the value.
                    detail.topLine = min(max(detail.topLine, span.lowerBound), span.upperBound - height)
                } else {
                    if span.lowerBound < detail.topLine { detail.topLine = span.lowerBound }
                    if span.upperBound > detail.topLine + height { detail.topLine = span.upperBound - height }
                }
            }
            detail.topLine = max(0, min(detail.topLine, max(0, lines.lines.count - contentRows.count)))
            current = .detail(detail)
        case .values(var values):
            values.cursor = max(0, min(values.cursor, count - 1))
            values.top = scrolled(top: values.top, cursor: values.cursor, count: count, height: contentRows.count)
            current = .values(values)
        }
    }

    /// The first visible row that keeps `cursor` in a window of `height` rows, moving `top` as
    /// little as possible and never leaving blank rows below the last one.
    func scrolled(top: Int, cursor: Int, count: Int, height: Int) -> Int {
        guard height > 0, count > 0 else { return 0 }
        var top = top
        if cursor < top { top = cursor }
        if cursor >= top + height { top = cursor - height + 1 }
        return max(0, min(top, count - height))
    }

    /// Tab: on the class list, moves the focus between the list and the schema preview; in a
    /// table, moves to the next or previous column.
    mutating func switchPane(forward: Bool) {
        switch current {
        case .classes(var screen):
            screen.previewFocused.toggle()
            current = .classes(screen)
        case .table:
            moveColumns(forward ? 1 : -1)
        default: break
        }
    }

    /// Sets the class list's filter and keeps the cursor on a listed class.
    mutating func setClassFilter(_ text: String) {
        guard case .classes(var screen) = stack[0] else { return }
        screen.filter = text
        screen.cursor = 0
        screen.top = 0
        stack[0] = .classes(screen)
        keepCursorInView()
    }
}
