/// A sort key: a key path (through to-one links) and a direction.
///
/// Sorting is stable; nil sorts first ascending and last descending; strings sort by Unicode
/// code points (UTF-8 byte order), numbers by value across int/float/double.
public struct SortDescriptor: Sendable, Hashable {
    /// The property to sort by, e.g. `"age"` or `"owner.name"`.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Creates a sort key.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}

/// `SORT`, `DISTINCT` and `LIMIT` over a list of object keys.
enum ResultOrdering {
    /// `keys` sorted by each descriptor in turn (the first is the primary key), stably.
    static func sort(_ keys: [ObjectKey], classIndex: Int, by descriptors: [SortDescriptor],
                     in store: some ObjectStore) throws -> [ObjectKey] {
        if descriptors.isEmpty || keys.count < 2 { return keys }
        let paths = try descriptors.map { try Binder.sortPath($0.keyPath, classIndex: classIndex, schema: store.schema) }
        let evaluator = Evaluator(store: store)
        // Read every sort value once: rows[i] holds the values of keys[i].
        var rows: [[Value]] = []
        rows.reserveCapacity(keys.count)
        for key in keys {
            rows.append(try paths.map { try evaluator.singleValue($0, key) })
        }
        let directions = descriptors.map(\.ascending)
        let order = keys.indices.sorted { a, b in
            for d in directions.indices {
                let c = ValueOrder.sortCompare(rows[a][d], rows[b][d])
                if c != 0 { return directions[d] ? c < 0 : c > 0 }
            }
            return a < b
        }
        return order.map { keys[$0] }
    }

    /// The first object of each group with equal values at `keyPaths`, in the given order.
    static func distinct(_ keys: [ObjectKey], classIndex: Int, by keyPaths: [String],
                         in store: some ObjectStore) throws -> [ObjectKey] {
        if keyPaths.isEmpty { return keys }
        let paths = try keyPaths.map { try Binder.sortPath($0, classIndex: classIndex, schema: store.schema) }
        let evaluator = Evaluator(store: store)
        var seen = Set<[Value]>()
        var out: [ObjectKey] = []
        for key in keys {
            let row = try paths.map { try evaluator.singleValue($0, key) }
            if seen.insert(row).inserted { out.append(key) }
        }
        return out
    }

    /// Applies trailing clauses left to right.
    static func apply(_ clauses: [OrderingClause], to keys: [ObjectKey], classIndex: Int,
                      in store: some ObjectStore) throws -> [ObjectKey] {
        var keys = keys
        for clause in clauses {
            switch clause {
            case .sort(let descriptors): keys = try sort(keys, classIndex: classIndex, by: descriptors, in: store)
            case .distinct(let paths): keys = try distinct(keys, classIndex: classIndex, by: paths, in: store)
            case .limit(let n): if keys.count > n { keys.removeSubrange(n...) }
            }
        }
        return keys
    }
}
