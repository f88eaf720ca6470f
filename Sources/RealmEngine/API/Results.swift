/// The objects of a class, a list or a linking-objects property, optionally filtered, sorted,
/// made distinct and limited.
///
/// Results are lazy and live: building one (and chaining `filter`, `sorted`, …) does no work;
/// the first read runs the query against the Realm's current state, and the result is reused
/// until the Realm moves to another version or writes. Counting an unfiltered class reads one
/// number; indexing it walks the tree by subtree counts, so a 10-million-object class opens as
/// fast as a small one.
public final class Results: Sequence {
    /// The Realm the objects live in.
    public let realm: Realm
    /// What the results are: building a result copies this one's and extends it.
    let query: QueryDescription
    var classIndex: Int { query.classIndex }

    var cache: [ObjectKey]?
    var cacheStamp: (UInt64, Int) = (0, -1)

    /// The failure of the last evaluation through the non-throwing surface (`count`, `isEmpty`,
    /// `first`, `last`, `index(of:)`, iteration) or of the last notification, nil after one that
    /// succeeded.
    ///
    /// Those members cannot throw, so when the objects cannot be read (a damaged file:
    /// `RealmError.corruptFile`) they answer 0, `true` or nil and record the reason here: check
    /// it before taking such an answer as "no objects", or use the throwing variants
    /// (`checkedCount()`, `checkedIsEmpty()`, `checkedFirst()`, `checkedLast()`, `keys()`),
    /// which throw instead. Used from another thread than the Realm's, those members answer as
    /// before without recording anything (the throwing variants throw `wrongThread`).
    public internal(set) var error: RealmError?

    /// Runs one evaluation of the non-throwing surface: its value, or `fallback` with the failure
    /// recorded in `error`.
    func recording<T>(_ fallback: T, _ body: () throws -> T) -> T {
        guard (try? realm.checkThread()) != nil else { return fallback }
        do {
            let value = try body()
            error = nil
            return value
        } catch {
            self.error = error as? RealmError ?? .invalidInput("\(error)")
            return fallback
        }
    }

    init(realm: Realm, query: QueryDescription) {
        self.realm = realm
        self.query = query
    }

    convenience init(realm: Realm, classIndex: Int, source: QuerySource = .table) {
        self.init(realm: realm, query: QueryDescription(classIndex: classIndex, source: source))
    }

    /// The same query on the same Realm, without this one's cached keys.
    func copy() -> Results { Results(realm: realm, query: query) }

    /// These results with their query changed by `change` (a new `Results`, without this one's
    /// cached keys).
    func with(_ change: (inout QueryDescription) -> Void) -> Results {
        var q = query
        change(&q)
        return Results(realm: realm, query: q)
    }

    /// The class of the objects.
    public var objectSchema: ObjectSchema { realm.describedVersion.schema.objectSchemas[classIndex] }

    /// Whether these are the objects of a list or the linking objects of an object that is not
    /// in the Realm's current version (deleted): they can no longer be read (reads throw
    /// `invalidatedObject`; notifications report every object deleted, then nothing). The
    /// objects of a class never are.
    public var isInvalidated: Bool {
        switch query.source {
        case .table: return false
        case .list(let c, let k, _), .backlinks(let c, let k, _, _):
            return (try? realm.readable.contains(classIndex: c, key: k)) != true
        }
    }

    /// The last sort applied, most significant first (empty: key order, or a list's order).
    public var sortDescriptors: [SortDescriptor] { query.sortDescriptors }

    // MARK: Building

    /// Adds a predicate in Realm's query language (`age > $0 AND name BEGINSWITH 'A'`; trailing
    /// `SORT(…)`, `DISTINCT(…)`, `LIMIT(n)` allowed). Throws `RealmError.query` with the column
    /// of the mistake. As in Realm, the condition applies to every object whenever it is added
    /// (a limit called before does not cut first), and the trailing clauses follow the sorts,
    /// distincts and limits so far.
    public func filter(_ predicate: String, _ arguments: Value...) throws -> Results {
        try filter(predicate, arguments: arguments)
    }

    /// Adds a predicate with an argument array.
    public func filter(_ predicate: String, arguments: [Value]) throws -> Results {
        try filter(predicate, arguments: arguments, objectClasses: [:])
    }

    /// `filter(_:arguments:)` with the class of each argument that is an object, by argument
    /// number (the typed API knows them): one compared with a link to another class is a query
    /// error, where its key alone would match an object of that class.
    package func filter(_ predicate: String, arguments: [Value], objectClasses: [Int: String]) throws -> Results {
        try realm.checkThread()
        let q = try BoundQuery.parse(
            predicate, classIndex: classIndex, schema: realm.readable.schema, arguments: arguments,
            objectClasses: objectClasses)
        return with { $0.add(q) }
    }

    /// Sorts by one key path: a property of the class or of a to-one link (`"owner.name"`).
    /// Throws `RealmError.query` for a key path naming no property, a link itself, a list or
    /// linking objects (see `sorted(by:)`).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) throws -> Results {
        try sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// Sorts by several key paths, the first most significant; stable. Sorts, distincts and
    /// limits apply in the order called, as in Realm: after `limit(3)` this orders those three.
    /// Right after another sort, this one is most significant and the earlier one breaks ties.
    ///
    /// The key paths are checked now, against the schema, whatever the number of objects: one
    /// naming no property, a link (`"owner"`: name one of its properties), a list or linking
    /// objects throws `RealmError.query`, so a bad sort never reads as an order or as no objects.
    public func sorted(by descriptors: [SortDescriptor]) throws -> Results {
        try checkOrdering(descriptors.map(\.keyPath), for: .sort)
        return with { $0.add(.sort(descriptors)) }
    }

    /// Keeps the first object of each distinct combination of the key paths' values, in the
    /// order so far (sorts, distincts and limits apply in the order called). The key
    /// paths are checked now, as `sorted(by:)` checks its own, and throw `RealmError.query` when
    /// they cannot be compared.
    public func distinct(by keyPaths: [String]) throws -> Results {
        try checkOrdering(keyPaths, for: .distinct)
        return with { $0.add(.distinct(keyPaths)) }
    }

    /// Binds each key path against the schema (cheap: no object is read), throwing its error.
    private func checkOrdering(_ keyPaths: [String], for use: Binder.OrderingUse) throws {
        try realm.checkThread()
        let schema = try realm.readable.schema
        for keyPath in keyPaths { _ = try Binder.sortPath(keyPath, classIndex: classIndex, schema: schema, for: use) }
    }

    /// Keeps the first `n` objects in the order so far (of those an earlier limit kept: limits
    /// only shrink); a later sort or distinct works on those.
    public func limit(_ n: Int) -> Results {
        with { $0.add(.limit(Swift.max(0, n))) }
    }

    // MARK: Evaluation

    /// The keys of the objects, in result order.
    public func keys() throws -> [ObjectKey] {
        try realm.checkThread()
        let version = try realm.readable
        let stamp = (version.version, realm.mutationCount)
        if let cache, cacheStamp == stamp { return cache }
        let result = try version.evaluate(query, missingOwnerIsEmpty: false)
        cache = result
        cacheStamp = stamp
        return result
    }

    /// Installs keys computed elsewhere (by the notifier) for the Realm's current version.
    func prime(_ keys: [ObjectKey]) {
        cache = keys
        cacheStamp = (realm.describedVersion.version, realm.mutationCount)
    }

    /// Number of objects (an unfiltered class is counted without reading any object); 0 with
    /// `error` set when they cannot be read.
    public var count: Int { recording(0) { try checkedCount() } }

    /// Number of objects; throws when they cannot be read (a damaged file) instead of answering 0.
    public func checkedCount() throws -> Int {
        try realm.checkThread()
        let version = try realm.readable
        if query.isWholeClass { return try version.count(classIndex: classIndex) }
        if let cache, cacheStamp == (version.version, realm.mutationCount) { return cache.count }
        // Sorting never changes how many objects there are: count them unsorted.
        if let unsorted = query.withoutSorts { return try Results(realm: realm, query: unsorted).checkedCount() }
        if let predicate = query.onlyPredicate,
            cache == nil || cacheStamp != (version.version, realm.mutationCount),
            let n = try version.count(matching: predicate)
        {
            return n
        }
        return try keys().count
    }

    /// Whether there are no objects; `true` with `error` set when they cannot be read.
    public var isEmpty: Bool { recording(true) { try checkedIsEmpty() } }

    /// Whether there are no objects; throws when they cannot be read.
    public func checkedIsEmpty() throws -> Bool { try checkedCount() == 0 }

    /// The object at `index`.
    public func object(at index: Int) throws -> DynamicObject {
        if query.isWholeClass {
            try realm.checkThread()
            return DynamicObject(
                realm: realm, classIndex: classIndex, key: try realm.readable.key(classIndex: classIndex, at: index))
        }
        let k = try keys()
        guard k.indices.contains(index) else { throw RealmError.indexOutOfRange(index: index, count: k.count) }
        return DynamicObject(realm: realm, classIndex: classIndex, key: k[index])
    }

    /// The object at `index` (traps on a bad index, like an array; use `object(at:)` to get an error).
    public subscript(index: Int) -> DynamicObject {
        guard let o = try? object(at: index) else {
            preconditionFailure("index \(index) out of range (count \(count))")
        }
        return o
    }

    /// The first object, or nil when there is none — or, with `error` set, when it cannot be read.
    public var first: DynamicObject? { recording(nil) { try checkedFirst() } }
    /// The last object, or nil when there is none — or, with `error` set, when it cannot be read.
    public var last: DynamicObject? { recording(nil) { try checkedLast() } }

    /// The first object, or nil when there is none; throws when it cannot be read.
    public func checkedFirst() throws -> DynamicObject? {
        try checkedCount() > 0 ? try object(at: 0) : nil
    }

    /// The last object, or nil when there is none; throws when it cannot be read.
    public func checkedLast() throws -> DynamicObject? {
        let n = try checkedCount()
        return n > 0 ? try object(at: n - 1) : nil
    }

    /// The position of an object in the results, or nil (with `error` set when the results
    /// cannot be read).
    public func index(of object: DynamicObject) -> Int? {
        guard object.classIndex == classIndex else { return nil }
        return recording(nil) { try keys().firstIndex(of: object.key) }
    }

    /// An iterator over the objects, creating each when it is reached (see `Results.Iterator`
    /// for what it visits when the Realm changes during iteration).
    public func makeIterator() -> Iterator {
        Iterator(self)
    }

    /// A description of how the query runs (index use), for debugging.
    public var planDescription: String {
        query.predicates.map(\.planDescription).joined(separator: "; then ")
    }
}
