import RealmEngine

/// A second implementation of `ReadableVersion`, for the tests that prove the seam: objects held
/// as arrays of values in memory, every answer computed by the plainest means (keys sorted,
/// backlinks by scanning the origin class, no search index, no leaves). Queries, positions,
/// windows and iteration read it object by object, through the protocol's defaults.
package final class InMemoryVersion: ReadableVersion {
    package let schema: Schema
    package let version: UInt64
    package let schemaVersion: UInt64
    /// Per class: the objects in key order, with their values in persisted-property order.
    private var objects: [[(key: ObjectKey, values: [Value])]]
    private var bounds: [Int64]

    /// An empty version of `schema`.
    package init(schema: Schema, version: UInt64 = 1, schemaVersion: UInt64 = 0) {
        self.schema = schema
        self.version = version
        self.schemaVersion = schemaVersion
        objects = Array(repeating: [], count: schema.objectSchemas.count)
        bounds = Array(repeating: 0, count: schema.objectSchemas.count)
    }

    /// A copy of every object of `source` (its schema, versions, keys and persisted values),
    /// read through the protocol's plain reads only.
    package convenience init(copying source: some ReadableVersion) throws {
        self.init(schema: source.schema, version: source.version, schemaVersion: source.schemaVersion)
        for c in schema.objectSchemas.indices {
            let columns = schema.objectSchemas[c].persistedProperties.count
            for key in try source.keys(classIndex: c) {
                let values = try (0..<columns).map { try source.value(classIndex: c, key: key, column: $0) }
                objects[c].append((key, values))
            }
            bounds[c] = try source.keyBound(classIndex: c)
        }
    }

    /// Adds an object with the given key and values (in persisted-property order, already in
    /// stored form: links as `.link`, lists as `.list`).
    package func add(classIndex: Int, key: ObjectKey, values: [Value]) {
        let position = objects[classIndex].firstIndex { $0.key > key } ?? objects[classIndex].count
        objects[classIndex].insert((key, values), at: position)
        bounds[classIndex] = Swift.max(bounds[classIndex], key.rawValue + 1)
    }

    private func checkClass(_ classIndex: Int) throws {
        guard objects.indices.contains(classIndex) else { throw RealmError.noSuchClass("#\(classIndex)") }
    }

    private func position(classIndex: Int, key: ObjectKey) -> Int? {
        var lo = 0
        var hi = objects[classIndex].count
        while lo < hi {
            let mid = (lo + hi) / 2
            if objects[classIndex][mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < objects[classIndex].count && objects[classIndex][lo].key == key ? lo : nil
    }

    package func count(classIndex: Int) throws -> Int {
        try checkClass(classIndex)
        return objects[classIndex].count
    }

    package func keys(classIndex: Int) throws -> [ObjectKey] {
        try checkClass(classIndex)
        return objects[classIndex].map(\.key)
    }

    package func key(classIndex: Int, at position: Int) throws -> ObjectKey {
        try checkClass(classIndex)
        guard objects[classIndex].indices.contains(position) else {
            throw RealmError.indexOutOfRange(index: position, count: objects[classIndex].count)
        }
        return objects[classIndex][position].key
    }

    package func keyBound(classIndex: Int) throws -> Int64 {
        try checkClass(classIndex)
        return bounds[classIndex]
    }

    package func contains(classIndex: Int, key: ObjectKey) throws -> Bool {
        try checkClass(classIndex)
        return position(classIndex: classIndex, key: key) != nil
    }

    package func value(classIndex: Int, key: ObjectKey, column: Int) throws -> Value {
        try checkClass(classIndex)
        guard let p = position(classIndex: classIndex, key: key) else { throw RealmError.invalidatedObject }
        let values = objects[classIndex][p].values
        guard values.indices.contains(column) else {
            throw RealmError.indexOutOfRange(index: column, count: values.count)
        }
        return values[column]
    }

    package func backlinks(classIndex: Int, key: ObjectKey, originClass: Int, originColumn: Int) throws
        -> [ObjectKey]
    {
        try checkClass(classIndex)
        try checkClass(originClass)
        var out: [ObjectKey] = []
        for origin in objects[originClass] where origin.values.indices.contains(originColumn) {
            switch origin.values[originColumn] {
            case .link(let k) where k == key: out.append(origin.key)
            case .list(let items):
                for case .link(let k) in items where k == key { out.append(origin.key) }
            default: break
            }
        }
        return out
    }

    package func indexLookup(classIndex: Int, column: Int, value: Value) throws -> [ObjectKey]? { nil }
}
