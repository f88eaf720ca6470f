/// A list property of a managed object, live: reads show the Realm's current state; changes
/// need a write transaction. Elements are `Value`s (`.link(key)` for lists of objects; use
/// `object(at:)` to get the object).
public final class DynamicList {
    let owner: DynamicObject
    let column: Int
    /// The list property.
    public let property: Property

    init(owner: DynamicObject, column: Int, property: Property) {
        self.owner = owner
        self.column = column
        self.property = property
    }

    /// Where a list is, as plain values (its object's class index and key, its column and
    /// property), so that another thread can find it in its own instance of the file.
    package struct Address {
        let classIndex: Int
        let key: ObjectKey
        let column: Int
        let property: Property
    }

    /// Where this list is (read on the list's thread).
    package var address: Address {
        Address(classIndex: owner.classIndex, key: owner.key, column: column, property: property)
    }

    /// The list at `address` in `realm`, another instance of the same file, without looking its
    /// object up: when the object is not in that instance's version, the list is invalidated
    /// (`isInvalidated`; reads throw), as a list whose object was deleted is.
    package convenience init(_ address: Address, in realm: Realm) {
        self.init(
            owner: DynamicObject(realm: realm, classIndex: address.classIndex, key: address.key),
            column: address.column, property: address.property)
    }

    private var realm: Realm { owner.realm }

    /// The class of the list's object, for messages (`Dog.tags[3]: …`).
    package var ownerClassName: String { owner.className }
    /// The object holding the list (a collection nested in one of its Mixed elements is
    /// reached through it).
    package var ownerObject: DynamicObject { owner }

    /// Whether the list's object was deleted (or its Realm closed): the list is gone for good,
    /// and reading it throws.
    public var isInvalidated: Bool { owner.isInvalidated }

    /// The current elements.
    public func elements() throws -> [Value] {
        try realm.checkThread()
        guard
            case .list(let items) = try realm.readable.value(
                classIndex: owner.classIndex, key: owner.key, column: column)
        else {
            return []
        }
        return items
    }

    /// Number of elements; 0 with `error` set when they cannot be read (the owner was deleted,
    /// or its leaf is damaged). `elements()` throws instead.
    public var count: Int {
        guard (try? realm.checkThread()) != nil else { return 0 }
        do {
            let n = try elements().count
            error = nil
            return n
        } catch {
            self.error = error as? RealmError ?? .invalidInput("\(error)")
            return 0
        }
    }

    /// Why the last `count` could not read the elements (nil after one that could), so that a
    /// failure is never taken for an empty list.
    public internal(set) var error: RealmError?

    /// The element at `index`.
    public func value(at index: Int) throws -> Value {
        let items = try elements()
        guard items.indices.contains(index) else { throw RealmError.indexOutOfRange(index: index, count: items.count) }
        return items[index]
    }

    /// The object at `index` of a list of objects.
    public func object(at index: Int) throws -> DynamicObject {
        guard case .link(let k) = try value(at: index), let target = property.objectClassName else {
            throw RealmError.invalidOperation("\(property.name) is not a list of objects")
        }
        return DynamicObject(realm: realm, classIndex: try realm.classIndex(target), key: k)
    }

    /// The objects of a list of objects, as live results in list order.
    public func objects() throws -> Results {
        guard let target = property.objectClassName, property.type == .object else {
            throw RealmError.invalidOperation("\(property.name) is not a list of objects")
        }
        return Results(
            realm: realm, classIndex: try realm.classIndex(target),
            source: .list(classIndex: owner.classIndex, key: owner.key, column: column))
    }

    private func update(_ body: (inout [ObjectInput]) throws -> Void) throws {
        var items = try elements().map { ObjectInput.value($0) }
        try body(&items)
        try owner.setValue(.array(items), forKey: property.name)
    }

    private func check(_ index: Int, _ count: Int, allowEnd: Bool = false) throws {
        guard index >= 0 && (index < count || (allowEnd && index == count)) else {
            throw RealmError.indexOutOfRange(index: index, count: count)
        }
    }

    /// A set keeps its own order: placing an element at a position would be silently undone.
    private func refusePositions(_ what: String) throws {
        if property.isSet {
            throw RealmError.invalidOperation(
                "\(ownerClassName).\(property.name) is a set, which keeps its elements in Realm's order: "
                    + "it cannot \(what); insert or remove elements instead")
        }
    }

    /// Appends an element (a value, `.link(key)`, a nested object or a primary key); for a set:
    /// adds it unless an equal element is there.
    public func append(_ element: ObjectInput) throws {
        try update { $0.append(element) }
    }

    /// Inserts an element at `index` (not for a set).
    public func insert(_ element: ObjectInput, at index: Int) throws {
        try refusePositions("insert at a position")
        try update { items in
            try check(index, items.count, allowEnd: true)
            items.insert(element, at: index)
        }
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) throws {
        try update { items in
            try check(index, items.count)
            items.remove(at: index)
        }
    }

    /// Moves the element at `from` to `to`.
    public func move(from: Int, to: Int) throws {
        try refusePositions("move an element")
        try update { items in
            try check(from, items.count)
            try check(to, items.count)
            let e = items.remove(at: from)
            items.insert(e, at: to)
        }
    }

    /// Replaces the element at `index`.
    public func replace(index: Int, with element: ObjectInput) throws {
        try refusePositions("replace an element at a position")
        try update { items in
            try check(index, items.count)
            items[index] = element
        }
    }

    /// Removes every element.
    public func removeAll() throws {
        try update { $0.removeAll() }
    }
}
