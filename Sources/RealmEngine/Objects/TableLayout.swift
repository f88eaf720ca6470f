/// How the classes of a schema map onto stored columns.
///
/// A class's table has one column per persisted property, in order, followed by one hidden
/// *backlink column* per link or list property (of any class) that targets the class. A backlink
/// column holds, for each object, the keys of the objects linking to it through that property —
/// kept on every write, so `LinkingObjects`, `@links` and deleting a linked object cost
/// O(links of that object) rather than a scan of the origin class.
struct TableLayout {
    /// Persisted properties followed by the hidden backlink columns.
    let columns: [Property]
    /// Number of persisted properties (column indices below this are user-visible).
    let persistedCount: Int
    /// Backlink column of this table for (origin class, origin column).
    let backlinkColumns: [OriginLink: Int]
    /// Columns with a search index (primary key included).
    let indexedColumns: [Int]
    let primaryKeyColumn: Int?
    /// Persisted property name → column.
    let columnIndex: [String: Int]

    /// The persisted properties (the first `persistedCount` columns).
    var persisted: ArraySlice<Property> { columns[..<persistedCount] }

    struct OriginLink: Hashable {
        var classIndex: Int
        var column: Int
    }
}

/// The layouts of every class of a schema, and the link graph between them.
package struct SchemaLayout {
    let schema: Schema
    let tables: [TableLayout]
    /// For each (class, link column): the target class and its backlink column.
    let linkTargets: [TableLayout.OriginLink: (classIndex: Int, backlinkColumn: Int)]
    /// Every (class, column) of a Mixed property: where links to any class may be.
    let mixedColumns: [TableLayout.OriginLink]
    /// The link columns whose target class is embedded: links that own their target.
    let owningLinks: Set<TableLayout.OriginLink>

    init(_ schema: Schema) {
        self.schema = schema
        let classes = schema.objectSchemas
        var index: [String: Int] = [:]
        for (i, c) in classes.enumerated() { index[c.name] = i }
        var backlinks = Array(repeating: [(TableLayout.OriginLink, Property)](), count: classes.count)
        var targets: [TableLayout.OriginLink: (Int, Int)] = [:]
        for (ci, c) in classes.enumerated() {
            for (col, p) in c.persistedProperties.enumerated() where p.type == .object {
                guard let t = p.objectClassName.flatMap({ index[$0] }) else { continue }
                let origin = TableLayout.OriginLink(classIndex: ci, column: col)
                let hidden = Property(
                    name: "@links.\(c.name).\(p.name)", type: .object, isList: true, objectClassName: c.name)
                targets[origin] = (t, classes[t].persistedProperties.count + backlinks[t].count)
                backlinks[t].append((origin, hidden))
            }
        }
        var tables: [TableLayout] = []
        for (ci, c) in classes.enumerated() {
            let persisted = c.persistedProperties
            var map: [TableLayout.OriginLink: Int] = [:]
            for (k, (origin, _)) in backlinks[ci].enumerated() { map[origin] = persisted.count + k }
            tables.append(
                TableLayout(
                    columns: persisted + backlinks[ci].map(\.1),
                    persistedCount: persisted.count,
                    backlinkColumns: map,
                    // A primary key is always indexed (its lookups and its uniqueness go through the
                    // index), also when the property was made the key after it was created.
                    indexedColumns: persisted.indices.filter { persisted[$0].isIndexed || persisted[$0].isPrimaryKey },
                    primaryKeyColumn: persisted.firstIndex(where: \.isPrimaryKey),
                    columnIndex: Dictionary(
                        persisted.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })))
        }
        self.tables = tables
        linkTargets = targets
        mixedColumns = SchemaLayout.mixedColumns(of: schema)
        owningLinks = Set(targets.filter { classes[$0.value.0].isEmbedded }.keys)
    }

    func classIndex(_ name: String) -> Int? {
        schema.objectSchemas.firstIndex { $0.name == name }
    }
}

/// The stored state of one table in one version: its cluster tree, key counter and indexes.
struct TableState {
    var root: TreeChild?
    /// The next object key to hand out (keys are never reused).
    var nextKey: Int64 = 0
    /// Search index trees by column.
    var indexes: [Int: TreeChild?] = [:]

    var count: Int { root?.count ?? 0 }
}
