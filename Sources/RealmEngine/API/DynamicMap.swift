/// A dictionary property (`Map<String, T>`) of a managed object, live: reads show the Realm's
/// current state; changes need a write transaction. Values are `Value`s (`.link(key)` for a
/// dictionary of objects, `.null` for nil — also where a linked object was deleted).
public final class DynamicMap {
    let owner: DynamicObject
    let column: Int
    /// The dictionary property.
    public let property: Property

    init(owner: DynamicObject, column: Int, property: Property) {
        self.owner = owner
        self.column = column
        self.property = property
    }

    private var realm: Realm { owner.realm }

    /// The object holding the dictionary (a collection nested in one of its Mixed values is
    /// reached through it).
    package var ownerObject: DynamicObject { owner }

    /// Whether the dictionary's object was deleted (or its Realm closed).
    public var isInvalidated: Bool { owner.isInvalidated }

    /// The current entries.
    public func entries() throws -> [String: Value] {
        try realm.checkThread()
        guard
            case .map(let entries) = try realm.readable.value(
                classIndex: owner.classIndex, key: owner.key, column: column)
        else {
            throw RealmError.internalError("\(owner.className).\(property.name) does not hold a dictionary")
        }
        return entries
    }

    /// Number of entries.
    public func count() throws -> Int { try entries().count }

    /// The keys in Realm's order (by UTF-8 bytes).
    public func keys() throws -> [String] { Value.map(try entries()).sortedEntries.map(\.key) }

    /// The values in the order of `keys()`.
    public func values() throws -> [Value] { Value.map(try entries()).sortedEntries.map(\.value) }

    /// The value for `key`, or nil when there is no such key (as Realm answers a missing key:
    /// not an error). A key that is there with a nil value answers `.null`.
    public func value(forKey key: String) throws -> Value? {
        try entries()[key]
    }

    /// Sets the value of `key` (adding the key when it is new). A key that starts with `$` or
    /// contains `.` is refused, as Realm refuses it; a value of the wrong type is a
    /// `typeMismatch`. A link is given as `.link(key)` or `.null`.
    public func setValue(_ value: Value, forKey key: String) throws {
        try MapKey.check(key, className: owner.className, property: property.name)
        let stored: Value
        if property.type == .object {
            switch value {
            case .link, .null: stored = value
            default:
                throw RealmError.typeMismatch(
                    className: owner.className, property: "\(property.name)['\(key)']",
                    expected: property.objectClassName ?? "object", got: value.kindName)
            }
        } else {
            stored = try property.coerce(value, className: owner.className, element: true)
        }
        var entries = try entries()
        entries[key] = stored
        try owner.setValue(.value(.map(entries)), forKey: property.name)
    }

    /// Removes `key` and its value; returns the value there was (nil when there was no such key).
    @discardableResult
    public func removeValue(forKey key: String) throws -> Value? {
        var entries = try entries()
        guard let old = entries.removeValue(forKey: key) else { return nil }
        try owner.setValue(.value(.map(entries)), forKey: property.name)
        return old
    }

    /// Sets `key` from input: a value, `.link(key)`, a nested object to create, or a primary key
    /// (the typed layer stores unmanaged objects so). Keys are checked as `setValue` checks them.
    package func setInput(_ input: ObjectInput, forKey key: String) throws {
        try MapKey.check(key, className: owner.className, property: property.name)
        var given = try entries().mapValues { ObjectInput.value($0) }
        given[key] = input
        try owner.setValue(.dictionary(given), forKey: property.name)
    }

    /// Removes every entry.
    public func removeAll() throws {
        try owner.setValue(.value(.map([:])), forKey: property.name)
    }
}
