import Foundation

extension DynamicList {
    /// Observes a list of objects like `Results.observe`: `.initial`, then updates with the
    /// indices of removed, inserted (moved elements are both) and modified elements — modified
    /// also when an element's linked objects changed. If the owner is deleted, every element is
    /// reported deleted. A list of values reports removed and inserted values (a changed value
    /// is a removal plus an insertion).
    public func observe(
        on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<DynamicList>) -> Void
    ) -> NotificationToken {
        if property.type != .object { return observeValues(on: queue, block) }
        let results: Results
        do {
            results = try objects()
        } catch {
            deliverSoon(on: queue, of: owner.realm) { block(.error(error)) }
            return NotificationToken(nil)
        }
        let (original, ownerClass, ownerKey, column, property) = (
            self, owner.classIndex, owner.key, self.column, self.property
        )
        var rebound: DynamicList?
        return results.observe(on: queue) { change in
            let list: DynamicList
            switch change {
            case .initial(let r), .update(let r, _, _, _):
                if queue == nil {
                    list = original
                } else {
                    if rebound == nil {
                        rebound = DynamicList(
                            owner: DynamicObject(realm: r.realm, classIndex: ownerClass, key: ownerKey),
                            column: column, property: property)
                    }
                    list = rebound!
                }
            case .error(let error):
                block(.error(error))
                return
            }
            switch change {
            case .initial: block(.initial(list))
            case .update(_, let d, let i, let m): block(.update(list, deletions: d, insertions: i, modifications: m))
            case .error: break
            }
        }
    }
}

extension DynamicList {
    /// Lists of values: observed through the owner's object notifications, which carry the old
    /// and new list; the two are diffed with the collection diff (equal values matched
    /// occurrence by occurrence).
    private func observeValues(
        on queue: DispatchQueue?,
        _ block: @escaping (RealmCollectionChange<DynamicList>) -> Void
    ) -> NotificationToken {
        let (original, column, property) = (self, self.column, self.property)
        var last = (try? elements()) ?? []
        deliverSoon(on: queue, of: owner.realm) { block(.initial(original)) }
        return owner.observe(on: queue) { change in
            switch change {
            case .change(let object, let properties):
                guard let p = properties.first(where: { $0.name == property.name }) else { return }
                var new: [Value] = []
                if case .list(let items)? = p.newValue { new = items }
                var old = last
                if case .list(let items)? = p.oldValue { old = items }
                last = new
                let diff = DynamicList.diff(old, new)
                guard !diff.isEmpty else { return }
                let list =
                    object === original.owner
                    ? original : DynamicList(owner: object, column: column, property: property)
                block(
                    .update(
                        list, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications)
                )
            case .deleted:
                let gone = Array(last.indices)
                last = []
                if !gone.isEmpty { block(.update(original, deletions: gone, insertions: [], modifications: [])) }
            case .error(let error):
                block(.error(error))
            }
        }
    }

    /// The change set between two lists of values: each distinct value stands for a key.
    static func diff(_ old: [Value], _ new: [Value]) -> CollectionChangeSet {
        var ids: [Value: Int64] = [:]
        func key(_ v: Value) -> ObjectKey {
            if let id = ids[v] { return ObjectKey(id) }
            let id = Int64(ids.count)
            ids[v] = id
            return ObjectKey(id)
        }
        return CollectionDiff.compute(old: old.map(key), new: new.map(key), modified: [])
    }
}
