/// What a `Results` computes, detached from its Realm: the source, predicates, sort, distinct
/// and limit. A value that the notifier thread can evaluate against any snapshot while the
/// `Results` itself stays confined to its thread.
struct QuerySpec: @unchecked Sendable {
    // BoundQuery holds only immutable values (parsed and bound once), so sharing is safe.
    let classIndex: Int
    let source: Results.Source
    let predicates: [BoundQuery]
    let sortDescriptors: [SortDescriptor]
    let distinctKeyPaths: [String]
    let limitCount: Int?

    init(_ results: Results) {
        classIndex = results.classIndex
        source = results.source
        predicates = results.predicates
        sortDescriptors = results.sortDescriptors
        distinctKeyPaths = results.distinctKeyPaths
        limitCount = results.limitCount
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
        if !sortDescriptors.isEmpty {
            result = try ResultOrdering.sort(result, classIndex: classIndex, by: sortDescriptors, in: store,
                                             limit: distinctKeyPaths.isEmpty ? limitCount : nil)
        }
        if !distinctKeyPaths.isEmpty {
            result = try ResultOrdering.distinct(result, classIndex: classIndex, by: distinctKeyPaths, in: store)
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
