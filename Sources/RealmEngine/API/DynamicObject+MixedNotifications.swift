import Foundation

/// A step to a collection nested in a Mixed value: a list's position or a dictionary's key.
public enum MixedPathElement: Equatable, Sendable {
    case index(Int)
    case key(String)
}

/// A change of a list or dictionary held in a Mixed property (RealmSwift's observers of
/// `value.listValue` and `value.dictionaryValue`).
public enum MixedCollectionChange {
    /// The Mixed value at the observed place when observing starts.
    case initial(Value)
    /// The list changed: removed positions (old indices), inserted ones (new indices), and
    /// positions whose nested collection changed inside (old indices). A scalar that changed is
    /// a removal and an insertion, as in lists of values.
    case listUpdate(Value, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The dictionary changed: keys removed, added, and kept with a new value (one holding a
    /// collection that changed inside too), each in key order.
    case dictionaryUpdate(Value, deletions: [String], insertions: [String], modifications: [String])
    /// Observing failed (not a Mixed property, no collection there); nothing more is delivered.
    case error(Error)
}

extension DynamicObject {
    /// Observes the list or dictionary that Mixed property `name` holds, at `path` inside it
    /// (`[]`: the property's value itself; `[.index(2), .key("k")]`: deeper; for a list or
    /// dictionary of Mixed, the path starts at one of its elements): `.initial`, then
    /// after each version that changed it the positions or keys that changed. The observer
    /// follows the kind of collection it found when it started: where the value later is not
    /// such a collection, it reads as empty (every element reported removed). Delivered as
    /// object notifications are (this thread's RunLoop, or `queue`).
    public func observeCollection(
        inMixed name: String, at path: [MixedPathElement] = [], on queue: DispatchQueue? = nil,
        _ block: @escaping (MixedCollectionChange) -> Void
    ) -> NotificationToken {
        observeCollection(inMixed: name, at: MixedPlace(path: path), on: queue, block)
    }

    /// `observeCollection(inMixed:at:)` for the collection at `place`, followed to its element
    /// when elements are inserted or removed before it (see `MixedPlace`); the observer works on
    /// its own copy of `place`. Once the element is removed, it reads as empty.
    public func observeCollection(
        inMixed name: String, at place: MixedPlace, on queue: DispatchQueue? = nil,
        _ block: @escaping (MixedCollectionChange) -> Void
    ) -> NotificationToken {
        let place = place.copy()
        let path = place.path
        let start: Value
        do {
            // A list or dictionary of Mixed holds nested collections in its elements: the path
            // then starts with the element's position or key (`[.index(0)]`: `list[0]`'s).
            guard let property = objectSchema[name], property.isPersisted, property.type == .mixed,
                !property.isSet, !((property.isList || property.isMap) && path.isEmpty)
            else {
                throw RealmError.invalidOperation(
                    "\(className).\(name) is not a Mixed property: only a Mixed value (or an element of a list or dictionary of Mixed) holds a nested list or dictionary to observe"
                )
            }
            start = place.resolve(in: try value(forKey: name)) ?? .null
            guard start.isMixedCollection else {
                throw RealmError.invalidOperation(
                    "\(className).\(name)\(Self.describe(path)) holds no list or dictionary (it holds \(start)): nothing to observe"
                )
            }
        } catch {
            deliverSoon(on: queue, of: realm) { block(.error(error)) }
            return NotificationToken(nil)
        }
        let isList = if case .list = start { true } else { false }
        var last = start
        deliverSoon(on: queue, of: realm) { block(.initial(start)) }
        return observe(on: queue) { change in
            switch change {
            case .change(_, let properties):
                guard let changed = properties.first(where: { $0.name == name }) else { return }
                let new = place.resolve(in: changed.newValue ?? .null) ?? .null
                let old = last
                last = new
                if isList {
                    let diff = Self.listDiff(old.listElements, new.listElements)
                    guard !diff.isEmpty else { return }
                    block(
                        .listUpdate(
                            new, deletions: diff.deletions, insertions: diff.insertions,
                            modifications: diff.modifications))
                } else {
                    let (deletions, insertions, modifications) = DynamicMap.diff(old.mapEntries, new.mapEntries)
                    guard !(deletions.isEmpty && insertions.isEmpty && modifications.isEmpty) else { return }
                    block(
                        .dictionaryUpdate(
                            new, deletions: deletions, insertions: insertions, modifications: modifications))
                }
            case .deleted:
                let old = last
                last = .null
                if isList, !old.listElements.isEmpty {
                    block(
                        .listUpdate(
                            .null, deletions: Array(old.listElements.indices), insertions: [], modifications: []))
                } else if !isList, !old.mapEntries.isEmpty {
                    block(
                        .dictionaryUpdate(
                            .null, deletions: Value.map(old.mapEntries).sortedEntries.map(\.key), insertions: [],
                            modifications: []))
                }
            case .error(let error):
                block(.error(error))
            }
        }
    }

    private static func describe(_ path: [MixedPathElement]) -> String {
        path.map { step in
            switch step {
            case .index(let index): "[\(index)]"
            case .key(let key): "['\(key)']"
            }
        }.joined()
    }

    /// The change set between two Mixed lists. Scalars are matched by value (a changed one is a
    /// removal and an insertion); the n-th nested list (or dictionary) of the old list is the
    /// n-th of the new one, and is modified when its contents differ.
    static func listDiff(_ old: [Value], _ new: [Value]) -> CollectionChangeSet {
        var scalarKeys: [Value: Int64] = [:]
        var modified = Set<ObjectKey>()
        func keys(_ values: [Value]) -> [ObjectKey] {
            var lists = 0
            var dictionaries = 0
            return values.map { value in
                switch value {
                case .list, .map:
                    let isList = if case .list = value { true } else { false }
                    let occurrence = isList ? lists : dictionaries
                    if isList { lists += 1 } else { dictionaries += 1 }
                    // Negative keys: 2n for the n-th list, 2n+1 for the n-th dictionary.
                    return ObjectKey(-1 - Int64(2 * occurrence + (isList ? 0 : 1)))
                default:
                    if let key = scalarKeys[value] { return ObjectKey(key) }
                    let key = Int64(scalarKeys.count)
                    scalarKeys[value] = key
                    return ObjectKey(key)
                }
            }
        }
        let oldKeys = keys(old)
        let newKeys = keys(new)
        var newByKey: [ObjectKey: Value] = [:]
        for (key, value) in zip(newKeys, new) where key.rawValue < 0 { newByKey[key] = value }
        for (key, value) in zip(oldKeys, old) where key.rawValue < 0 {
            if let now = newByKey[key], !now.isIdentical(to: value) { modified.insert(key) }
        }
        return CollectionDiff.compute(old: oldKeys, new: newKeys, modified: modified)
    }
}

extension Value {
    /// Whether this is a list or dictionary (what a Mixed value can nest).
    var isMixedCollection: Bool {
        switch self {
        case .list, .map: true
        default: false
        }
    }

    /// A list's elements; none for anything else.
    var listElements: [Value] { if case .list(let items) = self { items } else { [] } }

    /// A dictionary's entries; none for anything else.
    var mapEntries: [String: Value] { if case .map(let entries) = self { entries } else { [:] } }
}
