import Foundation

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
    /// With `limit`, only the first `limit` keys of the sorted order are returned (a bounded
    /// selection instead of a full sort).
    static func sort(
        _ keys: [ObjectKey], classIndex: Int, by descriptors: [SortDescriptor],
        in store: some ObjectStore, limit: Int? = nil
    ) throws -> [ObjectKey] {
        if descriptors.isEmpty { return limit.map { Array(keys.prefix($0)) } ?? keys }
        // Bound before the shortcut for fewer than two keys: a bad key path is an error whatever
        // the number of objects, never an order that happens to be right.
        let paths = try descriptors.map {
            try Binder.sortPath($0.keyPath, classIndex: classIndex, schema: store.schema)
        }
        if keys.count < 2 { return limit.map { Array(keys.prefix($0)) } ?? keys }
        if paths.count == 1,
            let fast = try sortByStringBytes(
                keys, path: paths[0], ascending: descriptors[0].ascending,
                classIndex: classIndex, in: store, limit: limit)
        {
            return fast
        }
        let directions = descriptors.map(\.ascending)
        if paths.count == 1,
            let primitive = try primitiveSortKeys(keys, path: paths[0], classIndex: classIndex, in: store)
        {
            return try ordered(keys, limit: limit, by: primitiveOrder(primitive, ascending: directions[0]))
        }
        // Read every sort value once: rows[i] holds the values of keys[i].
        let rows = try sortValues(keys, paths: paths, classIndex: classIndex, in: store)
        let before: (Int, Int) -> Bool
        if directions.count == 1, let primitive = PrimitiveSortKey.keys(rows.map { $0[0] }) {
            before = primitiveOrder(primitive, ascending: directions[0])
        } else {
            before = { a, b in
                for d in directions.indices {
                    let c = ValueOrder.sortCompare(rows[a][d], rows[b][d])
                    if c != 0 { return directions[d] ? c < 0 : c > 0 }
                }
                return a < b
            }
        }
        return try ordered(keys, limit: limit, by: before)
    }

    /// `keys` in `before` order of their indices (the first `limit` of them: with a small limit,
    /// a bounded selection instead of a full sort).
    private static func ordered(_ keys: [ObjectKey], limit: Int?, by before: (Int, Int) -> Bool) throws
        -> [ObjectKey]
    {
        if let limit, limit < keys.count / 8 {
            return try topK(keys.count, limit, before).map { keys[$0] }
        }
        let order = try sortIndices(keys.count, by: before)
        return (limit.map { Array(order.prefix($0)) } ?? order).map { keys[$0] }
    }

    /// Index order by `keys` (ties by index: a stable sort).
    private static func primitiveOrder(_ keys: [PrimitiveSortKey], ascending: Bool) -> (Int, Int) -> Bool {
        { a, b in
            let x = keys[a]
            let y = keys[b]
            if x != y { return ascending ? x < y : y < x }
            return a < b
        }
    }

    /// The sort keys of one own column of numbers, dates or bools, read leaf by leaf into
    /// integers with no `Value` array per object; nil when the path is anything else or the
    /// keys are not an ascending list covering a good part of the class (as `sortValues`).
    private static func primitiveSortKeys(
        _ keys: [ObjectKey], path: BoundPath, classIndex: Int, in store: some ObjectStore
    ) throws -> [PrimitiveSortKey]? {
        guard path.steps.count == 1, path.postfix == .none, case .column(let owner, let column) = path.steps[0],
            owner == classIndex, store.schema.objectSchemas.indices.contains(classIndex),
            store.schema.objectSchemas[classIndex].persistedProperties.indices.contains(column),
            case let property = store.schema.objectSchemas[classIndex].persistedProperties[column],
            !property.isList, !property.isSet, !property.isMap, PrimitiveSortKey.covers(property.type),
            zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }),
            keys.count * 8 >= (try store.count(classIndex: classIndex))
        else { return nil }
        var out: [PrimitiveSortKey] = []
        out.reserveCapacity(keys.count)
        var kind: Value?
        var next = 0
        var covered = true
        let scanned = try store.forEachCluster(classIndex: classIndex) { leaf in
            for r in 0..<leaf.count where covered && next < keys.count && leaf.key(at: r) == keys[next].rawValue {
                let value = leaf.value(row: r, column: column)
                if kind == nil, value != .null { kind = value }
                guard let key = PrimitiveSortKey.key(value, kindOf: kind ?? value) else {
                    covered = false
                    return
                }
                out.append(key)
                next += 1
            }
        }
        return scanned && covered && next == keys.count ? out : nil
    }

    /// `0..<count` sorted by `before`, reporting to the progress monitor every 64k comparisons
    /// (of about n·log2 n); a cancelled sort stops comparing and throws.
    private static func sortIndices(_ count: Int, by before: (Int, Int) -> Bool) throws -> [Int] {
        guard ProgressMonitor.current != nil else { return Array(0..<count).sorted(by: before) }
        let expected = count * max(1, Int.bitWidth - count.leadingZeroBitCount)
        var comparisons = 0
        var stopped = false
        let order = Array(0..<count).sorted { a, b in
            if stopped { return a < b }
            comparisons += 1
            if comparisons & 0xFFFF == 0, ProgressMonitor.shouldStop(min(comparisons, expected), of: expected) {
                stopped = true
            }
            return before(a, b)
        }
        try ProgressMonitor.throwIfCancelled()
        return order
    }

    /// Sorting by one string column of the class over committed leaves: compares the UTF-8 bytes
    /// in the mapping, with no `String` per object (with a small limit, `StringTopK`). Nil when
    /// it does not apply.
    private static func sortByStringBytes(
        _ keys: [ObjectKey], path: BoundPath, ascending: Bool, classIndex: Int,
        in store: some ObjectStore, limit: Int?
    ) throws -> [ObjectKey]? {
        guard let column = plainStringColumn(path, classIndex: classIndex, in: store) else { return nil }
        if let limit, limit < keys.count / 8 {
            return try stringTopK(
                keys, column: column, ascending: ascending, limit: limit, classIndex: classIndex, in: store)
        }
        guard zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        var bytes: [UnsafeRawBufferPointer?] = []
        bytes.reserveCapacity(keys.count)
        var next = 0
        var allViews = true
        let scanned = try store.forEachCluster(classIndex: classIndex) { leaf in
            guard allViews, case .view(let v) = leaf else {
                allViews = false
                return
            }
            for r in 0..<v.count where next < keys.count && v.key(at: r) == keys[next].rawValue {
                bytes.append(v.isNull(row: r, column: column) ? nil : v.withBytes(row: r, column: column) { $0 })
                next += 1
            }
        }
        guard scanned, allViews, bytes.count == keys.count else { return nil }
        let before = { (a: Int, b: Int) -> Bool in
            let c = compareBytes(bytes[a], bytes[b])
            if c != 0 { return ascending ? c < 0 : c > 0 }
            return a < b
        }
        let order = try sortIndices(keys.count, by: before)
        return (limit.map { Array(order.prefix($0)) } ?? order).map { keys[$0] }
    }

    /// The column `path` names when it is a plain string property of the class itself.
    static func plainStringColumn(_ path: BoundPath, classIndex: Int, in store: some ObjectStore) -> Int? {
        guard path.steps.count == 1, path.postfix == .none, case .column(let c, let column) = path.steps[0],
            c == classIndex,
            let property = store.schema.objectSchemas[classIndex].persistedProperties.dropFirst(column).first,
            property.type == .string, !property.isList
        else { return nil }
        return column
    }

    /// nil first, then bytes in order (a prefix before the longer string).
    @inline(__always)
    private static func compareBytes(_ a: UnsafeRawBufferPointer?, _ b: UnsafeRawBufferPointer?) -> Int {
        guard let a else { return b == nil ? 0 : -1 }
        guard let b else { return 1 }
        let n = Swift.min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// The first `k` indices of `0..<n` in `before` order, keeping a sorted buffer of k.
    private static func topK(_ n: Int, _ k: Int, _ before: (Int, Int) -> Bool) throws -> [Int] {
        guard k > 0 else { return [] }
        var best: [Int] = []
        best.reserveCapacity(k + 1)
        for i in 0..<n {
            try ProgressMonitor.tick(i, of: n)
            if best.count == k, let last = best.last, !before(i, last) { continue }
            var lo = 0
            var hi = best.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if before(best[mid], i) { lo = mid + 1 } else { hi = mid }
            }
            best.insert(i, at: lo)
            if best.count > k { best.removeLast() }
        }
        return best
    }

    /// The sort values of each key. When the paths read only the class's own columns and the keys
    /// ascend (every scan result does) and cover a good part of the class, one pass over the
    /// leaves replaces a tree lookup per key.
    private static func sortValues(
        _ keys: [ObjectKey], paths: [BoundPath], classIndex: Int,
        in store: some ObjectStore
    ) throws -> [[Value]] {
        let columns = paths.compactMap { p -> Int? in
            guard p.steps.count == 1, p.postfix == .none, case .column(let c, let column) = p.steps[0], c == classIndex
            else { return nil }
            return column
        }
        let ascending = zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }
        if columns.count == paths.count, ascending, keys.count * 8 >= (try store.count(classIndex: classIndex)) {
            var rows: [[Value]] = []
            rows.reserveCapacity(keys.count)
            var next = 0
            let scanned = try store.forEachCluster(classIndex: classIndex) { leaf in
                for r in 0..<leaf.count where next < keys.count {
                    if leaf.key(at: r) == keys[next].rawValue {
                        rows.append(columns.map { leaf.value(row: r, column: $0) })
                        next += 1
                    }
                }
            }
            if scanned && rows.count == keys.count { return rows }
        }
        let evaluator = Evaluator(store: store)
        var rows: [[Value]] = []
        rows.reserveCapacity(keys.count)
        for (done, key) in keys.enumerated() {
            try ProgressMonitor.tick(done, of: keys.count)
            rows.append(try paths.map { try evaluator.singleValue($0, key) })
        }
        return rows
    }

    /// The first object of each group with equal values at `keyPaths`, in the given order.
    static func distinct(
        _ keys: [ObjectKey], classIndex: Int, by keyPaths: [String],
        in store: some ObjectStore
    ) throws -> [ObjectKey] {
        if keyPaths.isEmpty { return keys }
        let paths = try keyPaths.map {
            try Binder.sortPath($0, classIndex: classIndex, schema: store.schema, for: .distinct)
        }
        let evaluator = Evaluator(store: store)
        var seen = Set<[AnyHashable]>()
        var out: [ObjectKey] = []
        for (done, key) in keys.enumerated() {
            try ProgressMonitor.tick(done, of: keys.count)
            let row = try paths.map { ValueOrder.distinctKey(try evaluator.singleValue($0, key)) }
            if seen.insert(row).inserted { out.append(key) }
        }
        return out
    }

    /// Applies trailing clauses left to right.
    static func apply(
        _ clauses: [OrderingClause], to keys: [ObjectKey], classIndex: Int,
        in store: some ObjectStore
    ) throws -> [ObjectKey] {
        var keys = keys
        for (i, clause) in clauses.enumerated() {
            switch clause {
            case .sort(let descriptors):
                // SORT followed by LIMIT selects the first n without sorting everything.
                var limit: Int?
                if i + 1 < clauses.count, case .limit(let n) = clauses[i + 1] { limit = n }
                keys = try sort(keys, classIndex: classIndex, by: descriptors, in: store, limit: limit)
            case .distinct(let paths): keys = try distinct(keys, classIndex: classIndex, by: paths, in: store)
            case .limit(let n): if keys.count > n { keys.removeSubrange(n...) }
            }
        }
        return keys
    }
}
