import Foundation

/// One version of the database as a reader sees it — or, inside a write transaction, the
/// writer's uncommitted state (its tables then hold loaded nodes, and `bytes` grows as the writer
/// writes). Implements `ReadableVersion` for the query engine and everything above it, with
/// every capability: leaves for scans and iteration, kept backlinks, search indexes.
final class Snapshot: ReadableVersion {
    let version: UInt64
    var bytes: FileBytes
    package let layout: SchemaLayout
    var tables: [TableState]
    package let schemaVersion: UInt64
    /// Refs of the version's top node and schema node.
    let topRef: UInt64
    let schemaRef: UInt64
    let changeLogRef: UInt64

    /// Validated views of leaves, by ref: a committed version's nodes never change, so each leaf
    /// is validated once per snapshot instead of once per read. Off for a writer's live state,
    /// whose refs can be freed and reused inside the transaction.
    private let leafViews: LeafViewCache?

    var schema: Schema { layout.schema }
    var reader: TreeReader { TreeReader(bytes: bytes) }

    init(
        version: UInt64, bytes: FileBytes, layout: SchemaLayout, top: TopNode, topRef: UInt64, schemaVersion: UInt64,
        cacheLeaves: Bool = true
    ) throws {
        self.version = version
        leafViews = cacheLeaves ? LeafViewCache() : nil
        self.bytes = bytes
        self.layout = layout
        self.schemaVersion = schemaVersion
        self.topRef = topRef
        schemaRef = top.schemaRef
        changeLogRef = top.changeLogRef
        guard top.tables.count == layout.tables.count else {
            throw RealmError.corruptFile(
                path: bytes.path, offset: topRef,
                reason: "\(top.tables.count) tables stored for \(layout.tables.count) classes")
        }
        tables = top.tables
    }

    /// The cluster of a leaf of class `classIndex`, validated once per snapshot.
    func cluster(_ leaf: LeafAccess, classIndex: Int) throws -> ClusterAccess {
        guard let leafViews, case .file(_, let ref) = leaf else {
            return try ClusterAccess(leaf, columns: layout.tables[classIndex].columns, path: bytes.path)
        }
        if let view = leafViews.get(ref) { return .view(view) }
        let access = try ClusterAccess(leaf, columns: layout.tables[classIndex].columns, path: bytes.path)
        if case .view(let view) = access { leafViews.put(ref, view) }
        return access
    }

    /// Runs `body`, naming class `classIndex` in a `corruptFile` error it throws that names no
    /// class yet, so a damaged node reads as "class Person: checksum mismatch …".
    @inline(__always)
    func naming<T>(_ classIndex: Int, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RealmError {
            throw error.naming(
                class: layout.tables.indices.contains(classIndex)
                    ? schema.objectSchemas[classIndex].name : "#\(classIndex)")
        }
    }

    func checkClass(_ classIndex: Int) throws {
        guard tables.indices.contains(classIndex) else { throw RealmError.noSuchClass("#\(classIndex)") }
    }

    // MARK: ObjectStore

    func count(classIndex: Int) throws -> Int {
        try checkClass(classIndex)
        return tables[classIndex].count
    }

    func forEachCluster(classIndex: Int, _ body: (ClusterAccess) throws -> Void) throws -> Bool {
        try checkClass(classIndex)
        guard let root = tables[classIndex].root else { return true }
        // A committed snapshot remembers the views of a class's leaves after the first full scan,
        // so repeated queries skip the tree walk and the per-leaf cache lookups.
        if let leafViews, let views = leafViews.leaves(of: classIndex) {
            for v in views { try body(.view(v)) }
            return true
        }
        var views: [ClusterView]? = leafViews == nil ? nil : []
        try naming(classIndex) {
            try reader.forEachLeaf(root) { leaf in
                let c = try cluster(leaf, classIndex: classIndex)
                if case .view(let v) = c, (views?.count ?? .max) < LeafViewCache.classLeafCapacity {
                    views?.append(v)
                } else {
                    views = nil
                }
                try body(c)
                return true
            }
        }
        if let views, let leafViews { leafViews.setLeaves(views, of: classIndex) }
        return true
    }

    /// The validated views of every leaf of a committed snapshot's class, in key order (built by
    /// one tree walk, then remembered). Nil for a writer's live state, whose leaves may be loaded
    /// nodes or refs the writer frees and reuses.
    func leafViews(classIndex: Int) throws -> [ClusterView]? {
        guard let leafViews else { return nil }
        if let views = leafViews.leaves(of: classIndex) { return views }
        var all: [ClusterView] = []
        var complete = true
        _ = try forEachCluster(classIndex: classIndex) { c in
            if case .view(let v) = c { all.append(v) } else { complete = false }
        }
        return complete ? all : nil
    }

    /// The first object of a class whose key is in `from ..< end`: the leaf and row holding it,
    /// or nil when there is none (one descent, then leaf by leaf past leaves holding only smaller keys).
    func seek(classIndex: Int, from: Int64, before end: Int64) throws -> (ClusterAccess, Int)? {
        try checkClass(classIndex)
        guard from < end, let root = tables[classIndex].root else { return nil }
        var found: (ClusterAccess, Int)?
        try naming(classIndex) {
            try reader.forEachLeaf(root, from: TreeKey(hi: 0, lo: from)) { leaf in
                let c = try cluster(leaf, classIndex: classIndex)
                let row = c.firstRow(atLeast: from)
                guard row < c.count else { return true }
                if c.key(at: row) < end { found = (c, row) }
                return false
            }
        }
        return found
    }

    func seekObjects(classIndex: Int, from: Int64, before end: Int64) throws -> SoughtObjects {
        guard let (leaf, row) = try seek(classIndex: classIndex, from: from, before: end) else { return .none }
        return .leaf(leaf, row: row)
    }

    func keyBound(classIndex: Int) throws -> Int64 {
        try checkClass(classIndex)
        return tables[classIndex].nextKey
    }

    /// The column of a persisted property of a class, by a scan of the names (a class has a few
    /// dozen properties at most, and comparing short names is cheaper than hashing them).
    func column(classIndex: Int, named name: String) -> Int? {
        let columns = layout.tables[classIndex].columns
        for c in 0..<layout.tables[classIndex].persistedCount where columns[c].name == name { return c }
        return nil
    }

    func persistedColumnCount(classIndex: Int) -> Int {
        layout.tables[classIndex].persistedCount
    }

    /// Visits every object of a class in key order with the leaf and row that hold it (one tree
    /// walk for the whole class instead of a lookup per object).
    func forEachObject(classIndex: Int, _ body: (ObjectKey, ClusterAccess, Int) throws -> Void) throws {
        try checkClass(classIndex)
        guard let root = tables[classIndex].root else { return }
        try naming(classIndex) {
            try reader.forEachLeaf(root) { leaf in
                let c = try cluster(leaf, classIndex: classIndex)
                for r in 0..<c.count { try body(ObjectKey(c.key(at: r)), c, r) }
                return true
            }
        }
    }

    func keys(classIndex: Int) throws -> [ObjectKey] {
        try checkClass(classIndex)
        guard let root = tables[classIndex].root else { return [] }
        var out: [ObjectKey] = []
        out.reserveCapacity(root.count)
        try naming(classIndex) {
            try reader.forEachLeaf(root) { leaf in
                switch try cluster(leaf, classIndex: classIndex) {
                case .view(let v): v.appendKeys(to: &out)
                case .data(let d): out.append(contentsOf: d.keys.lazy.map(ObjectKey.init))
                }
                return true
            }
        }
        return out
    }

    /// The cluster holding `key` and the key's row in it, or nil if there is no such object.
    func locate(classIndex: Int, key: ObjectKey) throws -> (ClusterAccess, Int)? {
        try checkClass(classIndex)
        guard let root = tables[classIndex].root else { return nil }
        let c = try naming(classIndex) {
            try cluster(try reader.leaf(root, key: TreeKey(hi: 0, lo: key.rawValue)), classIndex: classIndex)
        }
        guard let row = c.row(of: key.rawValue) else { return nil }
        return (c, row)
    }

    func contains(classIndex: Int, key: ObjectKey) throws -> Bool {
        try locate(classIndex: classIndex, key: key) != nil
    }

    func value(classIndex: Int, key: ObjectKey, column: Int) throws -> Value {
        guard let (c, row) = try locate(classIndex: classIndex, key: key) else { throw RealmError.invalidatedObject }
        guard column >= 0 && column < layout.tables[classIndex].columns.count else {
            throw RealmError.indexOutOfRange(index: column, count: layout.tables[classIndex].columns.count)
        }
        return c.value(row: row, column: column)
    }

    /// Every stored column of one object (persisted and hidden), or nil if it does not exist.
    func row(classIndex: Int, key: ObjectKey) throws -> [Value]? {
        guard let (c, row) = try locate(classIndex: classIndex, key: key) else { return nil }
        return (0..<layout.tables[classIndex].columns.count).map { c.value(row: row, column: $0) }
    }

    func backlinks(classIndex: Int, key: ObjectKey, originClass: Int, originColumn: Int) throws -> [ObjectKey] {
        try checkClass(classIndex)
        guard
            let column = layout.tables[classIndex].backlinkColumns[.init(classIndex: originClass, column: originColumn)]
        else {
            return []
        }
        guard case .list(let items) = try value(classIndex: classIndex, key: key, column: column) else { return [] }
        return items.compactMap { if case .link(let k) = $0 { k } else { nil } }
    }

    /// Whether objects of `classIndex` keep the backlinks of `originClass`'s link column
    /// `originColumn` (every link column's target keeps them; `LinkPlan` checks before relying on it).
    func listsBacklinks(classIndex: Int, originClass: Int, originColumn: Int) -> Bool {
        layout.tables.indices.contains(classIndex)
            && layout.tables[classIndex].backlinkColumns[.init(classIndex: originClass, column: originColumn)] != nil
    }

    func indexLookup(classIndex: Int, column: Int, value: Value) throws -> [ObjectKey]? {
        try checkClass(classIndex)
        guard let entry = tables[classIndex].indexes[column] else { return nil }
        let property = layout.tables[classIndex].columns[column]
        if property.type == .mixed {
            // Equal numbers of different kinds can sit in neighbouring buckets: read each, then
            // keep the values the query language calls equal (1 == 1.0 == Decimal128(1)).
            var candidates: [ObjectKey] = []
            for hi in SearchIndex.mixedLookupKeys(value) {
                candidates += try naming(classIndex) { try SearchIndex.candidates(entry, hi: hi, reader: reader) }
            }
            return try candidates.filter {
                ValueOrder.equal(try self.value(classIndex: classIndex, key: $0, column: column), value)
            }.sorted()
        }
        let candidates = try naming(classIndex) {
            try SearchIndex.candidates(entry, hi: SearchIndex.key(value), reader: reader)
        }
        // Integer keys are exact (order-preserving, one value per key) where no nil can share one.
        if case .int = value, property.type.isInteger, !property.isOptional { return candidates }
        return try candidates.filter { try self.value(classIndex: classIndex, key: $0, column: column) == value }
    }

    /// The key of the object at `position` in key order.
    func key(classIndex: Int, at position: Int) throws -> ObjectKey {
        try checkClass(classIndex)
        guard let root = tables[classIndex].root, position >= 0, position < root.count else {
            throw RealmError.indexOutOfRange(index: position, count: tables[classIndex].count)
        }
        let (c, i) = try naming(classIndex) {
            let (leaf, i) = try reader.leaf(root, at: position)
            return (try cluster(leaf, classIndex: classIndex), i)
        }
        guard i < c.count else {
            throw RealmError.corruptFile(path: bytes.path, offset: root.ref, reason: "subtree counts do not add up")
        }
        return ObjectKey(c.key(at: i))
    }

    /// The object with this primary key value.
    func object(classIndex: Int, primaryKey: Value) throws -> ObjectKey? {
        guard let pk = layout.tables[classIndex].primaryKeyColumn else { return nil }
        return try indexLookup(classIndex: classIndex, column: pk, value: primaryKey)?.first
    }
}

extension ClusterAccess {
    /// The first row whose key is at least `key` (`count` when every key is smaller).
    func firstRow(atLeast key: Int64) -> Int {
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if self.key(at: mid) < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// A bounded, thread-safe map from leaf ref to its validated view (a snapshot may be read by the
/// notifier thread while its own thread reads it too).
final class LeafViewCache: @unchecked Sendable {
    private var views: [UInt64: ClusterView] = [:]
    private let lock = NSLock()
    private static let capacity = 4096

    func get(_ ref: UInt64) -> ClusterView? {
        lock.lock()
        defer { lock.unlock() }
        return views[ref]
    }

    private var classLeaves: [Int: [ClusterView]] = [:]

    func leaves(of classIndex: Int) -> [ClusterView]? {
        lock.lock()
        defer { lock.unlock() }
        return classLeaves[classIndex]
    }

    /// Classes with more leaves than this are walked again on each scan instead of remembered,
    /// so a snapshot's memory stays bounded whatever a class's size: at ~800 bytes a view, at
    /// most ~50 MiB for a class (about 16,000,000 objects; a 10,000,000-object class is still
    /// remembered, which keeps a scan of it under 100 ms).
    static let classLeafCapacity = 65_536

    func setLeaves(_ views: [ClusterView], of classIndex: Int) {
        guard views.count <= LeafViewCache.classLeafCapacity else { return }
        lock.lock()
        defer { lock.unlock() }
        classLeaves[classIndex] = views
    }

    func put(_ ref: UInt64, _ view: ClusterView) {
        lock.lock()
        defer { lock.unlock() }
        if views.count >= LeafViewCache.capacity { views.removeAll(keepingCapacity: true) }
        views[ref] = view
    }
}
