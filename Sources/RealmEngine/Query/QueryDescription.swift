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
package struct QueryDescription: @unchecked Sendable {
    // BoundQuery holds only immutable values (parsed and bound once), so sharing is safe.
    let classIndex: Int
    let source: QuerySource
    /// Conditions every object of the result meets, whenever they were added (Realm ANDs a
    /// later filter into the query); none has SORT, DISTINCT or LIMIT of its own: those go to
    /// `ordering`.
    private(set) var predicates: [BoundQuery] = []
    /// Sorts, distincts and limits, applied after the predicates in the order they were added
    /// (Realm's descriptor ordering): `limit(3).sorted(…)` sorts the three, `sorted(…).limit(3)`
    /// keeps the first three. Consecutive sorts are merged, the later one most significant, and
    /// consecutive limits keep the smaller.
    private(set) var ordering: [OrderingClause] = []

    init(classIndex: Int, source: QuerySource = .table) {
        self.classIndex = classIndex
        self.source = source
    }

    /// Adds a predicate: its condition joins the others, its own SORT, DISTINCT and LIMIT follow
    /// the ordering so far.
    mutating func add(_ predicate: BoundQuery) {
        predicates.append(predicate.withoutOrdering)
        for clause in predicate.ordering { add(clause) }
    }

    /// Adds a sort, distinct or limit after the ordering so far.
    mutating func add(_ clause: OrderingClause) {
        switch (ordering.last, clause) {
        case (.sort(let earlier)?, .sort(let later)):
            let laterPaths = Set(later.map(\.keyPath))
            ordering[ordering.count - 1] = .sort(later + earlier.filter { !laterPaths.contains($0.keyPath) })
        case (.limit(let earlier)?, .limit(let later)):
            ordering[ordering.count - 1] = .limit(Swift.min(earlier, later))
        default:
            ordering.append(clause)
        }
    }

    /// The sort that orders the result last, most significant first (empty: none).
    var sortDescriptors: [SortDescriptor] {
        for clause in ordering.reversed() { if case .sort(let descriptors) = clause { return descriptors } }
        return []
    }

    /// The ordering as one sort (perhaps empty) then perhaps one limit, or nil when it has a
    /// DISTINCT or a sort after a limit: the shape the fast paths and incremental change sets
    /// handle.
    var sortThenLimit: (sort: [SortDescriptor], limit: Int?)? {
        switch ordering.count {
        case 0: return ([], nil)
        case 1:
            if case .sort(let s) = ordering[0] { return (s, nil) }
            if case .limit(let n) = ordering[0] { return ([], n) }
            return nil
        case 2:
            if case .sort(let s) = ordering[0], case .limit(let n) = ordering[1] { return (s, n) }
            return nil
        default: return nil
        }
    }

    /// The same objects unordered, when the ordering only sorts (no distinct or limit, which
    /// change which objects there are): what counting needs, without sorting anything.
    var withoutSorts: QueryDescription? {
        guard !ordering.isEmpty, ordering.allSatisfy({ if case .sort = $0 { true } else { false } }) else { return nil }
        var unordered = self
        unordered.ordering = []
        return unordered
    }

    /// Whether this is every object of the class, in key order.
    var isWholeClass: Bool {
        if case .table = source { return predicates.isEmpty && ordering.isEmpty }
        return false
    }

    /// The predicate, when this is the objects of the class matching one predicate with no sort,
    /// distinct or limit (the shape that can be counted, windowed or deleted by one scan).
    var onlyPredicate: BoundQuery? {
        guard case .table = source, predicates.count == 1, ordering.isEmpty else { return nil }
        return predicates[0]
    }

    /// Whether this reads objects of the class (filtered or not, without distinct), sorted and
    /// perhaps then limited: a window of it can take the first objects from a bounded top-k pass
    /// over the filter's keys instead of sorting them all.
    var isSortedTable: Bool {
        guard case .table = source, let shape = sortThenLimit else { return false }
        return !shape.sort.isEmpty
    }

    /// The keys in result order. With `missingOwnerIsEmpty`, a list or linking-objects source
    /// whose owner was deleted is empty (for change sets: every element deleted) rather than an
    /// error.
    func evaluate(in store: some ReadableVersion, missingOwnerIsEmpty: Bool = false) throws -> [ObjectKey] {
        var keys: [ObjectKey]?
        switch source {
        case .table:
            keys = nil
        case .list(let c, let k, let column):
            if missingOwnerIsEmpty, !(try store.contains(classIndex: c, key: k)) { return [] }
            guard case .list(let items) = try store.value(classIndex: c, key: k, column: column) else {
                keys = []
                break
            }
            keys = items.compactMap { if case .link(let k) = $0 { k } else { nil } }
        case .backlinks(let c, let k, let oc, let ocol):
            if missingOwnerIsEmpty, !(try store.contains(classIndex: c, key: k)) { return [] }
            keys = try store.backlinks(classIndex: c, key: k, originClass: oc, originColumn: ocol)
        }
        for q in predicates {
            keys = try q.run(in: store, candidates: keys)
        }
        // A whole class sorted with a small limit: the first objects straight from the leaves.
        if keys == nil, let shape = sortThenLimit, let limit = shape.limit, !shape.sort.isEmpty,
            let first = try ResultOrdering.sortedPrefixOfClass(classIndex, by: shape.sort, limit: limit, in: store)
        {
            return first
        }
        return try ResultOrdering.apply(
            ordering, to: keys ?? store.keys(classIndex: classIndex), classIndex: classIndex, in: store)
    }

    /// Classes whose changes can change the keys: the class, the source's owner and origin,
    /// every class a predicate reads, and the classes that sort and distinct key paths cross.
    func dependencies(schema: Schema) -> Set<Int> {
        var d: Set<Int> = [classIndex]
        for q in predicates { d.formUnion(q.dependencies) }
        switch source {
        case .table: break
        case .list(let c, _, _): d.insert(c)
        case .backlinks(let c, _, let oc, _):
            d.insert(c)
            d.insert(oc)
        }
        for clause in ordering {
            let paths: [String] =
                switch clause {
                case .sort(let descriptors): descriptors.map(\.keyPath)
                case .distinct(let keyPaths): keyPaths
                case .limit: []
                }
            for path in paths {
                if let p = try? Binder.sortPath(path, classIndex: classIndex, schema: schema) { d.formUnion(p.classes) }
            }
        }
        return d
    }
}
