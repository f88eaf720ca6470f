import Foundation

/// A change of a dictionary, by key (RealmSwift's `RealmMapChange`).
public enum RealmMapChange<Collection> {
    /// The dictionary as it is when observing starts.
    case initial(Collection)
    /// Keys removed, added, and kept with a new value, since the last notification.
    case update(Collection, deletions: [String], insertions: [String], modifications: [String])
    /// Observing failed.
    case error(Error)
}

extension DynamicMap {
    /// Observes the dictionary: `.initial`, then after each version that changed it the keys
    /// removed, added and given a new value (a value equal by identity is no change), each in
    /// key order. If the owner is deleted, every key is reported removed. Delivered as the
    /// owner's object notifications are (this thread's RunLoop, or `queue`).
    public func observe(
        on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmMapChange<DynamicMap>) -> Void
    ) -> NotificationToken {
        let (original, column, property) = (self, self.column, self.property)
        var last = (try? entries()) ?? [:]
        deliverSoon(on: queue, of: owner.realm) { block(.initial(original)) }
        return owner.observe(on: queue) { change in
            switch change {
            case .change(let object, let properties):
                guard let p = properties.first(where: { $0.name == property.name }) else { return }
                var new: [String: Value] = [:]
                if case .map(let entries)? = p.newValue { new = entries }
                var old = last
                if case .map(let entries)? = p.oldValue { old = entries }
                last = new
                let (deletions, insertions, modifications) = DynamicMap.diff(old, new)
                guard !(deletions.isEmpty && insertions.isEmpty && modifications.isEmpty) else { return }
                let map =
                    object === original.owner ? original : DynamicMap(owner: object, column: column, property: property)
                block(.update(map, deletions: deletions, insertions: insertions, modifications: modifications))
            case .deleted:
                let gone = Value.map(last).sortedEntries.map(\.key)
                last = [:]
                if !gone.isEmpty { block(.update(original, deletions: gone, insertions: [], modifications: [])) }
            case .error(let error):
                block(.error(error))
            }
        }
    }

    /// Keys only in `old`, only in `new`, and in both with values that are not identical; each
    /// in key order (by bytes).
    static func diff(_ old: [String: Value], _ new: [String: Value]) -> ([String], [String], [String]) {
        func sorted(_ keys: [String]) -> [String] { keys.sorted { ValueOrder.bytes($0, $1) < 0 } }
        let deletions = sorted(old.keys.filter { new[$0] == nil })
        let insertions = sorted(new.keys.filter { old[$0] == nil })
        let modifications = sorted(
            new.compactMap { key, value in
                guard let was = old[key], !was.isIdentical(to: value) else { return nil }
                return key
            })
        return (deletions, insertions, modifications)
    }
}
