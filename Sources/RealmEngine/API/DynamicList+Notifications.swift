import Foundation

extension DynamicList {
    /// Observes a list of objects like `Results.observe`: `.initial`, then updates with the
    /// indices of removed, inserted (moved elements are both) and modified elements — modified
    /// also when an element's linked objects changed. If the owner is deleted, every element is
    /// reported deleted. Lists of values are not observable yet (`.error`).
    public func observe(on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<DynamicList>) -> Void) -> NotificationToken {
        let results: Results
        do {
            results = try objects()
        } catch {
            deliverRegistrationError(error, on: queue) { block(.error(error)) }
            return NotificationToken(nil)
        }
        let (original, ownerClass, ownerKey, column, property) = (self, owner.classIndex, owner.key, self.column, self.property)
        var rebound: DynamicList?
        return results.observe(on: queue) { change in
            let list: DynamicList
            switch change {
            case .initial(let r), .update(let r, _, _, _):
                if queue == nil {
                    list = original
                } else {
                    if rebound == nil {
                        rebound = DynamicList(owner: DynamicObject(realm: r.realm, classIndex: ownerClass, key: ownerKey),
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
