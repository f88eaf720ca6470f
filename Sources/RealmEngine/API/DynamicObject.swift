/// An object of a Realm, addressed by class and key, read and written through property names.
/// A managed object always shows the current state of its Realm (the instance's snapshot, or
/// its write transaction); after the object is deleted, `isInvalidated` is true and reads throw.
public final class DynamicObject: Hashable, CustomStringConvertible {
    /// Names the object and reads and writes it (with the position cache below it).
    /// `@exclusivity(unchecked)`: a read only updates the accessor's cache, which is confined
    /// to the Realm's thread like the object.
    @exclusivity(unchecked) package var accessor: ObjectAccessor

    /// The Realm the object lives in.
    public var realm: Realm { accessor.realm }
    var classIndex: Int { accessor.classIndex }
    /// The object's key in its class.
    public var key: ObjectKey { accessor.key }

    init(realm: Realm, classIndex: Int, key: ObjectKey) {
        accessor = ObjectAccessor(realm: realm, classIndex: classIndex, key: key)
    }

    /// An object found at `row` of leaf `leaf` of `anchor` (by iteration).
    init(classIndex: Int, key: ObjectKey, anchor: ReadAnchor, leaf: Int, row: Int) {
        accessor = ObjectAccessor(classIndex: classIndex, key: key, anchor: anchor, leaf: leaf, row: row)
    }

    /// The object an accessor names (the typed layer's objects hold accessors, not objects).
    package init(_ accessor: ObjectAccessor) {
        self.accessor = accessor
    }

    /// The object's class schema.
    public var objectSchema: ObjectSchema { realm.describedVersion.schema.objectSchemas[classIndex] }
    /// The object's class name.
    public var className: String { objectSchema.name }

    /// Whether the object was deleted (or its Realm closed).
    public var isInvalidated: Bool { accessor.isInvalidated }

    func column(_ name: String) throws -> Int { try accessor.column(name) }

    /// The stored value of a property (`.link(key)` for a to-one link, `.list` for a list).
    /// For a linking-objects property: the linking objects' keys as a list of links.
    ///
    /// The answer is a value of this version, not an accessor: `Value` is a plain enum (hashable,
    /// sendable, compared and stored whole), so a list or dictionary nested in a Mixed comes
    /// back as a copy, and changing that copy changes nothing stored. Change it by writing the
    /// property again (`setValue`), observe it with `observeCollection(inMixed:at:)`; or, as an
    /// application of RealmSwift does, read it through RealmSwift (`AnyRealmValue.listValue` /
    /// `dictionaryValue` of a typed property, or `object["name"]`), whose nested collections
    /// are managed and live and keep to their element (`MixedPlace`).
    public func value(forKey name: String) throws -> Value {
        if let v = try accessor.persistedValue(forKey: name) { return v }
        if let p = objectSchema[name], p.type == .linkingObjects {
            return .list(try linkingObjects(forKey: name).keys().map { .link($0) })
        }
        throw RealmError.noSuchProperty(
            className: className, property: name, available: objectSchema.properties.map(\.name))
    }

    /// The value of a property, or nil when the property does not exist or the object is invalid.
    public subscript(name: String) -> Value? {
        try? value(forKey: name)
    }

    /// Sets a property inside a write transaction. Links take `.link(key)`, a nested object
    /// (dictionary or array) or a primary key; lists take an array.
    public func setValue(_ value: ObjectInput, forKey name: String) throws {
        try realm.checkThread()
        try accessor.setValue(value, column: try column(name))
    }

    /// Sets a scalar property inside a write transaction.
    public func setValue(_ value: Value, forKey name: String) throws {
        try setValue(.value(value), forKey: name)
    }

    /// The object a to-one link points at, or nil.
    public func linkedObject(forKey name: String) throws -> DynamicObject? {
        let c = try column(name)
        let p = objectSchema.persistedProperties[c]
        guard p.type == .object, !p.isList, let target = p.objectClassName else {
            throw RealmError.typeMismatch(
                className: className, property: name, expected: "a to-one link", got: p.typeDescription)
        }
        guard case .link(let k) = try value(forKey: name) else { return nil }
        return DynamicObject(realm: realm, classIndex: try realm.classIndex(target), key: k)
    }

    /// A list property, live.
    public func list(forKey name: String) throws -> DynamicList {
        let c = try column(name)
        let p = objectSchema.persistedProperties[c]
        guard p.isList else {
            throw RealmError.typeMismatch(
                className: className, property: name, expected: "a list", got: p.typeDescription)
        }
        return DynamicList(owner: self, column: c, property: p)
    }

    /// A set property, live.
    public func set(forKey name: String) throws -> DynamicSet {
        let c = try column(name)
        let p = objectSchema.persistedProperties[c]
        guard p.isSet else {
            throw RealmError.typeMismatch(
                className: className, property: name, expected: "a set", got: p.typeDescription)
        }
        return DynamicSet(owner: self, column: c, property: p)
    }

    /// A dictionary property, live.
    public func map(forKey name: String) throws -> DynamicMap {
        let c = try column(name)
        let p = objectSchema.persistedProperties[c]
        guard p.isMap else {
            throw RealmError.typeMismatch(
                className: className, property: name, expected: "a dictionary", got: p.typeDescription)
        }
        return DynamicMap(owner: self, column: c, property: p)
    }

    /// The objects linking here through a linking-objects property, live.
    public func linkingObjects(forKey name: String) throws -> Results {
        guard let p = objectSchema[name], p.type == .linkingObjects, let origin = p.objectClassName,
            let originProperty = p.linkOriginPropertyName
        else {
            throw RealmError.noSuchProperty(
                className: className, property: name,
                available: objectSchema.computedProperties.map(\.name))
        }
        let originClass = try realm.classIndex(origin)
        guard
            let originColumn = try realm.readable.schema.objectSchemas[originClass].persistedProperties
                .firstIndex(where: { $0.name == originProperty })
        else {
            throw RealmError.noSuchProperty(className: origin, property: originProperty, available: [])
        }
        return Results(
            realm: realm, classIndex: originClass,
            source: .backlinks(classIndex: classIndex, key: key, originClass: originClass, originColumn: originColumn))
    }

    /// Every persisted property's value, in order.
    public func values() throws -> [Value] {
        try realm.checkThread()
        guard let row = try realm.readable.row(classIndex: classIndex, key: key) else {
            throw RealmError.invalidatedObject
        }
        return Array(row.prefix(objectSchema.persistedProperties.count))
    }

    public static func == (a: DynamicObject, b: DynamicObject) -> Bool {
        a.realm === b.realm && a.classIndex == b.classIndex && a.key == b.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(classIndex)
        hasher.combine(key)
    }

    public var description: String {
        guard let vals = try? values() else { return "\(className)<invalidated>" }
        let body = zip(objectSchema.persistedProperties, vals).map { "\($0.name) = \($1)" }.joined(separator: "; ")
        return "\(className) { \(body) }"
    }
}
