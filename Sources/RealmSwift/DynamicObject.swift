import Foundation

/// An object of any stored class, read and written by property name, as Realm Swift's:
/// `realm.dynamicObjects("Dog")`, `dog["name"]`, `dog.name` (dynamic member lookup).
///
/// Always managed, and live like a typed object: it shows its Realm's current version, changes
/// only inside a write transaction (changing it outside one stops with a message), and a change
/// made through it is seen by every other object of the same stored object, typed or dynamic.
/// Its class is the stored one (`objectSchema`), names are the stored names. Values come back as
/// RealmSwift's types: `String`, `Int`, `Double`, `Decimal128`, `ObjectId`, `UUID`, `Date`,
/// `Data`, `AnyRealmValue`, a `DynamicObject` for a link, a `List<T>`, `MutableSet<T>` or
/// `Map<String, T>` of the element type (of `DynamicObject` for links), a
/// `LinkingObjects<DynamicObject>` for linking objects; nil for a nil value.
///
/// A name the class does not have stops with a message (as a typed object's key-value coding
/// does); a value that does not fit its property makes the enclosing `write` throw.
@dynamicMemberLookup
public final class DynamicObject: Object {
    /// The stored value of property `key`, as its RealmSwift type (see the class).
    public override subscript(key: String) -> Any? {
        get { dynamicValue(forKey: key) }
        set { setDynamicValue(newValue, forKey: key) }
    }

    /// `object.name` for `object["name"]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { dynamicValue(forKey: member) }
        set { setDynamicValue(newValue, forKey: member) }
    }

    /// `self[key]`.
    public override func value(forKey key: String) -> Any? { dynamicValue(forKey: key) }

    /// `self[key] = value`.
    public override func setValue(_ value: Any?, forKey key: String) { setDynamicValue(value, forKey: key) }

    /// The stored class's schema (an unmanaged `DynamicObject`, which is of no class, has none).
    public override var objectSchema: ObjectSchema {
        guard let stored = storedObject() else { return ObjectSchema(name: Self.className(), properties: []) }
        return stored.schema
    }

    /// The class and its values, for debugging (a link shows its class only: cycles end).
    public override var description: String {
        guard let stored = storedObject() else { return "DynamicObject <unmanaged>" }
        let schema = stored.schema
        if stored.object.isInvalidated { return "\(schema.name) <invalidated>" }
        let body = schema.persistedProperties.map { p -> String in
            let shown: String
            switch p.type {
            case .object where !p.isCollection:
                shown = dynamicValue(forKey: p.name) == nil ? "nil" : "<\(p.objectClassName ?? "?")>"
            case .object: shown = "<\(p.objectClassName ?? "?") collection>"
            default: shown = dynamicValue(forKey: p.name).map { String(describing: $0) } ?? "nil"
            }
            return "\(p.name) = \(shown)"
        }
        return "\(schema.name) { \(body.joined(separator: "; ")) }"
    }

    /// Never in a schema: the class of no stored object.
    public override class func _realmIgnoreClass() -> Bool { true }

    /// The engine's object and its class, or nil when unmanaged.
    private func storedObject() -> (object: RealmEngine.DynamicObject, schema: ObjectSchema)? {
        guard let object = accessor, let realm else { return nil }
        return realm.reading { (object, object.objectSchema) }
    }

    /// The property `key` of the stored class; a name it does not have stops with a message.
    private func storedProperty(_ key: String) -> (object: RealmEngine.DynamicObject, property: Property, realm: Realm)
    {
        guard let stored = storedObject(), let realm else {
            preconditionFailure(
                "An unmanaged DynamicObject has no properties (read '\(key)'); get one from realm.dynamicObjects(_:)")
        }
        realm.verifyThread()
        guard let property = stored.schema[key] else {
            preconditionFailure("\(stored.schema.name) has no property '\(key)'")
        }
        return (stored.object, property, realm)
    }

    private func dynamicValue(forKey key: String) -> Any? {
        let (object, property, realm) = storedProperty(key)
        do {
            if property.type == .linkingObjects {
                let results = try realm.reading { try object.linkingObjects(forKey: key) }
                return LinkingObjects<DynamicObject>(
                    originProperty: property.linkOriginPropertyName ?? "",
                    results: Results(results, realm: realm))
            }
            if property.isMap {
                return try DynamicCollections.map(try realm.reading { try object.map(forKey: key) }, property, realm)
            }
            if property.isSet {
                return try DynamicCollections.set(try realm.reading { try object.set(forKey: key) }, property, realm)
            }
            if property.isList {
                return try DynamicCollections.list(try realm.reading { try object.list(forKey: key) }, property, realm)
            }
        } catch {
            preconditionFailure("\(object.className).\(key): \(error)")
        }
        let value = _rlmRead(key)
        switch value {
        case .link(let key):
            guard let target = property.objectClassName else { return nil }
            return DynamicObject.linked(TypedLink(className: target, key: key), realm: realm)
        case .typedLink(let link):
            // A Mixed holding a link: the linked object as a dynamic one too.
            return DynamicObject.linked(link, realm: realm).map(AnyRealmValue.object) ?? AnyRealmValue.none
        case .list, .map:
            return AnyRealmValue._rlmGet(self, key)
        default:
            let scalar = DynamicCollections.swiftValue(value)
            return property.type == .mixed ? AnyRealmValue._rlmValue(value, realm: realm) : scalar
        }
    }

    private func setDynamicValue(_ value: Any?, forKey key: String) {
        let (_, property, realm) = storedProperty(key)
        realm.refuseFrozenWrite()
        precondition(
            realm.isInWriteTransaction,
            "Cannot modify managed objects outside of a write transaction (\(objectSchema.name).\(key)).")
        precondition(
            property.type != .linkingObjects,
            "\(objectSchema.name).\(key) is a LinkingObjects property and cannot be set")
        do {
            _rlmWrite(key, try DynamicInput.property(value ?? NSNull(), property, realm: realm))
        } catch {
            realm.record(error)
        }
    }

    /// The object a link names, as a dynamic object (nil when it is no longer there).
    static func linked(_ link: TypedLink, realm: Realm) -> DynamicObject? {
        guard let object = try? realm.reading({ try realm.dynamicRealm.object(ofType: link.className, key: link.key) })
        else { return nil }
        return DynamicObject._rlmMake(object, realm: realm)
    }
}

extension Object {
    /// The list of objects property `propertyName` holds, its elements as `DynamicObject`s
    /// (the property must be a list of objects).
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        let (list, realm) = dynamicCollection(propertyName, "a list of objects") { $0.isList && !$0.isSet && !$0.isMap }
        do { return List(managed: try realm.reading { try list.list(forKey: propertyName) }, realm: realm) } catch {
            preconditionFailure("dynamicList(\"\(propertyName)\"): \(error)")
        }
    }

    /// The set of objects property `propertyName` holds, its elements as `DynamicObject`s.
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        let (object, realm) = dynamicCollection(propertyName, "a set of objects") { $0.isSet }
        do {
            return MutableSet(managed: try realm.reading { try object.set(forKey: propertyName) }, realm: realm)
        } catch {
            preconditionFailure("dynamicMutableSet(\"\(propertyName)\"): \(error)")
        }
    }

    /// The dictionary of objects property `propertyName` holds, its values as `DynamicObject`s.
    public func dynamicMap(_ propertyName: String) -> Map<String, DynamicObject?> {
        let (object, realm) = dynamicCollection(propertyName, "a dictionary of objects") { $0.isMap }
        do { return Map(managed: try realm.reading { try object.map(forKey: propertyName) }, realm: realm) } catch {
            preconditionFailure("dynamicMap(\"\(propertyName)\"): \(error)")
        }
    }

    /// The managed object and its Realm, once `name` is checked to be a collection of objects
    /// (`isKind`) of the stored class; anything else stops with a message.
    private func dynamicCollection(
        _ name: String, _ kind: String,
        _ isKind: (Property) -> Bool
    ) -> (RealmEngine.DynamicObject, Realm) {
        guard let object = accessor, let realm else {
            preconditionFailure("\(kind) of an unmanaged object: add it to a Realm first")
        }
        realm.verifyThread()
        let schema = realm.reading { object.objectSchema }
        guard let property = schema[name], property.type == .object, isKind(property) else {
            preconditionFailure("\(schema.name).\(name) is not \(kind)")
        }
        return (object, realm)
    }
}

extension RealmEngine.Value {
    /// A link read for an element of type `element`: a `DynamicObject` has no class of its own,
    /// so its link names the class of `property` (an element of any other type reads the link
    /// as its class's). The types are compared first: other collections pay nothing more.
    @inline(__always)
    func namingLinkClass(for element: Any.Type, _ property: Property) -> RealmEngine.Value {
        guard element == DynamicObject.self || element == DynamicObject?.self, case .link(let key) = self,
            let target = property.objectClassName
        else { return self }
        return .typedLink(TypedLink(className: target, key: key))
    }
}
