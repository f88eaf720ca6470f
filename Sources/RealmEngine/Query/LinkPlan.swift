/// A query through links answered from the far end: `ANY authors.name BEGINSWITH '王'` on
/// Book runs `name BEGINSWITH '王'` once over Author (a columnar scan or an index lookup), then
/// walks the matching authors' backlinks to the books that link to them. Without it every Book
/// read its list of authors and each author's name: 8 s for 500,000 books in a debug build.
///
/// When the comparison is the whole predicate, the books found are the answer (`isExact`: an
/// object links to a matching author exactly when ANY of its authors matches). With other AND
/// terms they are candidates only: `BoundQuery.run` evaluates the whole predicate on each, so
/// the plan must only never miss a match. It
/// applies to a top-level term that is a comparison of a path of link and list-of-link steps
/// ending in a scalar column with constants that are not nil, under ANY (explicit or implied),
/// with an operator a missing value never satisfies (not `!=`, `NONE`, `ALL`, or a comparison
/// with nil: an object whose link is nil would match those and has no backlink to be found by).
final class LinkPlan {
    /// The link steps, from the queried class outwards: each a class and its link or list column.
    let links: [(classIndex: Int, column: Int)]
    /// The comparison on the far class, run as a query of its own.
    let far: BoundQuery
    /// The key path as written (for `planDescription`).
    let name: String
    /// Whether the comparison is the whole predicate, so the objects found are exactly its
    /// matches and need no evaluation of their own.
    let isExact: Bool

    private init(links: [(classIndex: Int, column: Int)], far: BoundQuery, name: String, isExact: Bool) {
        self.links = links
        self.far = far
        self.name = name
        self.isExact = isExact
    }

    /// The plan for the first term of `predicate` it applies to, if any.
    static func make(_ predicate: BoundPredicate, classIndex: Int, schema: Schema) -> LinkPlan? {
        let terms: [BoundPredicate]
        if case .and(let list) = predicate { terms = list } else { terms = [predicate] }
        for case .compare(let comparison) in terms {
            if let plan = make(comparison, classIndex: classIndex, schema: schema, isExact: terms.count == 1) {
                return plan
            }
        }
        return nil
    }

    private static func make(_ comparison: BoundComparison, classIndex: Int, schema: Schema, isExact: Bool)
        -> LinkPlan?
    {
        guard comparison.quantifier == .any, comparison.op != .notEqual,
            case .path(let path) = comparison.lhs, path.postfix == .none, path.steps.count >= 2
        else { return nil }
        let constants: [Value]
        switch comparison.rhs {
        case .constant(let value): constants = [value]
        case .constantList(let values): constants = values
        default: return nil
        }
        guard !constants.isEmpty, !constants.contains(where: \.isNull) else { return nil }
        var links: [(classIndex: Int, column: Int)] = []
        var current = classIndex
        for step in path.steps.dropLast() {
            guard case .column(let owner, let column) = step, owner == current,
                let property = schema.objectSchemas[owner].persistedProperties[safe: column],
                property.type == .object, let targetName = property.objectClassName,
                let target = schema.objectSchemas.firstIndex(where: { $0.name == targetName })
            else { return nil }
            links.append((owner, column))
            current = target
        }
        guard case .column(let owner, let column)? = path.steps.last, owner == current,
            let last = schema.objectSchemas[owner].persistedProperties[safe: column],
            last.type != .object, !last.isList
        else { return nil }
        var farComparison = comparison
        farComparison.lhs = .path(
            BoundPath(
                steps: [.column(classIndex: owner, column: column)], throughCollection: false,
                postfix: .none, elementType: path.elementType, name: last.name))
        let far = BoundQuery.make(classIndex: owner, schema: schema, predicate: .compare(farComparison))
        return LinkPlan(links: links, far: far, name: path.name, isExact: isExact)
    }

    /// The keys (ascending) of the queried class's objects that link, through every step, to
    /// an object the far comparison matches; nil when the store cannot list the backlinks of
    /// some step (then the query scans).
    func candidates(in store: some ObjectStore) throws -> [ObjectKey]? {
        for link in links {
            guard let target = target(of: link, schema: store.schema),
                store.listsBacklinks(classIndex: target, originClass: link.classIndex, originColumn: link.column)
            else { return nil }
        }
        var found = try far.run(in: store, candidates: nil)
        for link in links.reversed() {
            guard let target = target(of: link, schema: store.schema) else { return nil }
            var origins: [ObjectKey] = []
            origins.reserveCapacity(found.count)
            for (done, key) in found.enumerated() {
                try ProgressMonitor.tick(done, of: found.count)
                origins.append(
                    contentsOf: try store.backlinks(
                        classIndex: target, key: key, originClass: link.classIndex, originColumn: link.column))
            }
            // Ascending, each once (an object linking to several matches is found once per link).
            origins.sort()
            found = origins.indices.compactMap { index in
                index == 0 || origins[index - 1] != origins[index] ? origins[index] : nil
            }
        }
        return found
    }

    private func target(of link: (classIndex: Int, column: Int), schema: Schema) -> Int? {
        guard
            let name = schema.objectSchemas[safe: link.classIndex]?.persistedProperties[safe: link.column]?
                .objectClassName
        else { return nil }
        return schema.objectSchemas.firstIndex { $0.name == name }
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
