import Foundation
import RealmEngine

/// One table as `RealmCoreWriter` writes it: its columns and its objects (any order; written
/// in key order).
public struct RealmCoreWriterTable: Sendable {
    /// A column: its name, element type, whether it (or, for a list, each element) holds nil,
    /// and whether it is a list (its values `.list`).
    public struct Column: Sendable {
        public var name: String
        public var type: CoreColumnType
        public var nullable: Bool
        public var isList: Bool
        /// Whether it is a set (its values `.set`, in any order: written in Realm Core's).
        public var isSet: Bool
        /// Whether it is a dictionary with string keys (its values `.dictionary`, any order;
        /// a dictionary of links holds `.link` or `.null`).
        public var isDictionary: Bool
        /// For a link column (type `.link`; a list of links with `isList`): the target table's
        /// name. Its values are `.link` (the table key in them is ignored), `.null` or `.list`
        /// of `.link`; each target gets a backlink column, as Realm Core keeps them.
        public var linkTarget: String?
        /// Whether the column has a search index of its own (int, bool, string, timestamp,
        /// ObjectId, UUID); the primary-key column has one without this.
        public var isIndexed = false
        public init(
            name: String, type: CoreColumnType, nullable: Bool, isList: Bool = false, isSet: Bool = false,
            isDictionary: Bool = false, linkTarget: String? = nil
        ) {
            self.isSet = isSet
            self.isDictionary = isDictionary
            self.name = name
            self.type = type
            self.nullable = nullable
            self.isList = isList
            self.linkTarget = linkTarget
        }

        /// Realm Core's column attributes: nullable 16, list 32, dictionary 64, set 128 (in the
        /// spec and the key).
        var attributes: Int64 { (nullable ? 16 : 0) | (isList ? 32 : 0) | (isDictionary ? 64 : 0) | (isSet ? 128 : 0) }

        /// The spec's type entry: a dictionary keeps its key type (string, 2) above the type.
        var specType: Int64 { Int64(type.rawValue) | (isDictionary ? 2 << 16 : 0) }
    }

    /// An object: its key (≥ 0) and one value per column, in column order.
    public struct Object: Sendable {
        public var key: Int64
        public var values: [CoreValue]
        public init(key: Int64, values: [CoreValue]) {
            self.key = key
            self.values = values
        }
    }

    /// The table's name (`class_Dog`, `metadata`).
    public var name: String
    public var columns: [Column]
    public var objects: [Object]
    /// The primary-key column's name (int, string, ObjectId or UUID, unique values; it gets a
    /// search index).
    public var primaryKey: String?
    /// Whether the table is embedded (table type 1): each of its objects is linked to by
    /// exactly one parent, through a link, list or dictionary of links.
    public var isEmbedded: Bool

    public init(name: String, columns: [Column], objects: [Object], isEmbedded: Bool = false) {
        self.name = name
        self.columns = columns
        self.objects = objects
        self.isEmbedded = isEmbedded
    }
}

/// Writes one table: its spec, its cluster tree and its top array (Realm Core's
/// `Table::create_empty_table` layout, 14 slots).
struct CoreTableWriter {
    /// Realm Core's cluster node size (`1 << node_shift_factor` in SDK builds): objects per
    /// leaf, children per inner node.
    static let nodeSize = 256

    let table: RealmCoreWriterTable
    /// The table key: its position in the group (no removed tables, so no tag).
    let key: Int64
    /// Per link column (by index): the target table's key and its backlink column's key.
    var linkOpposites: [Int: (table: Int64, column: Int64)] = [:]
    /// The backlink columns this table holds (after its own columns, in this order).
    var backlinks: [CoreBacklinkColumn] = []

    /// The key of this table's `i`th backlink column.
    func backlinkKey(_ i: Int) -> Int64 {
        Int64(table.columns.count + i) | Int64(CoreColumnType.backlink.rawValue) << 16 | (key & 0xFFFF_FFFF) << 30
    }

    /// The column key Realm Core gives column `index` of a fresh table: leaf index, type,
    /// attributes (nullable) and the tag `column sequence number (0) ^ table key`.
    func columnKey(_ index: Int) -> Int64 {
        let c = table.columns[index]
        return Int64(index) | Int64(c.type.rawValue) << 16 | c.attributes << 22 | (key & 0xFFFF_FFFF) << 30
    }

    func write(_ w: inout CoreNodeWriter) throws -> Int {
        let name = table.name
        guard table.columns.count < 0xFFFF else {
            throw RealmError.unsupportedFeature("\(name): \(table.columns.count) columns")
        }
        for (i, c) in table.columns.enumerated() where table.columns[..<i].contains(where: { $0.name == c.name }) {
            throw RealmError.invalidInput("\(name): two columns are named '\(c.name)'")
        }
        for c in table.columns where c.type == .link && c.nullable == (c.isList || c.isSet) {
            throw RealmError.invalidInput(
                "\(name).\(c.name): Realm Core's single links are nullable and its lists and sets of links are not")
        }
        let objects = table.objects.sorted { $0.key < $1.key }
        for (i, o) in objects.enumerated() {
            guard o.key >= 0 else {
                throw RealmError.invalidInput(
                    "\(name): object key \(o.key) is negative (Realm Core keeps those for tombstones)")
            }
            guard i == 0 || objects[i - 1].key != o.key else {
                throw RealmError.invalidInput("\(name): two objects have key \(o.key)")
            }
            guard o.values.count == table.columns.count else {
                throw RealmError.invalidInput(
                    "\(name): object \(o.key) has \(o.values.count) values for \(table.columns.count) columns")
            }
        }
        let primaryKey = try primaryKeyColumn()
        let spec = try writeSpec(primaryKey: primaryKey, &w)
        let cluster = try writeTree(objects, &w)
        let indexes = try w.slots(
            try writeSearchIndexes(objects, primaryKey: primaryKey, &w), what: "\(name) search indexes")
        // A link column names its target and the target's backlink column, a backlink column
        // its origin table and link column; other columns hold Realm Core's null keys.
        var tables: [Int64] = []
        var columns: [Int64] = []
        for i in table.columns.indices {
            tables.append(linkOpposites[i]?.table ?? 0x7FFF_FFFF)
            columns.append(linkOpposites[i]?.column ?? Int64.max)
        }
        for b in backlinks {
            tables.append(b.originTable)
            columns.append(b.originColumn)
        }
        let oppositeTables = try w.ints(tables, what: "\(name) opposite tables")
        let oppositeColumns = try w.ints(columns, what: "\(name) opposite columns")
        // The object key sequence continues after the largest key, as Realm Core's would.
        let sequence: CoreSlot = objects.last.map { .tagged($0.key + 1) } ?? .null
        return try w.slots(
            [
                .ref(spec), .null, .ref(cluster), .tagged(key), .ref(indexes), .tagged(0), .tagged(0),
                .ref(oppositeTables), .ref(oppositeColumns), sequence, .null, primaryKeySlot(primaryKey),
                .tagged(table.isEmbedded ? 1 : 0), .null,
            ],
            what: "\(name) table top")
    }

    /// The spec: types, names, attributes, (no sub-specs, no enum keys), column keys.
    private func writeSpec(primaryKey: Int?, _ w: inout CoreNodeWriter) throws -> Int {
        let name = table.name
        // Backlink columns come last, with type 14, no attributes and no name.
        let types = try w.ints(
            table.columns.map(\.specType) + backlinks.map { _ in Int64(CoreColumnType.backlink.rawValue) },
            what: "\(name) spec types")
        let names = try w.shortStrings(
            table.columns.map { Array($0.name.utf8) }, nullable: false, what: "\(name) column names")
        let attributes = try w.ints(
            table.columns.indices.map { specAttributes($0, primaryKey: primaryKey) } + backlinks.map { _ in 0 },
            what: "\(name) spec attributes")
        let keys = try w.ints(
            table.columns.indices.map(columnKey) + backlinks.indices.map(backlinkKey), what: "\(name) column keys")
        return try w.slots(
            [.ref(types), .ref(names), .ref(attributes), .null, .null, .ref(keys)], what: "\(name) spec")
    }

    /// The cluster tree: leaves of up to 256 objects, inner nodes of up to 256 children above
    /// them, every inner node with its key-offset array. A child's offset is 0 for the first
    /// child (as Realm Core's splits leave it) and its first key otherwise.
    private func writeTree(_ objects: [RealmCoreWriterTable.Object], _ w: inout CoreNodeWriter) throws -> Int {
        // Leaves as ranges of `objects`, then levels of groups above them until one node is left.
        var level: [Range<Int>] = stride(from: 0, to: objects.count, by: Self.nodeSize).map {
            $0..<min($0 + Self.nodeSize, objects.count)
        }
        if level.isEmpty { level = [0..<0] }
        var levels: [[Range<Int>]] = [level]
        while level.count > 1 {
            // Each element of an upper level is a range of indexes into the level below.
            level = stride(from: 0, to: level.count, by: Self.nodeSize).map {
                $0..<min($0 + Self.nodeSize, level.count)
            }
            levels.append(level)
        }
        return try writeNode(depth: levels.count - 1, index: 0, offset: 0, levels: levels, objects: objects, &w)
    }

    /// The objects (as a range of `objects`) under node `index` of level `depth`.
    private func objectRange(depth: Int, index: Int, levels: [[Range<Int>]]) -> Range<Int> {
        if depth == 0 { return levels[0][index] }
        let children = levels[depth][index]
        let first = objectRange(depth: depth - 1, index: children.lowerBound, levels: levels)
        let last = objectRange(depth: depth - 1, index: children.upperBound - 1, levels: levels)
        return first.lowerBound..<last.upperBound
    }

    private func writeNode(
        depth: Int, index: Int, offset: Int64, levels: [[Range<Int>]],
        objects: [RealmCoreWriterTable.Object], _ w: inout CoreNodeWriter
    ) throws -> Int {
        let name = table.name
        if depth == 0 {
            let range = levels[0][index]
            let keys = objects[range].map { UInt64($0.key - offset) }
            var slots: [CoreSlot] = []
            if keys.enumerated().allSatisfy({ UInt64($0.offset) == $0.element }) {
                slots.append(.tagged(Int64(keys.count)))
            } else {
                slots.append(.ref(try w.unsigned(keys, what: "\(name) cluster keys")))
            }
            for (c, column) in table.columns.enumerated() {
                let values = objects[range].map { $0.values[c] }
                let what = "\(className(name)).\(column.name)"
                if column.isDictionary {
                    slots.append(.ref(try dictionaryColumn(values, column, columnIndex: c, what: what, &w)))
                } else if column.isSet {
                    slots.append(.ref(try setColumn(values, column, what: what, &w)))
                } else if column.type == .link {
                    slots.append(.ref(try linkColumn(values, column, what: what, &w)))
                } else if column.isList {
                    slots.append(.ref(try listColumn(values, column, what: what, &w)))
                } else {
                    slots.append(
                        .ref(try w.leaf(values[...], type: column.type, nullable: column.nullable, what: what)))
                }
            }
            for b in backlinks {
                slots.append(.ref(try backlinkColumn(objects[range].map(\.key), b, &w)))
            }
            return try w.slots(slots, what: "\(name) cluster leaf")
        }
        let children = levels[depth][index]
        var offsets: [UInt64] = []
        var refs: [CoreSlot] = []
        for (i, child) in children.enumerated() {
            let first = objects[objectRange(depth: depth - 1, index: child, levels: levels).lowerBound].key
            let relative = i == 0 ? 0 : first - offset
            offsets.append(UInt64(relative))
            refs.append(
                .ref(
                    try writeNode(
                        depth: depth - 1, index: child, offset: offset + relative, levels: levels, objects: objects, &w)
                ))
        }
        let size = objectRange(depth: depth, index: index, levels: levels).count
        let keys = try w.unsigned(offsets, what: "\(name) inner cluster keys")
        return try w.slots(
            [.ref(keys), .tagged(Int64(depth)), .tagged(Int64(size))] + refs, inner: true,
            what: "\(name) inner cluster node")
    }

    /// A list column's leaf: a ref per object to its list's B+tree (0 for an empty list): one
    /// leaf of the element type up to 1000 elements, inner nodes above leaves of 1000 beyond.
    private func listColumn(
        _ values: [CoreValue], _ column: RealmCoreWriterTable.Column, what: String,
        _ w: inout CoreNodeWriter
    ) throws -> Int {
        var refs: [CoreSlot] = []
        refs.reserveCapacity(values.count)
        for value in values {
            guard case .list(let items) = value else {
                throw RealmError.invalidInput("\(what): a list column cannot hold \(value.typeName)")
            }
            if items.isEmpty {
                refs.append(.null)
                continue
            }
            refs.append(
                .ref(
                    try w.bPlusTree(count: items.count, what: what) { w, range in
                        try w.leaf(items[range], type: column.type, nullable: column.nullable, what: what)
                    }))
        }
        return try w.slots(refs, what: "\(what) lists")
    }

    /// A link column's leaf: target key + 1 per object, 0 for none (`ArrayKey`); a list of
    /// links: per object a ref to a B+tree of bare target keys, 0 when empty.
    private func linkColumn(
        _ values: [CoreValue], _ column: RealmCoreWriterTable.Column, what: String,
        _ w: inout CoreNodeWriter
    ) throws -> Int {
        func key(_ v: CoreValue) throws -> Int64 {
            guard case .link(_, let k) = v, k >= 0 else {
                throw RealmError.invalidInput("\(what): a link column cannot hold \(v.typeName)")
            }
            return k
        }
        if !column.isList {
            return try w.ints(
                values.map { v in
                    if case .null = v { return 0 }
                    return try key(v) + 1
                }, what: "\(what) links")
        }
        var refs: [CoreSlot] = []
        for value in values {
            guard case .list(let items) = value else {
                throw RealmError.invalidInput("\(what): a list column cannot hold \(value.typeName)")
            }
            if items.isEmpty {
                refs.append(.null)
                continue
            }
            let keys = try items.map(key)
            refs.append(
                .ref(
                    try w.bPlusTree(count: keys.count, what: what) { w, range in
                        try w.ints(Array(keys[range]), what: "\(what) link list")
                    }))
        }
        return try w.slots(refs, what: "\(what) link lists")
    }

    /// A backlink column's leaf (`ArrayBacklink`): per object 0 (no origin), the origin's key
    /// tagged (one), or a ref to a B+tree of the origins' keys (more, one entry per link).
    private func backlinkColumn(_ keys: [Int64], _ b: CoreBacklinkColumn, _ w: inout CoreNodeWriter) throws -> Int {
        var slots: [CoreSlot] = []
        for k in keys {
            let origins = b.origins[k] ?? []
            switch origins.count {
            case 0: slots.append(.null)
            case 1: slots.append(.tagged(origins[0]))
            default:
                slots.append(
                    .ref(
                        try w.bPlusTree(count: origins.count, what: "\(table.name) backlinks") { w, range in
                            try w.ints(Array(origins[range]), what: "\(table.name) backlinks")
                        }))
            }
        }
        return try w.slots(slots, what: "\(table.name) backlink leaf")
    }

    /// `Dog` for `class_Dog`, for messages that name a class and property.
    private func className(_ table: String) -> String { table.hasPrefix("class_") ? String(table.dropFirst(6)) : table }
}

/// A backlink column of a link's target table: the origin table and link column, and per
/// target object the keys of the objects linking to it (one entry per link, ascending).
struct CoreBacklinkColumn {
    let originTable: Int64
    let originColumn: Int64
    var origins: [Int64: [Int64]] = [:]
}
