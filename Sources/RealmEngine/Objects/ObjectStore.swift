/// What the query engine reads of one version of a Realm — a committed snapshot, a writer's
/// uncommitted state, or a view of it the evaluator narrows to one leaf (`LeafCachedStore`).
/// Everything above the engine reads through `ReadableVersion`, which refines this.
///
/// Classes are named by their index in `schema.objectSchemas`; columns by their index in that
/// class's `persistedProperties`.
package protocol ObjectStore: AnyObject {
    /// The schema of this version.
    var schema: Schema { get }
    /// Number of objects of a class.
    func count(classIndex: Int) throws -> Int
    /// Every object key of a class, ascending.
    func keys(classIndex: Int) throws -> [ObjectKey]
    /// Whether the object exists.
    func contains(classIndex: Int, key: ObjectKey) throws -> Bool
    /// The stored value of one column: `.link(key)` for a to-one link (or `.null`), `.list([...])`
    /// for a list (links as `.link`), `.null` for nil.
    func value(classIndex: Int, key: ObjectKey, column: Int) throws -> Value
    /// The objects of `originClass` whose link or list column `originColumn` points at `key`
    /// (an object linked twice from one list appears once per link, as in Realm).
    func backlinks(classIndex: Int, key: ObjectKey, originClass: Int, originColumn: Int) throws -> [ObjectKey]
    /// Keys of the objects whose indexed column equals `value`, or nil if the column has no index.
    func indexLookup(classIndex: Int, column: Int, value: Value) throws -> [ObjectKey]?
    /// Capability: calls `body` with each leaf of a class in key order, for columnar scans;
    /// returns false (without calling it) when the store has no leaves to offer (the default).
    func forEachCluster(classIndex: Int, _ body: (ClusterAccess) throws -> Void) throws -> Bool
    /// Capability: whether `backlinks(classIndex:key:originClass:originColumn:)` lists every
    /// backlink of that link column from a list the store keeps (so a query may start from them);
    /// false by default.
    func listsBacklinks(classIndex: Int, originClass: Int, originColumn: Int) -> Bool
}

extension ObjectStore {
    /// No leaves to offer: queries evaluate object by object.
    package func forEachCluster(classIndex: Int, _ body: (ClusterAccess) throws -> Void) throws -> Bool { false }

    /// No kept backlink lists: queries through a link scan the origin class.
    package func listsBacklinks(classIndex: Int, originClass: Int, originColumn: Int) -> Bool { false }
}
