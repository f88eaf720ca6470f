import Foundation

/// A set property: `@Persisted var tags: MutableSet<String>`, or of objects, `MutableSet<Dog>`.
///
/// Elements are unique by value (`1` and `1.0` in a set of doubles are one element; objects by
/// identity) and come in Realm's order (numbers by value, strings by their UTF-8 bytes, objects
/// by key), not in insertion order. An unmanaged set keeps its elements in memory in insertion
/// order. A managed set is live and changes only inside a write transaction; inserting an
/// unmanaged object adds it to the Realm.
public final class MutableSet<Element: _RealmElement>: Sequence, CustomStringConvertible {
    enum Storage {
        case unmanaged([Element])
        case managed(DynamicSet, Realm)
    }
    var storage: Storage

    /// An empty, unmanaged set.
    public init() { storage = .unmanaged([]) }

    init(managed: DynamicSet, realm: Realm) { storage = .managed(managed, realm) }

    /// The Realm managing the set, or nil.
    public var realm: Realm? {
        if case .managed(_, let realm) = storage { return realm }
        return nil
    }

    /// The elements, in the set's order (read once).
    public var elements: [Element] {
        switch storage {
        case .unmanaged(let items): return items
        case .managed(let set, let realm):
            realm.verifyThread()
            do {
                let values = try realm.reading { try set.elements() }
                return try values.map { v in
                    guard let e = Element._rlmRead(v.namingLinkClass(for: Element.self, set.property), realm: realm)
                    else {
                        throw unreadableElement(v, as: Element.self, at: "\(set.property.name)", in: realm)
                    }
                    return e
                }
            } catch {
                preconditionFailure("MutableSet<\(Element.self)>: \(error)")
            }
        }
    }

    /// Number of elements.
    public var count: Int {
        switch storage {
        case .unmanaged(let items): return items.count
        case .managed(let set, let realm):
            realm.verifyThread()
            do { return try realm.reading { try set.count() } } catch {
                preconditionFailure("MutableSet<\(Element.self)>.count: \(error)")
            }
        }
    }

    /// Whether the set is empty.
    public var isEmpty: Bool { count == 0 }

    /// The element at `position` in the set's order (Realm's order for a managed set,
    /// insertion order for an unmanaged one), as RealmSwift's subscript. That order is not
    /// insertion order and changes as the set changes: index a set only to walk it once.
    /// A position outside `0..<count` stops with a message, as in RealmSwift.
    public subscript(position: Int) -> Element {
        let all = elements
        precondition(position >= 0, "Cannot access index \(position) of a MutableSet: indexes are not negative.")
        precondition(
            position < all.count, "Index \(position) is out of bounds (must be less than \(all.count)).")
        return all[position]
    }

    /// The first element in the set's order, or nil when it is empty (RealmSwift's `first`).
    public var first: Element? { elements.first }

    /// The last element in the set's order, or nil when it is empty (RealmSwift's `last`).
    public var last: Element? { elements.last }

    /// Whether the set can no longer be used: its object was deleted (or its Realm closed).
    /// An unmanaged set never is.
    public var isInvalidated: Bool {
        switch storage {
        case .unmanaged: return false
        case .managed(let set, let realm): return realm.reading { set.isInvalidated }
        }
    }

    public func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }

    /// The stored value that names `element` in a managed set: a scalar's value, a managed
    /// object's link; nil for an object this Realm does not hold (no set of it can contain it).
    private static func stored(_ element: Element, in realm: Realm) throws -> Value? {
        // An optional element's nil is null (a cast to a scalar would not match it).
        if Element._rlmIsOptional, isNull(element) { return .null }
        if let scalar = element as? any _RealmScalar { return try scalar._rlmCheckedValue() }
        if let object = element as? Object {
            guard let accessor = object.accessor, object.realm?.dynamicRealm === realm.dynamicRealm else { return nil }
            return .link(accessor.key)
        }
        return nil
    }

    /// Whether two elements are the same element of an unmanaged set.
    private static func same(_ a: Element, _ b: Element) -> Bool {
        if let x = a as? Object, let y = b as? Object {
            return x === y || (x.accessor != nil && x.accessor == y.accessor)
        }
        if Element._rlmIsOptional, isNull(a) || isNull(b) { return isNull(a) && isNull(b) }
        if let x = a as? any _RealmScalar, let y = b as? any _RealmScalar { return x._rlmValue == y._rlmValue }
        return false
    }

    /// Whether the set holds `element`.
    public func contains(_ element: Element) -> Bool {
        switch storage {
        case .unmanaged(let items): return items.contains { Self.same($0, element) }
        case .managed(let set, let realm):
            realm.verifyThread()
            do {
                guard let value = try Self.stored(element, in: realm) else { return false }
                return try realm.reading { try set.contains(value) }
            } catch {
                preconditionFailure("MutableSet<\(Element.self)>.contains: \(error)")
            }
        }
    }

    private func change(_ body: (DynamicSet, Realm) throws -> Void, unmanaged: (inout [Element]) -> Void) {
        switch storage {
        case .unmanaged(var items):
            storage = .unmanaged([])
            unmanaged(&items)
            storage = .unmanaged(items)
        case .managed(let set, let realm):
            realm.verifyThread()
            realm.refuseFrozenWrite()
            precondition(
                realm.isInWriteTransaction, "Cannot modify a managed MutableSet outside of a write transaction.")
            do { try body(set, realm) } catch { realm.record(error) }
        }
    }

    /// Adds `element` unless the set holds an equal one (an unmanaged object is added to the Realm).
    public func insert(_ element: Element) {
        change(
            { set, realm in try set.insertInput(element._rlmAddedInput(for: realm)) },
            unmanaged: { items in if !items.contains(where: { Self.same($0, element) }) { items.append(element) } })
    }

    /// Adds every element of `elements`.
    public func insert<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        for e in Array(elements) { insert(e) }
    }

    /// Removes `element` if the set holds it.
    public func remove(_ element: Element) {
        change(
            { set, realm in
                if let value = try Self.stored(element, in: realm) { try set.remove(value) }
            }, unmanaged: { items in items.removeAll { Self.same($0, element) } })
    }

    /// Removes every element (objects stay in the Realm).
    public func removeAll() {
        change({ set, _ in try set.removeAll() }, unmanaged: { $0.removeAll() })
    }

    /// Adds every element of `other` (a union).
    public func formUnion<S: Sequence>(_ other: S) where S.Element == Element {
        insert(objectsIn: other)
    }

    /// Keeps only the elements `other` holds too (an intersection).
    public func formIntersection<S: Sequence>(_ other: S) where S.Element == Element {
        let others = Array(other)
        for e in elements where !others.contains(where: { Self.same($0, e) || Self.sameStored($0, e, realm) }) {
            remove(e)
        }
    }

    /// Removes every element `other` holds (a subtraction).
    public func subtract<S: Sequence>(_ other: S) where S.Element == Element {
        for e in Array(other) { remove(e) }
    }

    /// Whether every element of this set is in `other`.
    public func isSubset(of other: MutableSet<Element>) -> Bool { elements.allSatisfy { other.contains($0) } }

    /// Whether this set and `other` share an element.
    public func intersects(_ other: MutableSet<Element>) -> Bool { elements.contains { other.contains($0) } }

    /// Two elements naming the same stored value of `realm` (a managed set's elements are read
    /// back as new instances: objects compare by key, scalars by value).
    private static func sameStored(_ a: Element, _ b: Element, _ realm: Realm?) -> Bool {
        guard let realm, let x = try? stored(a, in: realm), let y = try? stored(b, in: realm) else { return false }
        return x == y
    }

    /// The elements, for debugging.
    public var description: String {
        "MutableSet<\(Element.self)>(\(elements.map { String(describing: $0) }.joined(separator: ", ")))"
    }

    /// Observes the set: `.initial`, then the positions (in the set's order) of elements removed
    /// and added after each version that changed it, on this thread's RunLoop.
    public func observe(_ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        guard case .managed(let set, let realm) = storage else {
            preconditionFailure("Only a managed MutableSet can be observed (add its object to a Realm first).")
        }
        realm.verifyThread()
        return set.listView().observe { [self] change in
            switch change {
            case .initial: block(.initial(self))
            case .update(_, let d, let i, let m): block(.update(self, deletions: d, insertions: i, modifications: m))
            case .error(let error): block(.error(error))
            }
        }
    }
}

extension MutableSet: _Persistable {
    public static func _rlmProperty(name: String) -> Property {
        Property(
            name: name, type: Element._rlmPropertyType, isOptional: Element._rlmIsOptional, isSet: true,
            objectClassName: Element._rlmObjectType?.className())
    }
    public static var _rlmLinkedType: Object.Type? { Element._rlmObjectType }
    public static func _rlmDefault() -> MutableSet { MutableSet() }
    public static func _rlmGet(_ object: Object, _ name: String) -> MutableSet {
        guard let accessor = object.accessor, let realm = object.realm else { preconditionFailure("unmanaged object") }
        do {
            return MutableSet(managed: try realm.reading { try accessor.set(forKey: name) }, realm: realm)
        } catch {
            preconditionFailure("\(type(of: object).className()).\(name): \(error)")
        }
    }
    public static func _rlmSet(_ value: MutableSet, _ object: Object, _ name: String) {
        object._rlmWrite(name, .array(value.elements.map { $0._rlmAddedInput(for: object.realm) }))
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput? {
        .array(elements.map { $0._rlmInput(for: realm) })
    }
    /// A new unmanaged set: a set given is copied, never shared.
    public static func _rlmConvert(_ any: Any) -> MutableSet? {
        let set = MutableSet()
        if let s = any as? MutableSet {
            for e in s.elements { set.insert(e) }
            return set
        }
        guard let array = any as? [Any] else { return nil }
        for a in array {
            guard let e = Element._rlmConvert(a) else { return nil }
            set.insert(e)
        }
        return set
    }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput? {
        if let s = any as? MutableSet { return s._rlmInput(for: realm) }
        guard let array = any as? [Any] else {
            throw RealmError.invalidInput("a \(type(of: any)) given for a set of \(Element.self)")
        }
        return .array(try array.map { try Element._rlmInput(fromAny: $0, realm: realm) })
    }
    public func _rlmLinkedObjects() -> [Object] {
        guard case .unmanaged(let items) = storage else { return [] }
        return items.compactMap { $0 as? Object }
    }
}
