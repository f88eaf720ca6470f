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

    /// The layout of `table` in a viewport of `width` × `bodyHeight` rows (below the headers).
    static func make(_ table: TableScreen, realm: Realm, width: Int, bodyHeight: Int) -> TableLayout {
        let properties = table.schema.properties
        let formatter = ValueFormatter(realm: realm)
        var error: String?
        let count: Int
        do {
            count = try table.rows.checkedCount()
        } catch let failure {
            count = 0
            error = "this table cannot be read (the file is damaged): " + ExplorerText.describe(failure)
        }
        let rows = table.topRow..<min(count, table.topRow + max(0, bodyHeight))
        var objects: [DynamicObject?] = []
        do {
            objects = try table.rows.objects(in: rows)
        } catch let failure {
            if error == nil { error = "these rows cannot be read (the file is damaged): " + ExplorerText.describe(failure) }
        }
        let cap = max(12, min(40, width / 3))
        var order: [Int] = []
        if let pk = properties.firstIndex(where: \.isPrimaryKey), pk < table.leftColumn { order.append(pk) }
        order += Array(min(table.leftColumn, properties.count)..<properties.count)
        var columns: [Column] = []
        var cells = Array(repeating: [ValueFormatter.Shown](), count: objects.count)
        var x = gutter
        for index in order {
            guard x < width else { break }
            let property = properties[index]
            var natural = max(displayWidth(headerName(property, sort: table.sort)), displayWidth(headerType(property)))
            var shown: [ValueFormatter.Shown] = []
            for object in objects {
                let cell = object.map { formatter.cell($0, property) } ?? ValueFormatter.Shown(text: "⚠ unreadable")
                natural = max(natural, displayWidth(cell.text))
                shown.append(cell)
            }
            let wanted = min(natural, cap)
            let columnWidth = min(wanted, width - x)
            columns.append(Column(property: index, x: x, width: columnWidth, isCut: columnWidth < wanted))
            for i in shown.indices { cells[i].append(shown[i]) }
            x += columnWidth + 1
        }
        return TableLayout(columns: columns, rows: rows, objects: objects, cells: cells, count: count, error: error)
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

    /// Whether property `index` is on screen and not cut by the right edge.
    func showsWhole(_ index: Int) -> Bool {
        columns.contains { $0.property == index && !$0.isCut }
    }
}
