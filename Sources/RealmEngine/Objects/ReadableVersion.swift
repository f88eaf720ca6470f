/// One version of a Realm as everything above the engine reads it: `Results` (counts, positions,
/// windows, iteration, aggregates), objects and their accessors, export. The engine's
/// `Snapshot` (a committed version or a writer's state) implements it; another storage format,
/// or a test's in-memory fake, can implement it beside it.
///
/// The reads every version answers are the requirements without a default. The fast paths are
/// capabilities with a default that declines (no leaves, no kept backlinks): a version that
/// offers leaves (`forEachCluster`, `leafViews`, `locate`, `seekObjects`) lets scans test
/// encoded columns and iteration read rows in place; one that does not is read object by object.
///
/// Classes are named by their index in `schema.objectSchemas`; columns by their index in that
/// class's `persistedProperties`.
package protocol ReadableVersion: ObjectStore {
    /// The version number (the one being written, inside a write transaction): what cached
    /// results are stamped with.
    var version: UInt64 { get }
    /// The schema version stored with this version (0 by default: a format that keeps none).
    var schemaVersion: UInt64 { get }
    /// How the schema's classes link to each other: which link columns target which class,
    /// which own their (embedded) target. A pure function of `schema`; the default computes it
    /// on each call, a version that keeps one returns it.
    var layout: SchemaLayout { get }
    /// The key of the object at `position` in key order; throws `indexOutOfRange` past the end.
    func key(classIndex: Int, at position: Int) throws -> ObjectKey
    /// The keys at positions `positions` in key order (clamped to the class's count).
    func keys(classIndex: Int, in positions: Range<Int>) throws -> [ObjectKey]
    /// A key above every object's key of the class, now and until the version changes (new
    /// objects get keys from here on).
    func keyBound(classIndex: Int) throws -> Int64
    /// Every stored column of one object (its persisted properties first), or nil when it does
    /// not exist.
    func row(classIndex: Int, key: ObjectKey) throws -> [Value]?
    /// The object whose primary key is `primaryKey`, or nil (also for a class without one).
    func object(classIndex: Int, primaryKey: Value) throws -> ObjectKey?
    /// The column of persisted property `name` of a class, or nil when there is none.
    func column(classIndex: Int, named name: String) -> Int?
    /// The number of persisted properties of a class (its columns `0 ..< n`).
    func persistedColumnCount(classIndex: Int) -> Int

    /// Capability: the validated views of every leaf of a class, in key order, or nil when the
    /// version cannot offer them (the default): iteration then goes by key.
    func leafViews(classIndex: Int) throws -> [ClusterView]?
    /// Capability: the leaf holding an object and its row, or nil when there is no such object
    /// or the version offers no leaves (the default): read `value(classIndex:key:column:)` then.
    func locate(classIndex: Int, key: ObjectKey) throws -> (ClusterAccess, Int)?
    /// The first objects of a class with keys in `from ..< end`: a leaf and the row to start at
    /// (a version with leaves), or their keys (the default, from `keys(classIndex:)`).
    func seekObjects(classIndex: Int, from: Int64, before end: Int64) throws -> SoughtObjects
    /// Capability: the change records of the commits after version `after` up to this one, or
    /// nil when they are not known (the default; also when some were trimmed): the notifier then
    /// treats every object as possibly changed and runs an observed query again.
    func changeRecords(after: UInt64) throws -> [ChangeRecord]?

    /// Runs a query on this version. A requirement, so that a call through
    /// `any ReadableVersion` runs the query engine specialised for the version's own type:
    /// conformers keep the default.
    func evaluate(_ query: QueryDescription, missingOwnerIsEmpty: Bool) throws -> [ObjectKey]
    /// The number of objects matching a predicate when it can be counted without listing them
    /// (see `BoundQuery.count(in:)`); a requirement for the same reason as `evaluate`.
    func count(matching predicate: BoundQuery) throws -> Int?
    /// Matches number `skip ..< skip + limit` of a predicate, or nil when that needs the general
    /// path (see `BoundQuery.window(in:skip:limit:)`); a requirement as `evaluate`.
    func window(matching predicate: BoundQuery, skip: Int, limit: Int) throws -> [ObjectKey]?
    /// Whether object `key` matches a predicate; a requirement as `evaluate`.
    func matches(_ predicate: BoundQuery, key: ObjectKey) throws -> Bool
}

/// Where the objects of a class from a given key on are (`ReadableVersion.seekObjects`).
package enum SoughtObjects {
    /// No object has a key in the range.
    case none
    /// The leaf holding the first of them, and its row (the rest follow in it, then in the
    /// following leaves).
    case leaf(ClusterAccess, row: Int)
    /// Their keys, ascending.
    case keys([ObjectKey])
}

extension ReadableVersion {
    package var schemaVersion: UInt64 { 0 }

    package var layout: SchemaLayout { SchemaLayout(schema) }

    package func changeRecords(after: UInt64) throws -> [ChangeRecord]? { nil }

    package func keys(classIndex: Int, in positions: Range<Int>) throws -> [ObjectKey] {
        let count = try count(classIndex: classIndex)
        let lower = Swift.max(0, positions.lowerBound)
        let upper = Swift.min(positions.upperBound, count)
        guard lower < upper else { return [] }
        return try (lower..<upper).map { try key(classIndex: classIndex, at: $0) }
    }

    package func row(classIndex: Int, key: ObjectKey) throws -> [Value]? {
        guard try contains(classIndex: classIndex, key: key) else { return nil }
        let columns = schema.objectSchemas[classIndex].persistedProperties.count
        return try (0..<columns).map { try value(classIndex: classIndex, key: key, column: $0) }
    }

    package func object(classIndex: Int, primaryKey: Value) throws -> ObjectKey? {
        guard let column = schema.objectSchemas[classIndex].persistedProperties.firstIndex(where: \.isPrimaryKey)
        else { return nil }
        if let found = try indexLookup(classIndex: classIndex, column: column, value: primaryKey) {
            return found.first
        }
        return try keys(classIndex: classIndex).first {
            try value(classIndex: classIndex, key: $0, column: column) == primaryKey
        }
    }

    package func column(classIndex: Int, named name: String) -> Int? {
        schema.objectSchemas[classIndex].persistedProperties.firstIndex { $0.name == name }
    }

    package func persistedColumnCount(classIndex: Int) -> Int {
        schema.objectSchemas[classIndex].persistedProperties.count
    }

    package func leafViews(classIndex: Int) throws -> [ClusterView]? { nil }

    package func locate(classIndex: Int, key: ObjectKey) throws -> (ClusterAccess, Int)? { nil }

    package func seekObjects(classIndex: Int, from: Int64, before end: Int64) throws -> SoughtObjects {
        guard from < end else { return .none }
        let keys = try keys(classIndex: classIndex).filter { $0.rawValue >= from && $0.rawValue < end }
        return keys.isEmpty ? .none : .keys(keys)
    }

    package func evaluate(_ query: QueryDescription, missingOwnerIsEmpty: Bool) throws -> [ObjectKey] {
        try query.evaluate(in: self, missingOwnerIsEmpty: missingOwnerIsEmpty)
    }

    package func count(matching predicate: BoundQuery) throws -> Int? {
        try predicate.count(in: self)
    }

    package func window(matching predicate: BoundQuery, skip: Int, limit: Int) throws -> [ObjectKey]? {
        try predicate.window(in: self, skip: skip, limit: limit)
    }

    package func matches(_ predicate: BoundQuery, key: ObjectKey) throws -> Bool {
        try predicate.matches(key, in: self)
    }
}
