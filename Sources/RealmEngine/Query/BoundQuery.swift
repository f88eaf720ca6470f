/// A parsed, type-checked query on one class, with its trailing SORT/DISTINCT/LIMIT.
///
/// Built once per `filter` call; evaluation reads through any `ObjectStore` (a snapshot, a
/// writer's state, or a test fake). Parsing and binding errors are `RealmError.query` with a
/// 1-based column.
package struct BoundQuery {
    /// The class queried.
    let classIndex: Int
    private let className: String
    let predicate: BoundPredicate
    let ordering: [OrderingClause]
    /// Class indices this query reads (its own class and any reached through links/backlinks),
    /// for change notifications.
    let dependencies: Set<Int>
    /// The predicate compiled for columnar scans, when it only reads the class's own scalars.
    let columnTest: ColumnTest?
    /// An equality (or IN) on an indexed column that every match must satisfy.
    let indexPlan: (column: Int, name: String, values: [Value])?
    /// A comparison through links that every match must satisfy, answered from the far end.
    let linkPlan: LinkPlan?

    /// Parses and type-checks `text` against class `classIndex` of `schema`.
    static func parse(
        _ text: String, classIndex: Int, schema: Schema, arguments: [Value],
        objectClasses: [Int: String] = [:]
    ) throws -> BoundQuery {
        guard schema.objectSchemas.indices.contains(classIndex) else {
            throw RealmError.noSuchClass("#\(classIndex)")
        }
        let node = try Parser.parse(text, arguments: arguments)
        var binder = Binder(schema: schema, arguments: arguments, objectClasses: objectClasses)
        let predicate = try binder.bind(node.predicate, classIndex: classIndex)
        var dependencies = binder.dependencies
        for clause in node.ordering {
            let (paths, use): ([String], Binder.OrderingUse) =
                switch clause {
                case .sort(let s): (s.map(\.keyPath), .sort)
                case .distinct(let p): (p, .distinct)
                case .limit: ([], .sort)
                }
            for path in paths {
                dependencies.formUnion(
                    try Binder.sortPath(path, classIndex: classIndex, schema: schema, for: use).classes)
            }
        }
        return make(
            classIndex: classIndex, schema: schema, predicate: predicate, ordering: node.ordering,
            dependencies: dependencies)
    }

    /// A query of `predicate` (already bound) on class `classIndex`, with its plans chosen.
    static func make(
        classIndex: Int, schema: Schema, predicate: BoundPredicate, ordering: [OrderingClause] = [],
        dependencies: Set<Int> = []
    ) -> BoundQuery {
        BoundQuery(
            classIndex: classIndex, className: schema.objectSchemas[classIndex].name, predicate: predicate,
            ordering: ordering,
            dependencies: dependencies,
            indexPlan: BoundQuery.indexPlan(predicate, classIndex: classIndex, schema: schema),
            linkPlan: LinkPlan.make(predicate, classIndex: classIndex, schema: schema),
            columnTest: ColumnTest.compile(predicate, classIndex: classIndex, schema: schema))
    }

    private init(
        classIndex: Int, className: String, predicate: BoundPredicate, ordering: [OrderingClause],
        dependencies: Set<Int>,
        indexPlan: (column: Int, name: String, values: [Value])?, linkPlan: LinkPlan?, columnTest: ColumnTest?
    ) {
        self.columnTest = columnTest
        self.linkPlan = linkPlan
        self.classIndex = classIndex
        self.className = className
        self.predicate = predicate
        self.ordering = ordering
        self.dependencies = dependencies
        self.indexPlan = indexPlan
    }

    /// Whether the object matches the predicate (SORT/DISTINCT/LIMIT do not apply to one object).
    func matches(_ key: ObjectKey, in store: some ObjectStore) throws -> Bool {
        try Evaluator(store: store).matches(predicate, key)
    }

    /// Any SORT/DISTINCT/LIMIT.
    var hasOrdering: Bool { !ordering.isEmpty }

    /// The same condition without SORT/DISTINCT/LIMIT (results keep those in their ordering).
    var withoutOrdering: BoundQuery {
        BoundQuery(
            classIndex: classIndex, className: className, predicate: predicate, ordering: [],
            dependencies: dependencies,
            indexPlan: indexPlan, linkPlan: linkPlan, columnTest: columnTest)
    }

    /// Filters `candidates` (or all keys of the class when nil), then applies SORT/DISTINCT/LIMIT.
    func run(in store: some ObjectStore, candidates: [ObjectKey]?) throws -> [ObjectKey] {
        var keys: [ObjectKey]
        if let plan = indexPlan, let indexed = try lookup(plan, in: store) {
            if let candidates {
                let allowed = Set(indexed)
                keys = candidates.filter { allowed.contains($0) }
            } else {
                keys = indexed
            }
        } else if candidates == nil, let plan = linkPlan, let linked = try plan.candidates(in: store) {
            if plan.isExact { return try ResultOrdering.apply(ordering, to: linked, classIndex: classIndex, in: store) }
            keys = linked
        } else if candidates == nil, let scanned = try scan(in: store) {
            return try ResultOrdering.apply(ordering, to: scanned, classIndex: classIndex, in: store)
        } else {
            keys = try candidates ?? store.keys(classIndex: classIndex)
        }
        let evaluator = Evaluator(store: store)
        var out: [ObjectKey] = []
        out.reserveCapacity(keys.count)
        for (done, key) in keys.enumerated() {
            try ProgressMonitor.tick(done, of: keys.count)
            if try evaluator.matches(predicate, key) { out.append(key) }
        }
        keys = out
        return try ResultOrdering.apply(ordering, to: keys, classIndex: classIndex, in: store)
    }

    /// Runs the predicate over every leaf of the class: compiled column tests on encoded leaves,
    /// the evaluator on a writer's decoded ones. Nil when the store offers no leaves.
    private func scan(in store: some ObjectStore) throws -> [ObjectKey]? {
        let cached = LeafCachedStore(base: store, classIndex: classIndex)
        let evaluator = Evaluator(store: cached)
        var out: [ObjectKey] = []
        // Objects evaluated one by one (a column test is fast enough to need no reports).
        var evaluated = 0
        let total = ProgressMonitor.current == nil ? 0 : try store.count(classIndex: classIndex)
        let scanned = try store.forEachCluster(classIndex: classIndex) { leaf in
            if case .view(let v) = leaf, let test = columnTest {
                for r in 0..<v.count where test.matches(v, r) { out.append(ObjectKey(v.key(at: r))) }
            } else {
                for r in 0..<leaf.count {
                    try ProgressMonitor.tick(evaluated, of: total)
                    evaluated += 1
                    let k = cached.testing(row: r, of: leaf)
                    if try evaluator.matches(predicate, k) { out.append(k) }
                }
            }
        }
        return scanned ? out : nil
    }

    /// The number of matches when it can be found without listing them (no SORT/DISTINCT/LIMIT,
    /// no candidates): ranges on one int column count packed values per leaf in one loop.
    func count(in store: some ObjectStore) throws -> Int? {
        guard ordering.isEmpty, indexPlan == nil, let test = columnTest else { return nil }
        var total = 0
        let range = test.intRange
        let scanned = try store.forEachCluster(classIndex: classIndex) { leaf in
            switch leaf {
            case .view(let v):
                if let range, let packed = v.packedInts(column: range.column) {
                    total += packed.count(from: range.lower, through: range.upper)
                } else {
                    for r in 0..<v.count where test.matches(v, r) { total += 1 }
                }
            case .data:
                let cached = LeafCachedStore(base: store, classIndex: classIndex)
                let evaluator = Evaluator(store: cached)
                for r in 0..<leaf.count where try evaluator.matches(predicate, cached.testing(row: r, of: leaf)) {
                    total += 1
                }
            }
        }
        return scanned ? total : nil
    }

    private func lookup(_ plan: (column: Int, name: String, values: [Value]), in store: some ObjectStore) throws
        -> [ObjectKey]?
    {
        var found = Set<ObjectKey>()
        for value in plan.values {
            guard let keys = try store.indexLookup(classIndex: classIndex, column: plan.column, value: value) else {
                return nil
            }
            found.formUnion(keys)
        }
        return found.sorted()
    }

    /// How `run` finds candidates, e.g. "index lookup on name" or "scan Person".
    var planDescription: String {
        if let indexPlan { return "index lookup on \(indexPlan.name)" }
        if let linkPlan {
            let exact = linkPlan.isExact ? " (exact)" : ""
            return "\(linkPlan.far.planDescription), then backlinks of \(linkPlan.name)\(exact)"
        }
        return "scan \(className)"
    }

    /// The first `indexed == constant` / `indexed IN {constants}` on the class's own column that
    /// the whole predicate requires (the predicate itself or a top-level AND term).
    private static func indexPlan(_ predicate: BoundPredicate, classIndex: Int, schema: Schema) -> (
        column: Int, name: String, values: [Value]
    )? {
        let terms: [BoundPredicate]
        if case .and(let list) = predicate { terms = list } else { terms = [predicate] }
        let properties = schema.objectSchemas[classIndex].persistedProperties
        for case .compare(let c) in terms {
            guard c.options.isEmpty, c.op == .equal || c.op == .in,
                case .path(let p) = c.lhs, p.postfix == .none, p.steps.count == 1,
                case .column(let cls, let column) = p.steps[0], cls == classIndex,
                properties[column].isIndexed, !properties[column].isList
            else { continue }
            let values: [Value]
            switch c.rhs {
            case .constant(let v): values = [v]
            case .constantList(let vs) where c.op == .in: values = vs
            default: continue
            }
            guard values.allSatisfy({ indexable($0, for: properties[column].type) }) else { continue }
            return (column, properties[column].name, values)
        }
        return nil
    }

    private static func indexable(_ value: Value, for type: PropertyType) -> Bool {
        switch (type, value) {
        case (_, .null): true
        // Any scalar: Mixed lookups compare candidates as the query does (numbers by value).
        case (.mixed, .list), (.mixed, .map): false
        case (.mixed, _): true
        case (.bool, .bool), (.string, .string), (.date, .date), (.objectId, .objectId), (.uuid, .uuid): true
        case (let t, .int) where t.isInteger: true
        default: false
        }
    }
}
