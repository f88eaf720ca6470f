import Foundation

/// A list property: `@Persisted var dogs: List<Dog>`, or of scalars, `List<String>`.
///
/// An unmanaged list is an array. A managed list is live (it shows the Realm's current
/// version) and changes only inside a write transaction; a list may hold one object several
/// times. A list of objects is a `RealmCollection`: it can be filtered, sorted and observed.
public final class List<Element: _RealmElement>: RandomAccessCollection, MutableCollection, CustomStringConvertible {
    enum Storage {
        case unmanaged([Element])
        case managed(DynamicList, Realm)
        /// A list nested in a Mixed property (`AnyRealmValue.list` read from a managed object;
        /// only for `List<AnyRealmValue>`): it has no column of its own, see `MixedSlot`.
        case inMixed(MixedSlot, Realm)
    }
    var storage: Storage

    /// An empty, unmanaged list.
    public init() { storage = .unmanaged([]) }

    init(managed: DynamicList, realm: Realm) { storage = .managed(managed, realm) }

    init(inMixed slot: MixedSlot, realm: Realm) { storage = .inMixed(slot, realm) }

    /// The Realm managing the list, or nil.
    public var realm: Realm? {
        switch storage {
        case .unmanaged: return nil
        case .managed(_, let realm), .inMixed(_, let realm): return realm
        }
    }

    /// The first position (0).
    public var startIndex: Int { 0 }
    /// The position after the last element (`count`).
    public var endIndex: Int { count }

    /// Number of elements. A managed list used from another thread than its Realm's stops
    /// with a message (its `count` there is not 0), as in RealmSwift.
    public var count: Int {
        switch storage {
        case .unmanaged(let items): return items.count
        case .managed(let list, let realm):
            realm.verifyThread()
            return realm.reading { list.count }
        case .inMixed(let slot, let realm):
            realm.verifyThread()
            return realm.reading {
                do { return try slot.list().count } catch {
                    // Gone (its object deleted or the Mixed replaced): 0, with `isInvalidated` true,
                    // as a list whose object was deleted.
                    guard slot.isInvalidated(list: true) else {
                        preconditionFailure("\(slot.description).count: \(error)")
                    }
                    return 0
                }
            }
        }
    }

    /// The element at `position`.
    public subscript(position: Int) -> Element {
        get {
            switch storage {
            case .unmanaged(let items): return items[position]
            case .managed(let list, let realm):
                realm.verifyThread()
                do {
                    let v = try realm.reading { try list.value(at: position) }
                    if let nested = Self.nestedCollection(v, list, realm, at: position) { return nested }
                    if let e = Element._rlmRead(v.namingLinkClass(for: Element.self, list.property), realm: realm) {
                        return e
                    }
                    // A link that cannot be read, or a value the type cannot represent.
                    throw unreadableElement(
                        v, as: Element.self, at: "\(list.ownerClassName).\(list.property.name)[\(position)]", in: realm)
                } catch let error as RealmError where !error.isMisuse {
                    // A damaged file: the error is recorded in `error`, next to the empty value.
                    list.recordReadError(error)
                    guard let empty = Element._rlmEmpty() else {
                        preconditionFailure("List<\(Element.self)>[\(position)]: \(error)")
                    }
                    return empty
                } catch {
                    preconditionFailure("List<\(Element.self)>[\(position)]: \(error)")
                }
            case .inMixed(let slot, let realm):
                realm.verifyThread()
                do { return try Self.nestedElement(slot, realm, at: position) } catch {
                    preconditionFailure("\(slot.description)[\(position)]: \(error)")
                }
            }
        }
        set { replace(index: position, object: newValue) }
    }

    /// Every element (read once).
    var elements: [Element] { Array(self) }

    /// The element at `position` of a list nested in a Mixed: a list or dictionary in it is
    /// itself managed, one step deeper.
    static func nestedElement(_ slot: MixedSlot, _ realm: Realm, at position: Int) throws -> Element {
        let items = try realm.reading { try slot.list() }
        guard items.indices.contains(position) else {
            throw RealmError.indexOutOfRange(index: position, count: items.count)
        }
        let value = AnyRealmValue._rlmValue(items[position], realm: realm, at: slot.child(.index(position), in: items))
        guard let element = value as? Element else {
            throw RealmError.internalError(
                "a list nested in a Mixed is a List<AnyRealmValue>, not a List<\(Element.self)>")
        }
        return element
    }

    /// A list or dictionary stored in element `position` of a managed `List<AnyRealmValue>`:
    /// managed at its place, as Realm Swift hands it out (nil for any other element). The type
    /// is asked first: a list of another type pays nothing.
    static func nestedCollection(_ value: Value, _ list: DynamicList, _ realm: Realm, at position: Int) -> Element? {
        guard Element.self == AnyRealmValue.self else { return nil }
        switch value {
        case .list, .map: break
        default: return nil
        }
        // The whole list: the nested collection keeps to its element from there (`MixedPlace`).
        let items = realm.reading { try? list.elements() }
        return AnyRealmValue._rlmNested(
            value, realm: realm, owner: list.ownerObject, property: list.property.name,
            step: .index(position), in: items) as? Element
    }

    /// The stored value of an element put into a list nested in a Mixed.
    private func nestedValue(_ element: Element) throws -> Value {
        try MixedSlot.value(of: element._rlmAddedInput(for: realm))
    }

    private static func check(_ index: Int, _ count: Int, allowEnd: Bool = false) throws {
        guard index >= 0 && (index < count || (allowEnd && index == count)) else {
            throw RealmError.indexOutOfRange(index: index, count: count)
        }
    }

    private func change(
        _ body: (DynamicList) throws -> Void, nested: (MixedSlot) throws -> Void,
        unmanaged: (inout [Element]) -> Void
    ) {
        switch storage {
        case .unmanaged(var items):
            storage = .unmanaged([])
            unmanaged(&items)
            storage = .unmanaged(items)
        case .managed(let list, let realm):
            realm.verifyThread()
            realm.refuseFrozenWrite()
            precondition(realm.isInWriteTransaction, "Cannot modify a managed List outside of a write transaction.")
            do { try body(list) } catch { realm.record(error) }
        case .inMixed(let slot, let realm):
            realm.verifyThread()
            realm.refuseFrozenWrite()
            precondition(realm.isInWriteTransaction, "Cannot modify a managed List outside of a write transaction.")
            do { try nested(slot) } catch { realm.record(error) }
        }
    }

    /// `change` storing `element` at the position `index` gives once stored: an unmanaged
    /// embedded object becomes the managed copy its values made there, as in Realm Swift.
    private func change(
        storing element: Element, at index: @escaping (DynamicList) -> Int, _ body: (DynamicList) throws -> Void,
        nested: (MixedSlot) throws -> Void, unmanaged: (inout [Element]) -> Void
    ) {
        // The class is asked first: a list of values pays no dynamic cast per element.
        guard Element._rlmObjectType is EmbeddedObject.Type, case .managed(_, let realm) = storage,
            let embedded = element as? Object, embedded.isUnmanagedEmbedded
        else {
            change(body, nested: nested, unmanaged: unmanaged)
            return
        }
        change(
            { list in
                try body(list)
                if case .link(let key) = try list.value(at: index(list)) { realm.adoptEmbedded(embedded, key: key) }
            }, nested: nested, unmanaged: unmanaged)
    }

    /// Appends an element (an unmanaged object is added to the Realm; an embedded one is
    /// copied into the list).
    public func append(_ element: Element) {
        change(
            storing: element, at: { $0.count - 1 }, { try $0.append(element._rlmAddedInput(for: realm)) },
            nested: { slot in
                let value = try nestedValue(element)
                try slot.editList { $0.append(value) }
            }, unmanaged: { $0.append(element) })
    }

    /// Appends every element of a sequence (a `Results`, another list, an array).
    public func append<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        for e in Array(elements) { append(e) }
    }

    /// Inserts an element at `index`.
    public func insert(_ element: Element, at index: Int) {
        change(
            storing: element, at: { _ in index }, { try $0.insert(element._rlmAddedInput(for: realm), at: index) },
            nested: { slot in
                let value = try nestedValue(element)
                try slot.editList { items in
                    try Self.check(index, items.count, allowEnd: true)
                    items.insert(value, at: index)
                }
            }, unmanaged: { $0.insert(element, at: index) })
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) {
        change(
            { try $0.remove(at: index) },
            nested: { slot in
                try slot.editList { items in
                    try Self.check(index, items.count)
                    items.remove(at: index)
                }
            }, unmanaged: { $0.remove(at: index) })
    }

    /// Removes every element (the objects stay in the Realm).
    public func removeAll() {
        change({ try $0.removeAll() }, nested: { try $0.editList { $0.removeAll() } }, unmanaged: { $0.removeAll() })
    }

    /// Moves the element at `from` to `to`.
    public func move(from: Int, to: Int) {
        change(
            { try $0.move(from: from, to: to) },
            nested: { slot in
                try slot.editList { items in
                    try Self.check(from, items.count)
                    try Self.check(to, items.count)
                    items.insert(items.remove(at: from), at: to)
                }
            },
            unmanaged: { items in
                let e = items.remove(at: from)
                items.insert(e, at: to)
            })
    }

    /// Replaces the element at `index`.
    public func replace(index: Int, object: Element) {
        change(
            storing: object, at: { _ in index },
            { try $0.replace(index: index, with: object._rlmAddedInput(for: realm)) },
            nested: { slot in
                let value = try nestedValue(object)
                try slot.editList { items in
                    try Self.check(index, items.count)
                    items[index] = value
                }
            }, unmanaged: { $0[index] = object })
    }

    /// Exchanges two elements.
    public func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        if case .managed = storage, Element.self is EmbeddedObject.Type {
            // Replacing would put an embedded object in its list twice (two parents, refused):
            // moved instead, each keeping its identity.
            let (low, high) = (Swift.min(i, j), Swift.max(i, j))
            move(from: high, to: low)
            if high - low > 1 { move(from: low + 1, to: high) }
            return
        }
        let (a, b) = (self[i], self[j])
        replace(index: i, object: b)
        replace(index: j, object: a)
    }

    /// The elements, for debugging.
    public var description: String {
        "List<\(Element.self)>(\(elements.map { String(describing: $0) }.joined(separator: ", ")))"
    }
}

extension List: _Persistable {
    public static func _rlmProperty(name: String) -> Property {
        Property(
            name: name, type: Element._rlmPropertyType, isOptional: Element._rlmIsOptional, isList: true,
            objectClassName: Element._rlmObjectType?.className())
    }
    public static var _rlmLinkedType: Object.Type? { Element._rlmObjectType }
    public static func _rlmDefault() -> List { List() }
    public static func _rlmGet(_ object: Object, _ name: String) -> List {
        guard let accessor = object.accessor, let realm = object.realm else { preconditionFailure("unmanaged object") }
        do {
            return List(managed: try realm.reading { try accessor.list(forKey: name) }, realm: realm)
        } catch {
            preconditionFailure("\(type(of: object).className()).\(name): \(error)")
        }
    }
    public static func _rlmSet(_ value: List, _ object: Object, _ name: String) {
        object._rlmWrite(name, .array(value.elements.map { $0._rlmAddedInput(for: object.realm) }))
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput? {
        .array(elements.map { $0._rlmInput(for: realm) })
    }
    /// A new unmanaged list: a list given (`Object(value: other)`) is copied, never shared, so
    /// changing the new object's list changes neither `other` nor what a Realm stores.
    public static func _rlmConvert(_ any: Any) -> List? {
        let list = List()
        if let l = any as? List {
            list.storage = .unmanaged(l.elements)
            return list
        }
        guard let array = any as? [Any] else { return nil }
        var items: [Element] = []
        for a in array {
            guard let e = Element._rlmConvert(a) else { return nil }
            items.append(e)
        }
        list.storage = .unmanaged(items)
        return list
    }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput? {
        if let l = any as? List { return l._rlmInput(for: realm) }
        guard let array = any as? [Any] else {
            throw RealmError.invalidInput("a \(type(of: any)) given for a list of \(Element.self)")
        }
        return .array(try array.map { try Element._rlmInput(fromAny: $0, realm: realm) })
    }
    public func _rlmLinkedObjects() -> [Object] {
        guard case .unmanaged(let items) = storage else { return [] }
        return items.compactMap { $0 as? Object }
    }
}

extension List: RealmCollection where Element: Object {
    public func _rlmRecordReadError(_ error: RealmError?) {
        guard case .managed(let list, let realm) = storage else { return }
        realm.reading { list.recordReadError(error) }
    }

    public var _rlmResults: Results<Element> {
        guard case .managed(let list, let realm) = storage else {
            preconditionFailure("This method may only be called on a managed List (add its object to a Realm first).")
        }
        do {
            return Results(try realm.reading { try list.objects() }, realm: realm)
        } catch {
            preconditionFailure("List<\(Element.self)>: \(error)")
        }
    }
}

/// The objects linking to an object through a property: `@Persisted(originProperty: "dogs")
/// var owners: LinkingObjects<Person>`. Live and read-only; empty on an unmanaged object.
public struct LinkingObjects<Element: Object>: RealmCollection, _Persistable, _LinkingObjectsMarker {
    /// The link or list property of `Element` that points here.
    public let propertyName: String
    public var _rlmOriginProperty: String { propertyName }
    let results: Results<Element>?

    /// Declares the inverse of `Element`'s property `property`.
    public init(fromType: Element.Type, property: String) {
        propertyName = property
        results = nil
    }

    init(originProperty: String, results: Results<Element>? = nil) {
        propertyName = originProperty
        self.results = results
    }

    /// The first position (0).
    public var startIndex: Int { 0 }
    /// The position after the last object (`count`).
    public var endIndex: Int { count }
    /// Number of linking objects.
    public var count: Int { results?.count ?? 0 }
    /// The linking object at `position`.
    public subscript(position: Int) -> Element {
        guard let results else { preconditionFailure("index \(position) of the LinkingObjects of an unmanaged object") }
        return results[position]
    }

    public var _rlmResults: Results<Element> {
        guard let results else { preconditionFailure("LinkingObjects of an unmanaged object cannot be queried") }
        return results
    }

    public static func _rlmProperty(name: String) -> Property {
        Property(name: name, type: .linkingObjects, objectClassName: Element.className())
    }
    public static var _rlmLinkedType: Object.Type? { Element.self }
    public static func _rlmDefault() -> LinkingObjects { LinkingObjects(originProperty: "") }
    public static func _rlmGet(_ object: Object, _ name: String) -> LinkingObjects {
        guard let accessor = object.accessor, let realm = object.realm else { preconditionFailure("unmanaged object") }
        do {
            return LinkingObjects(
                originProperty: "",
                results: Results(
                    try realm.reading { try accessor.linkingObjects(forKey: name) },
                    realm: realm))
        } catch {
            preconditionFailure("\(type(of: object).className()).\(name): \(error)")
        }
    }
    public static func _rlmSet(_ value: LinkingObjects, _ object: Object, _ name: String) {
        preconditionFailure("\(type(of: object).className()).\(name) is a LinkingObjects property and cannot be set")
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput? { nil }
    public static func _rlmConvert(_ any: Any) -> LinkingObjects? { nil }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput? { nil }
}

extension List {
    /// Observes a list of values (`List<Int>`, `List<String?>`): `.initial`, then the positions
    /// of values removed and inserted after each version that changed it (a changed value is a
    /// removal and an insertion), on this thread's RunLoop. A list of objects is observed as a
    /// `RealmCollection` (`observe(on:_:)`, with modifications and key paths).
    public func observe<W: _RealmScalar>(_ block: @escaping (RealmCollectionChange<List<Element>>) -> Void)
        -> NotificationToken
    where Element == W? {
        observeValues(block)
    }

    func observeValues(_ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        guard case .managed(let list, let realm) = storage else {
            preconditionFailure("Only a managed List can be observed (add its object to a Realm first).")
        }
        realm.verifyThread()
        return realm.reading {
            list.observe { [self] change in
                switch change {
                case .initial: block(.initial(self))
                case .update(_, let d, let i, let m):
                    block(.update(self, deletions: d, insertions: i, modifications: m))
                case .error(let error): block(.error(error))
                }
            }
        }
    }
}

extension List where Element: _RealmScalar {
    /// Observes a list of values: see `observe(_:)` of a list of optionals.
    public func observe(_ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        observeValues(block)
    }
}

extension List where Element == AnyRealmValue {
    /// Observes a list of Mixed values: `.initial`, then after each version that changed it the
    /// positions removed, inserted and (for a list nested in a Mixed) those whose nested list or
    /// dictionary changed inside, on this thread's RunLoop. A list nested in a Mixed property is
    /// observed at its place in the property's value.
    public func observe(_ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        guard case .inMixed(let slot, let realm) = storage else { return observeValues(block) }
        realm.verifyThread()
        return realm.reading {
            slot.owner.observeCollection(inMixed: slot.property, at: slot.path) { [self] change in
                switch change {
                case .initial: block(.initial(self))
                case .listUpdate(_, let d, let i, let m):
                    block(.update(self, deletions: d, insertions: i, modifications: m))
                case .dictionaryUpdate: break  // the engine follows the kind it found first: a list here
                case .error(let error): block(.error(error))
                }
            }
        }
    }
}
