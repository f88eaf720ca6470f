/// Where the objects of a query come from.
enum QuerySource {
    /// Every object of the class.
    case table
    /// The objects of a list property of one object.
    case list(classIndex: Int, key: ObjectKey, column: Int)
    /// The objects of `originClass` whose link or list `originColumn` points at one object.
    case backlinks(classIndex: Int, key: ObjectKey, originClass: Int, originColumn: Int)
}

/// Everything a query is, detached from any Realm: the class, the source, the bound predicates
/// (arguments already substituted), the sort, distinct and limit.
///
/// The one description of a query: `Results` holds one (building a result copies and extends
/// it), notifications evaluate it on the notifier thread against any snapshot while the
/// `Results` stays confined to its thread, and the fast paths (counting, windows, deleting while
/// scanning) ask it which shape it has.
struct QueryDescription: @unchecked Sendable {
    // BoundQuery holds only immutable values (parsed and bound once), so sharing is safe.
    let classIndex: Int
    let source: QuerySource
    var predicates: [BoundQuery] = []
    var sortDescriptors: [SortDescriptor] = []
    var distinctKeyPaths: [String] = []
    /// The sort in effect when the distinct was set: distinct keeps the first object of each
    /// value in that order, and a sort set after it orders what distinct kept (Realm applies
    /// them in the order called).
    var sortAtDistinct: [SortDescriptor] = []
    var limitCount: Int?

    init(classIndex: Int, source: QuerySource = .table) {
        self.classIndex = classIndex
        self.source = source
    }

    /// Whether this is every object of the class, in key order.
    var isWholeClass: Bool {
        if case .table = source { return predicates.isEmpty && sortDescriptors.isEmpty && distinctKeyPaths.isEmpty && limitCount == nil }
        return false
    }

    /// The predicate, when this is the objects of the class matching one predicate with no sort,
    /// distinct or limit (the shape that can be counted, windowed or deleted by one scan).
    var onlyPredicate: BoundQuery? {
        guard case .table = source, predicates.count == 1, sortDescriptors.isEmpty, distinctKeyPaths.isEmpty,
              limitCount == nil else { return nil }
        return predicates[0]
    }

    /// Whether this reads the whole class with no predicate or distinct (perhaps sorted or
    /// limited): the shape a sorted window can take from a bounded top-k pass.
    var isSortedClass: Bool {
        if case .table = source { return predicates.isEmpty && distinctKeyPaths.isEmpty && !sortDescriptors.isEmpty }
        return false
    }

    /// The keys in result order. With `missingOwnerIsEmpty`, a list or linking-objects source
    /// whose owner was deleted is empty (for change sets: every element deleted) rather than an
    /// error.
    func evaluate(in store: Snapshot, missingOwnerIsEmpty: Bool = false) throws -> [ObjectKey] {
        var keys: [ObjectKey]?
        switch source {
        case .table:
            keys = nil
        case .list(let c, let k, let column):
            if missingOwnerIsEmpty, !(try store.contains(classIndex: c, key: k)) { return [] }
            guard case .list(let items) = try store.value(classIndex: c, key: k, column: column) else { keys = []; break }
            keys = items.compactMap { if case .link(let k) = $0 { k } else { nil } }
        case .backlinks(let c, let k, let oc, let ocol):
            if missingOwnerIsEmpty, !(try store.contains(classIndex: c, key: k)) { return [] }
            keys = try store.backlinks(classIndex: c, key: k, originClass: oc, originColumn: ocol)
        }
        for q in predicates {
            keys = try q.run(in: store, candidates: keys)
        }
        // A whole class sorted with a small limit: the first objects straight from the leaves.
        if keys == nil, distinctKeyPaths.isEmpty, let limitCount, !sortDescriptors.isEmpty,
           let first = try ResultOrdering.sortedPrefixOfClass(classIndex, by: sortDescriptors, limit: limitCount, in: store) {
            return first
        }
        var result = try keys ?? store.keys(classIndex: classIndex)
        let sortedAfterDistinct = !distinctKeyPaths.isEmpty && sortDescriptors != sortAtDistinct
        let firstSort = sortedAfterDistinct ? sortAtDistinct : sortDescriptors
        if !firstSort.isEmpty {
            result = try ResultOrdering.sort(result, classIndex: classIndex, by: firstSort, in: store,
                                             limit: distinctKeyPaths.isEmpty ? limitCount : nil)
        }
        if !distinctKeyPaths.isEmpty {
            result = try ResultOrdering.distinct(result, classIndex: classIndex, by: distinctKeyPaths, in: store)
        }
        if sortedAfterDistinct, !sortDescriptors.isEmpty {
            result = try ResultOrdering.sort(result, classIndex: classIndex, by: sortDescriptors, in: store, limit: nil)
        }
        if let limitCount, result.count > limitCount { result = Array(result.prefix(limitCount)) }
        return result
    }

    /// Classes whose changes can change the keys: the class, the source's owner and origin,
    /// every class a predicate reads, and the classes that sort and distinct key paths cross.
    func dependencies(schema: Schema) -> Set<Int> {
        var d: Set<Int> = [classIndex]
        for q in predicates { d.formUnion(q.dependencies) }
        switch source {
        case .table: break
        case .list(let c, _, _): d.insert(c)
        case .backlinks(let c, _, let oc, _): d.insert(c); d.insert(oc)
        }
        for path in sortDescriptors.map(\.keyPath) + distinctKeyPaths {
            if let p = try? Binder.sortPath(path, classIndex: classIndex, schema: schema) { d.formUnion(p.classes) }
        }
        return d
    }
}
