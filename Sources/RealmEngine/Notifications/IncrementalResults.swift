/// Change sets of table results computed from the commit's change record instead of a re-run:
/// a one-object commit on a sorted or filtered result of a million objects costs a few binary
/// searches and one pass over the keys, not a query and a sort.
///
/// The previous keys are in result order, and the objects the commit did not touch keep their
/// sort values, so they stay in that order. The touched objects (inserted, deleted, modified)
/// are taken out — located by binary search with the *old* snapshot's values — and those that
/// match now are placed back by binary search with the *new* snapshot's values. The order is the
/// full sort's: the descriptors in turn, ties by object key (a table's keys enter the stable sort
/// in key order), or key order alone without a sort.
///
/// It does not apply (nil: re-run the query) to lists and linking objects (their order is not a
/// key order), to `DISTINCT` (a group's first object can change with an untouched one), to sort
/// key paths through links, to a sort after a limit, to large changes, and to a
/// `LIMIT` that an object leaving would fill from beyond the previous result.
enum IncrementalResults {
    /// Above this many changed objects of the class the query is re-run.
    static let maxChangedKeys = 4096
    /// When the old and new keys differ only inside a span this long, the change set is
    /// `CollectionDiff`'s (the moved objects chosen by its longest increasing run, a hash of
    /// each key in the span); beyond it, the touched objects that moved are the ones reported as
    /// moved. The two agree whenever the longest run is unique — always for one object moving
    /// by more than one place — and differ only in which of two equally short change sets is
    /// reported (an object swapping places with a neighbour, far from another change).
    static let exactDiffSpan = 8192

    /// The new keys and the change set from `old` (the result at `oldSnapshot`) to `snapshot`,
    /// given the summary of the commits between them and the modified objects of the class
    /// (`ChangeSummary.modifiedObjects`); nil when the update cannot be made locally.
    static func update(
        _ spec: QueryDescription, old: [ObjectKey], from oldSnapshot: any ReadableVersion, summary: ChangeSummary,
        modified: Set<ObjectKey>, in snapshot: any ReadableVersion,
        exactDiffSpan: Int = exactDiffSpan
    ) throws -> (keys: [ObjectKey], change: CollectionChangeSet)? {
        guard case .table = spec.source, let shape = spec.sortThenLimit,
            modified.count <= maxChangedKeys, readsOnlyItsOwnObjects(spec),
            let order = KeyOrder(spec, schema: snapshot.schema, oldSchema: oldSnapshot.schema)
        else { return nil }
        let c = spec.classIndex
        let record = summary.classes[c] ?? .init()
        guard record.inserted.count + record.deleted.count + record.modified.count <= maxChangedKeys else { return nil }
        var touched = Set(record.inserted.map(ObjectKey.init))
        touched.formUnion(record.deleted.map(ObjectKey.init))
        touched.formUnion(record.modified.keys.map(ObjectKey.init))

        // Old indices of the touched objects that were in the result.
        var oldIndex: [ObjectKey: Int] = [:]
        for k in touched {
            if let i = try order.index(of: k, in: old, snapshot: oldSnapshot) { oldIndex[k] = i }
        }
        let removed = oldIndex.values.sorted()
        // Kept (untouched) objects before each removed one: `kept index` k is old index k + the
        // number of removed objects with gaps[j] <= k.
        let removedGaps = removed.enumerated().map { $0.element - $0.offset }
        let keptCount = old.count - removed.count
        func oldPosition(ofKept k: Int) -> Int { k + upperBound(removedGaps, k) }

        // The touched objects that exist and match now, in result order, with their gap.
        var entering: [(key: ObjectKey, values: [Value])] = []
        for k in touched.sorted() where try snapshot.contains(classIndex: c, key: k) {
            if try spec.predicates.allSatisfy({ try snapshot.matches($0, key: k) }) {
                entering.append((k, try order.values(k, in: snapshot)))
            }
        }
        entering.sort { order.before($0.values, $0.key, $1.values, $1.key) }
        var gaps: [Int] = []
        gaps.reserveCapacity(entering.count)
        for e in entering {
            var lo = gaps.last ?? 0
            var hi = keptCount
            while lo < hi {
                let mid = (lo + hi) / 2
                let k = old[oldPosition(ofKept: mid)]
                if order.before(try order.values(k, in: snapshot), k, e.values, e.key) {
                    lo = mid + 1
                } else {
                    hi = mid
                }
            }
            gaps.append(lo)
        }

        // LIMIT: a result that was cut holds, of the new order, only what sorts before its last
        // kept object; when that is fewer than the limit the rest is unknown here.
        var count = keptCount + entering.count
        var placeable = entering.count
        if let limit = shape.limit {
            if old.count >= limit {
                placeable = gaps.firstIndex(of: keptCount) ?? entering.count
                count = keptCount + placeable
                guard count >= limit else { return nil }
            }
            count = min(count, limit)
        }

        // The new keys: the old ones without the removed, the entering merged in at their gaps.
        var keys: [ObjectKey] = []
        keys.reserveCapacity(count)
        var newIndex: [ObjectKey: Int] = [:]
        var next = 0  // old index
        var r = 0  // removed
        for (e, gap) in zip(entering.prefix(placeable), gaps) {
            guard keys.count < count else { break }
            let end = oldPosition(ofKept: gap)  // the old index the entering object goes before
            copyKept(old, from: &next, to: end, removed: removed, r: &r, into: &keys, count: count)
            guard keys.count < count else { break }
            newIndex[e.key] = keys.count
            keys.append(e.key)
        }
        copyKept(old, from: &next, to: old.count, removed: removed, r: &r, into: &keys, count: count)

        var change = CollectionChangeSet()
        var prefix = 0
        let common = min(old.count, keys.count)
        while prefix < common && old[prefix] == keys[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < common - prefix && old[old.count - 1 - suffix] == keys[keys.count - 1 - suffix] { suffix += 1 }
        if max(old.count, keys.count) - prefix - suffix <= exactDiffSpan {
            change = CollectionDiff.compute(old: old, new: keys, modified: [])
        } else {
            // The touched objects in both that stay between the same kept neighbours, in order.
            let keptInNew = keys.count - newIndex.count
            var enteringGap: [ObjectKey: Int] = [:]
            for (e, gap) in zip(entering, gaps) { enteringGap[e.key] = gap }
            var both: [(old: Int, new: Int)] = []
            for (rank, i) in removed.enumerated() {
                let k = old[i]
                guard let j = newIndex[k], let gap = enteringGap[k], removedGaps[rank] == gap else { continue }
                both.append((i, j))
            }
            both.sort { $0.old < $1.old }
            let staying = CollectionDiff.longestIncreasing(both)
            let stayOld = Set(staying.map(\.old))
            let stayNew = Set(staying.map(\.new))
            change.deletions = removed.filter { !stayOld.contains($0) }
            // Kept objects cut by the limit.
            for k in keptInNew..<keptCount { change.deletions.append(oldPosition(ofKept: k)) }
            change.deletions.sort()
            change.insertions = newIndex.values.filter { !stayNew.contains($0) }.sorted()
        }
        // Modifications: old indices of modified objects still in the result.
        let newSet = Set(newIndex.keys)
        let keptLimit = keys.count - newIndex.count
        for k in modified {
            if touched.contains(k) {
                if let i = oldIndex[k], newSet.contains(k) { change.modifications.append(i) }
            } else if let i = try order.index(of: k, in: old, snapshot: oldSnapshot) {
                // An untouched object keeps its place among the kept ones; the limit may cut it.
                if i - upperBound(removed, i) < keptLimit { change.modifications.append(i) }
            }
        }
        change.modifications.sort()
        return (keys, change)
    }

    /// The indices in `keys` (the unchanged result at `snapshot`) of the `modified` objects, by
    /// binary search in the result's order instead of a hash of every key; nil when the order
    /// is not a table's (or there are too many to look up one by one).
    static func modifications(
        _ spec: QueryDescription, keys: [ObjectKey], at snapshot: any ReadableVersion,
        modified: Set<ObjectKey>
    ) throws -> [Int]? {
        guard case .table = spec.source, spec.sortThenLimit != nil, modified.count <= maxChangedKeys,
            let order = KeyOrder(spec, schema: snapshot.schema, oldSchema: snapshot.schema)
        else { return nil }
        return try modified.compactMap { try order.index(of: $0, in: keys, snapshot: snapshot) }.sorted()
    }

    /// Appends `old[next..<end]` minus the removed indices to `keys`, up to `count` keys.
    private static func copyKept(
        _ old: [ObjectKey], from next: inout Int, to end: Int, removed: [Int], r: inout Int,
        into keys: inout [ObjectKey], count: Int
    ) {
        while next < end && keys.count < count {
            if r < removed.count && removed[r] == next {
                next += 1
                r += 1
                continue
            }
            let stop = min(end, r < removed.count ? removed[r] : end)
            let n = min(stop - next, count - keys.count)
            keys.append(contentsOf: old[next..<(next + n)])
            next += n
        }
    }

    /// Whether the predicates read nothing but each object's own columns. A path through a
    /// link or backlink could make an untouched object's match change with a touched one
    /// (`next.rank > 3` when the next item's rank changed), even within the class.
    static func readsOnlyItsOwnObjects(_ spec: QueryDescription) -> Bool {
        let c = spec.classIndex
        func own(_ e: BoundExpr) -> Bool {
            switch e {
            case .constant, .constantList: true
            case .path(let p):
                p.steps.count <= 1 && p.steps.allSatisfy { if case .column(c, _) = $0 { true } else { false } }
            case .subqueryCount: false
            }
        }
        func own(_ p: BoundPredicate) -> Bool {
            switch p {
            case .constant: true
            case .and(let terms), .or(let terms): terms.allSatisfy(own)
            case .not(let inner): own(inner)
            case .compare(let comparison): own(comparison.lhs) && own(comparison.rhs)
            }
        }
        return spec.predicates.allSatisfy { $0.classIndex == c && own($0.predicate) }
    }

    /// The number of elements of ascending `a` that are <= `x`.
    static func upperBound(_ a: [Int], _ x: Int) -> Int {
        var lo = 0
        var hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] <= x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// The order of a table result: its sort descriptors over the class's own columns, ties (and
/// no sort at all) by object key.
struct KeyOrder {
    let classIndex: Int
    let columns: [Int]
    let ascending: [Bool]

    /// Nil when a sort key path is not a plain, non-list column of the class (in both schemas).
    init?(_ spec: QueryDescription, schema: Schema, oldSchema: Schema) {
        guard schema == oldSchema else { return nil }
        classIndex = spec.classIndex
        var columns: [Int] = []
        for d in spec.sortDescriptors {
            guard let path = try? Binder.sortPath(d.keyPath, classIndex: spec.classIndex, schema: schema),
                path.steps.count == 1, path.postfix == .none,
                case .column(let c, let column) = path.steps[0], c == spec.classIndex,
                let property = schema.objectSchemas[c].persistedProperties.dropFirst(column).first,
                !property.isList
            else { return nil }
            columns.append(column)
        }
        self.columns = columns
        ascending = spec.sortDescriptors.map(\.ascending)
    }

    func values(_ key: ObjectKey, in snapshot: any ReadableVersion) throws -> [Value] {
        try columns.map { try snapshot.value(classIndex: classIndex, key: key, column: $0) }
    }

    /// Whether `(a, ka)` sorts before `(b, kb)`.
    func before(_ a: [Value], _ ka: ObjectKey, _ b: [Value], _ kb: ObjectKey) -> Bool {
        for d in columns.indices {
            let c = ValueOrder.sortCompare(a[d], b[d])
            if c != 0 { return ascending[d] ? c < 0 : c > 0 }
        }
        return ka < kb
    }

    /// The index of `key` in `keys` (a result in this order at `snapshot`), or nil when the
    /// object is not there (or does not exist in `snapshot`).
    func index(of key: ObjectKey, in keys: [ObjectKey], snapshot: any ReadableVersion) throws -> Int? {
        guard try snapshot.contains(classIndex: classIndex, key: key) else { return nil }
        let v = try values(key, in: snapshot)
        var lo = 0
        var hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let k = keys[mid]
            if k == key { return mid }
            if before(try values(k, in: snapshot), k, v, key) { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }
}
