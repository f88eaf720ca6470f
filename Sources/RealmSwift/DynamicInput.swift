import Foundation

/// Loosely typed values (`dynamicCreate(_:value:)`, `dynamicObject["name"] = value`) as input for
/// a stored class, converted by its stored schema, as the typed API converts them by its model:
/// a dictionary of property name → value (unknown names ignored) or an array in property order
/// makes an object (a new one takes its model's defaults for what is not given, when the program
/// has a model of the class); a value of a link is an object of the target class (typed or dynamic, added
/// when unmanaged) or the values of a new one; a collection is an array, a `List`, a
/// `MutableSet` or (for a dictionary) `[String: Any]`. A value that does not fit throws
/// `RealmError.invalidInput`, naming the property.
enum DynamicInput {
    /// The input of a whole object of class `schema`.
    static func object(_ any: Any, _ schema: ObjectSchema, realm: Realm) throws -> ObjectInput {
        let properties = schema.persistedProperties
        if let dictionary = any as? [String: Any] {
            var values: [String: ObjectInput] = [:]
            for p in properties {
                guard let v = dictionary[p.name] else { continue }
                values[p.name] = try property(v, p, realm: realm)
            }
            return try withModelDefaults(values, schema, realm: realm)
        }
        if let array = any as? [Any] {
            guard array.count <= properties.count else {
                throw RealmError.invalidInput(
                    "\(array.count) values given for the \(properties.count) properties of \(schema.name)")
            }
            var values: [String: ObjectInput] = [:]
            for (v, p) in zip(array, properties) { values[p.name] = try property(v, p, realm: realm) }
            return try withModelDefaults(values, schema, realm: realm)
        }
        throw RealmError.invalidInput("a \(type(of: any)) cannot make a \(schema.name): give a dictionary or an array")
    }

    /// `given` for a new object of `schema`'s class, the keys it does not give taking the
    /// defaults of the program's model of the class (when it has one, and it is the stored
    /// class), as the typed `create` does. An existing object (by primary key) gets only the
    /// given values.
    private static func withModelDefaults(_ given: [String: ObjectInput], _ schema: ObjectSchema, realm: Realm) throws
        -> ObjectInput
    {
        guard let model = realm.objectType(named: schema.name), ClassInfo.of(model).objectSchema == schema else {
            return .dictionary(given)
        }
        return try model._rlmAddingDefaults(to: given, realm: realm)
    }

    /// The input of property `p` (a whole collection for a collection property).
    static func property(_ any: Any, _ p: Property, realm: Realm) throws -> ObjectInput {
        if isNull(any) {
            if p.isCollection { return .array([]) }
            return .value(.null)
        }
        if p.isMap {
            guard let entries = any as? [String: Any] ?? mapEntries(any) else {
                throw RealmError.invalidInput(
                    "a \(type(of: any)) given for the dictionary \(p.name): give a [String: Any]")
            }
            var given: [String: ObjectInput] = [:]
            for (key, value) in entries { given[key] = try element(value, p, realm: realm) }
            return .dictionary(given)
        }
        if p.isCollection {
            guard !(any is String), !(any is [String: Any]), let sequence = any as? any Sequence else {
                throw RealmError.invalidInput("a \(type(of: any)) given for the collection \(p.name): give an array")
            }
            return .array(try elements(of: sequence).map { try element($0, p, realm: realm) })
        }
        return try element(any, p, realm: realm)
    }

    /// The input of one value of property `p` (an element, for a collection).
    static func element(_ any: Any, _ p: Property, realm: Realm) throws -> ObjectInput {
        if isNull(any) { return .value(.null) }
        switch p.type {
        case .object:
            guard let target = p.objectClassName, let schema = realm.schema[target] else {
                throw RealmError.invalidInput("\(p.name) links to a class the Realm does not have")
            }
            guard let object = any as? Object else { return try self.object(any, schema, realm: realm) }
            return try link(object, schema, p, realm: realm)
        case .mixed:
            if let object = any as? DynamicObject {
                guard let stored = object.accessor, object.realm?.dynamicRealm === realm.dynamicRealm else {
                    throw RealmError.invalidInput(
                        "a DynamicObject of another Realm given for the AnyRealmValue \(p.name)")
                }
                return .value(.typedLink(TypedLink(className: stored.className, key: stored.key)))
            }
            return try AnyRealmValue._rlmInput(fromAny: any, realm: realm) as ObjectInput
        case .linkingObjects:
            throw RealmError.invalidInput("\(p.name) is a LinkingObjects property and cannot be set")
        default:
            guard let scalar = DynamicCollections.scalarType(p.type) else {
                throw RealmError.invalidInput("\(p.name) cannot store a \(type(of: any))")
            }
            do { return try scalarInput(scalar, any, realm) } catch RealmError.invalidInput(let why) {
                throw RealmError.invalidInput("\(p.name): \(why)")
            }
        }
    }

    /// An object given for a link to `schema`'s class: a managed one of this Realm by key, an
    /// unmanaged typed one added (or, embedded, copied); one of another class is refused.
    private static func link(_ object: Object, _ schema: ObjectSchema, _ p: Property, realm: Realm) throws
        -> ObjectInput
    {
        let className = object is DynamicObject ? object.objectSchema.name : type(of: object).className()
        guard className == schema.name else {
            throw RealmError.invalidInput("a \(className) given for \(p.name), a link to \(schema.name)")
        }
        if let stored = object.accessor, object.realm?.dynamicRealm === realm.dynamicRealm, !schema.isEmbedded {
            return .value(.link(stored.key))
        }
        guard !(object is DynamicObject) else {
            throw RealmError.invalidInput(
                "a DynamicObject given for \(p.name), a link to \(schema.name): "
                    + (schema.isEmbedded
                        ? "give the embedded object's values as a dictionary" : "it is of another Realm"))
        }
        return schema.isEmbedded ? object._rlmInput(for: realm) : object._rlmAddedInput(for: realm)
    }

    private static func scalarInput<T: _RealmScalar>(_: T.Type, _ any: Any, _ realm: Realm) throws -> ObjectInput {
        try T._rlmInput(fromAny: any, realm: realm) as ObjectInput
    }

    /// The elements of any sequence (an array, a `List`, a `MutableSet`, results).
    private static func elements<S: Sequence>(of sequence: S) -> [Any] { sequence.map { $0 as Any } }

    /// The entries of a `Map` given whole (its keys are strings).
    private static func mapEntries(_ any: Any) -> [String: Any]? {
        guard let map = any as? any _DynamicMapEntries else { return nil }
        return map._rlmEntries
    }
}

/// A `Map` read as `[String: Any]`, for giving one map as the value of another.
protocol _DynamicMapEntries {
    /// Every entry, by key.
    var _rlmEntries: [String: Any] { get }
}

extension Map: _DynamicMapEntries {
    var _rlmEntries: [String: Any] {
        var entries: [String: Any] = [:]
        for (key, value) in self { entries[key._rlmKey] = value as Any }
        return entries
    }
}
