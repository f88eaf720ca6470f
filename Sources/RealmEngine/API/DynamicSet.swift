/// A set property (`MutableSet`) of a managed object, live: reads show the Realm's current state;
/// changes need a write transaction. Elements are unique by value and kept in Realm's order
/// (nil first, numbers by value, strings by bytes, links by key); `.link(key)` for a set of
/// objects.
public final class DynamicSet {
    let owner: DynamicObject
    let column: Int
    /// The set property.
    public let property: Property

    init(owner: DynamicObject, column: Int, property: Property) {
        self.owner = owner
        self.column = column
        self.property = property
    }

    private var realm: Realm { owner.realm }

    /// Whether the set's object was deleted (or its Realm closed).
    public var isInvalidated: Bool { owner.isInvalidated }

    /// The current elements, in Realm's order.
    public func elements() throws -> [Value] {
        try realm.checkThread()
        guard
            case .list(let items) = try realm.readable.value(
                classIndex: owner.classIndex, key: owner.key, column: column)
        else {
            throw RealmError.internalError("\(owner.className).\(property.name) does not hold a set")
        }
        return items
    }

    /// Number of elements.
    public func count() throws -> Int { try elements().count }

    /// The element `value` as the set stores it (coerced to the element type; a link named by
    /// `.link(key)`), or a `typeMismatch` naming the property.
    private func element(_ value: Value) throws -> Value {
        if property.type == .object {
            guard case .link = value else {
                throw RealmError.typeMismatch(
                    className: owner.className, property: property.name,
                    expected: property.objectClassName ?? "object", got: value.kindName)
            }
            return value
        }
        return try property.coerce(value, className: owner.className, element: true)
    }

    /// Whether the set holds an element equal to `value` (by value: `1` and `1.0` in a set of
    /// doubles are the same element). A value of another type is an error, not `false`.
    public func contains(_ value: Value) throws -> Bool {
        let e = try element(value)
        return SetElements.position(of: e, in: try elements()).found
    }

    /// Adds `value` unless an equal one is there; returns whether it was added.
    @discardableResult
    public func insert(_ value: Value) throws -> Bool {
        let e = try element(value)
        var items = try elements()
        let (at, found) = SetElements.position(of: e, in: items)
        guard !found else { return false }
        items.insert(e, at: at)
        try owner.setValue(.value(.list(items)), forKey: property.name)
        return true
    }

    /// Removes the element equal to `value`; returns whether there was one.
    @discardableResult
    public func remove(_ value: Value) throws -> Bool {
        let e = try element(value)
        var items = try elements()
        let (at, found) = SetElements.position(of: e, in: items)
        guard found else { return false }
        items.remove(at: at)
        try owner.setValue(.value(.list(items)), forKey: property.name)
        return true
    }

    /// Adds every value of `values` (a union).
    public func formUnion(_ values: [Value]) throws {
        let added = try values.map(element)
        try owner.setValue(.value(.list(try elements() + added)), forKey: property.name)
    }

    /// Keeps only the elements equal to one of `values` (an intersection).
    public func formIntersection(_ values: [Value]) throws {
        let other = SetElements.normalized(try values.map(element))
        let kept = try elements().filter { SetElements.position(of: $0, in: other).found }
        try owner.setValue(.value(.list(kept)), forKey: property.name)
    }

    /// Removes every element equal to one of `values` (a subtraction).
    public func subtract(_ values: [Value]) throws {
        let other = SetElements.normalized(try values.map(element))
        let kept = try elements().filter { !SetElements.position(of: $0, in: other).found }
        try owner.setValue(.value(.list(kept)), forKey: property.name)
    }

    /// Whether every element is equal to one of `values`.
    public func isSubset(of values: [Value]) throws -> Bool {
        let other = SetElements.normalized(try values.map(element))
        return try elements().allSatisfy { SetElements.position(of: $0, in: other).found }
    }

    /// Whether some element is equal to one of `values`.
    public func intersects(_ values: [Value]) throws -> Bool {
        let other = SetElements.normalized(try values.map(element))
        return try elements().contains { SetElements.position(of: $0, in: other).found }
    }

    /// Adds the element an input names (a value, `.link(key)`, a nested object to create, or a
    /// primary key) unless an equal one is there: the typed layer stores unmanaged objects so.
    package func insertInput(_ input: ObjectInput) throws {
        if case .value(let value) = input {
            try insert(value)
            return
        }
        var items = try elements().map { ObjectInput.value($0) }
        items.append(input)
        try owner.setValue(.array(items), forKey: property.name)
    }

    /// A live list view of the set (its elements in the set's order), for observing.
    package func listView() -> DynamicList { DynamicList(owner: owner, column: column, property: property) }

    /// Removes every element.
    public func removeAll() throws {
        try owner.setValue(.value(.list([])), forKey: property.name)
    }
}
