/// Read access to the objects of one version of a Realm — a committed snapshot, or a writer's
/// uncommitted state. The query engine, change-set calculation and the command line read
/// through this; the engine's `Snapshot` implements it, tests may use an in-memory fake.
///
/// Classes are named by their index in `schema.objectSchemas`; columns by their index in that
/// class's `persistedProperties`.
protocol ObjectStore: AnyObject {
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
    /// Calls `body` with each leaf of a class in key order, for columnar scans; returns false
    /// (without calling it) when the store has no leaves to offer.
    func forEachCluster(classIndex: Int, _ body: (ClusterAccess) throws -> Void) throws -> Bool
}
