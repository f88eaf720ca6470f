/// The store a scan's evaluator reads through: the queried class's values of the object being
/// tested come from the leaf the scan is on (its row known), not from a walk down the class's
/// tree per value. A predicate the column tests cannot compile (sets, dictionaries, lists,
/// Mixed, links) reads each object's columns this way; every other read goes to `base`.
final class LeafCachedStore<Base: ObjectStore>: ObjectStore {
    let base: Base
    let classIndex: Int
    /// The queried class's persisted columns (hidden ones, backlinks, are read from `base`).
    private let persistedCount: Int
    /// The leaf being scanned, and the key and row of the object being tested in it.
    private var leaf: ClusterAccess?
    private var current: (key: ObjectKey, row: Int)?

    init(base: Base, classIndex: Int) {
        self.base = base
        self.classIndex = classIndex
        persistedCount = base.schema.objectSchemas[classIndex].persistedProperties.count
    }

    /// The object the evaluator tests next: row `row` of `leaf`.
    func testing(row: Int, of leaf: ClusterAccess) -> ObjectKey {
        let key = ObjectKey(leaf.key(at: row))
        self.leaf = leaf
        current = (key, row)
        return key
    }

    var schema: Schema { base.schema }
    func count(classIndex: Int) throws -> Int { try base.count(classIndex: classIndex) }
    func keys(classIndex: Int) throws -> [ObjectKey] { try base.keys(classIndex: classIndex) }
    func contains(classIndex: Int, key: ObjectKey) throws -> Bool {
        try base.contains(classIndex: classIndex, key: key)
    }

    func value(classIndex: Int, key: ObjectKey, column: Int) throws -> Value {
        if classIndex == self.classIndex, let current, current.key == key, let leaf,
            column >= 0, column < persistedCount
        {
            return leaf.value(row: current.row, column: column)
        }
        return try base.value(classIndex: classIndex, key: key, column: column)
    }

    func backlinks(classIndex: Int, key: ObjectKey, originClass: Int, originColumn: Int) throws -> [ObjectKey] {
        try base.backlinks(classIndex: classIndex, key: key, originClass: originClass, originColumn: originColumn)
    }

    func indexLookup(classIndex: Int, column: Int, value: Value) throws -> [ObjectKey]? {
        try base.indexLookup(classIndex: classIndex, column: column, value: value)
    }

    func forEachCluster(classIndex: Int, _ body: (ClusterAccess) throws -> Void) throws -> Bool {
        try base.forEachCluster(classIndex: classIndex, body)
    }
}
