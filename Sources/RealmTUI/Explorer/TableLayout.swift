import RealmEngine

/// Where a table's columns and rows fall on screen, computed from the visible window only: the
/// rows `topRow ..< topRow + height` are read, and column widths come from what they show.
struct TableLayout {
    struct Column {
        /// Index into the schema's properties.
        let property: Int
        let x: Int
        let width: Int
        /// Whether the right edge cut the column narrower than its content wants.
        let isCut: Bool
    }

    /// Columns for the cursor marks and later change marks.
    static let gutter = 2
    /// Header rows: names, then types.
    static let headerRows = 2

    let columns: [Column]
    /// The result positions shown.
    let rows: Range<Int>
    /// Per visible row, the objects (nil where a read failed).
    let objects: [DynamicObject?]
    /// Per visible row, per column (in `columns` order), what the cell shows.
    let cells: [[ValueFormatter.Shown]]
    /// The number of objects in the result, or the error that stopped counting or reading.
    let count: Int
    let error: String?

    /// Everything a layout depends on besides the table's rows: two frames with the same key
    /// show the same columns and cells.
    struct Key: Equatable {
        let version: UInt64
        let topRow: Int
        let leftColumn: Int
        let sort: RealmEngine.SortDescriptor?
        let width: Int
        let bodyHeight: Int
    }

    /// The layout of `table` in a viewport of `width` × `bodyHeight` rows, made once per
    /// version, window and size (kept in the table's `TableRows`).
    static func cached(_ table: TableScreen, realm: Realm, width: Int, bodyHeight: Int) -> TableLayout {
        // The version of the Realm the rows are read from (the state's).
        let source = table.rows.results.realm
        let key =
            source.isInWriteTransaction || source !== realm
            ? nil
            : Key(
                version: source.version, topRow: table.topRow, leftColumn: table.leftColumn, sort: table.shownSort,
                width: width, bodyHeight: bodyHeight)
        return table.rows.layouts.layout(for: key) { make(table, realm: realm, width: width, bodyHeight: bodyHeight) }
    }

    /// The layout of `table` in a viewport of `width` × `bodyHeight` rows (below the headers).
    static func make(_ table: TableScreen, realm: Realm, width: Int, bodyHeight: Int) -> TableLayout {
        let properties = table.schema.properties
        let formatter = ValueFormatter(realm: realm)
        var error: String?
        let count: Int
        if table.base.isInvalidated {
            count = 0
            error = ExplorerText.ownerDeleted(table.crumb)
        } else {
            do {
                count = try table.rows.checkedCount()
            } catch let failure {
                count = 0
                error = "this table cannot be read (the file is damaged): " + ExplorerText.describe(failure)
            }
        }
        let rows = table.topRow..<min(count, table.topRow + max(0, bodyHeight))
        var objects: [DynamicObject?] = []
        do {
            objects = try table.rows.objects(in: rows)
        } catch let failure {
            if error == nil {
                error = "these rows cannot be read (the file is damaged): " + ExplorerText.describe(failure)
            }
        }
        // Cells are formatted only for the columns that are placed (placement asks for them in order).
        var shownByProperty: [Int: [ValueFormatter.Shown]] = [:]
        var wanted: [Int: Int] = [:]
        let columns = place(
            columnOrder(table),
            wanted: { index in
                if let known = wanted[index] { return known }
                let shown = cells(of: properties[index], objects: objects, formatter: formatter)
                shownByProperty[index] = shown
                let value = wantedWidth(properties[index], table: table, cells: shown, width: width)
                wanted[index] = value
                return value
            }, width: width)
        let rowCells = objects.indices.map { row in
            columns.map { shownByProperty[$0.property]?[row] ?? ValueFormatter.Shown(text: "") }
        }
        return TableLayout(columns: columns, rows: rows, objects: objects, cells: rowCells, count: count, error: error)
    }

    /// The properties in screen order: the primary key first when scrolled past, then from
    /// `leftColumn` on.
    static func columnOrder(_ table: TableScreen) -> [Int] {
        let properties = table.schema.properties
        var order: [Int] = []
        if let pk = properties.firstIndex(where: \.isPrimaryKey), pk < table.leftColumn { order.append(pk) }
        return order + Array(min(table.leftColumn, properties.count)..<properties.count)
    }

    /// What one property shows on each visible row (an unreadable row says so).
    static func cells(of property: Property, objects: [DynamicObject?], formatter: ValueFormatter) -> [ValueFormatter
        .Shown]
    {
        objects.map { object in
            object.map { formatter.cell($0, property) } ?? ValueFormatter.Shown(text: "⚠ unreadable")
        }
    }

    /// The width a column wants: its header's and its visible cells' display width, capped.
    static func wantedWidth(_ property: Property, table: TableScreen, cells: [ValueFormatter.Shown], width: Int) -> Int
    {
        var natural = max(displayWidth(headerName(property, sort: table.shownSort)), displayWidth(headerType(property)))
        for cell in cells { natural = max(natural, displayWidth(cell.text)) }
        return min(natural, max(12, min(40, width / 3)))
    }

    /// Columns placed left to right after the gutter until the width is used; the last may be cut.
    static func place(_ order: [Int], wanted: (Int) -> Int, width: Int) -> [Column] {
        var columns: [Column] = []
        var x = gutter
        for index in order {
            guard x < width else { break }
            let columnWidth = min(wanted(index), width - x)
            columns.append(Column(property: index, x: x, width: columnWidth, isCut: columnWidth < wanted(index)))
            x += columnWidth + 1
        }
        return columns
    }

    /// The smallest `leftColumn` (from the table's) that shows the cursor's column whole: the
    /// window is read and formatted once, then only placement is tried.
    static func leftColumn(showingCursorOf table: TableScreen, realm: Realm, width: Int, bodyHeight: Int) -> Int {
        let properties = table.schema.properties
        guard table.leftColumn < table.cursorColumn else { return table.leftColumn }
        let rows = table.topRow..<min(table.rows.count, table.topRow + max(0, bodyHeight))
        let objects = (try? table.rows.objects(in: rows)) ?? []
        let formatter = ValueFormatter(realm: realm)
        var wanted: [Int: Int] = [:]
        func wantedWidth(_ index: Int) -> Int {
            if let known = wanted[index] { return known }
            let shown = cells(of: properties[index], objects: objects, formatter: formatter)
            let value = TableLayout.wantedWidth(properties[index], table: table, cells: shown, width: width)
            wanted[index] = value
            return value
        }
        var candidate = table
        while candidate.leftColumn < candidate.cursorColumn,
            !place(columnOrder(candidate), wanted: wantedWidth, width: width)
                .contains(where: { $0.property == candidate.cursorColumn && !$0.isCut })
        {
            candidate.leftColumn += 1
        }
        return candidate.leftColumn
    }

    /// A column's name line: the name, `*` for the primary key, the sort arrow.
    static func headerName(_ property: Property, sort: RealmEngine.SortDescriptor?) -> String {
        var text = property.name
        if property.isPrimaryKey { text = "*" + text }
        if let sort, sort.keyPath == property.name { text += sort.ascending ? " ▲" : " ▼" }
        return text
    }

    /// A column's type line.
    static func headerType(_ property: Property) -> String {
        property.typeDescription
    }
}
