import Foundation

/// The typed collections and Swift values a `DynamicObject` hands out for its properties, chosen
/// from the stored property (Realm Swift's `List<T>`, `MutableSet<T>`, `Map<String, T>` of the
/// element type: `List<Int>`, `List<Int?>`, `List<AnyRealmValue>`, `List<DynamicObject>`).
enum DynamicCollections {
    /// The Swift type of a stored scalar type (nil for objects, Mixed and linking objects).
    static func scalarType(_ type: PropertyType) -> (any (_RealmScalar & _RealmMapValue).Type)? {
        switch type {
        case .int: Int.self
        case .int8: Int8.self
        case .int16: Int16.self
        case .int32: Int32.self
        case .bool: Bool.self
        case .float: Float.self
        case .double: Double.self
        case .string: String.self
        case .data: Data.self
        case .date: Date.self
        case .objectId: ObjectId.self
        case .uuid: UUID.self
        case .decimal128: Decimal128.self
        case .object, .linkingObjects, .mixed: nil
        }
    }

    /// A stored scalar as its Swift value (nil for `.null`; `Int` for an integer of any width,
    /// as Realm Swift's dynamic objects answer).
    static func swiftValue(_ value: Value) -> Any? {
        switch value {
        case .null, .link, .typedLink, .list, .map: nil
        case .bool(let b): b
        case .int(let i): Int(i)
        case .float(let f): f
        case .double(let d): d
        case .string(let s): s
        case .data(let d): d
        case .date(let t): t.date
        case .objectId(let o): o
        case .uuid(let u): u
        case .decimal128(let d): d
        }
    }

    static func list(_ list: DynamicList, _ property: Property, _ realm: Realm) throws -> Any {
        switch property.type {
        case .object: return List<DynamicObject>(managed: list, realm: realm)
        case .mixed: return List<AnyRealmValue>(managed: list, realm: realm)
        default:
            guard let scalar = scalarType(property.type) else { throw unsupported(property) }
            return scalarList(scalar, property.isOptional, list, realm)
        }
    }

    static func set(_ set: DynamicSet, _ property: Property, _ realm: Realm) throws -> Any {
        switch property.type {
        case .object: return MutableSet<DynamicObject>(managed: set, realm: realm)
        case .mixed: return MutableSet<AnyRealmValue>(managed: set, realm: realm)
        default:
            guard let scalar = scalarType(property.type) else { throw unsupported(property) }
            return scalarSet(scalar, property.isOptional, set, realm)
        }
    }

    static func map(_ map: DynamicMap, _ property: Property, _ realm: Realm) throws -> Any {
        switch property.type {
        case .object: return Map<String, DynamicObject?>(managed: map, realm: realm)
        case .mixed: return Map<String, AnyRealmValue>(managed: map, realm: realm)
        default:
            guard let scalar = scalarType(property.type) else { throw unsupported(property) }
            return scalarMap(scalar, property.isOptional, map, realm)
        }
    }

    private static func scalarList<T: _RealmScalar>(_: T.Type, _ optional: Bool, _ list: DynamicList, _ realm: Realm)
        -> Any
    {
        optional ? List<T?>(managed: list, realm: realm) : List<T>(managed: list, realm: realm)
    }

    private static func scalarSet<T: _RealmScalar>(_: T.Type, _ optional: Bool, _ set: DynamicSet, _ realm: Realm)
        -> Any
    {
        optional ? MutableSet<T?>(managed: set, realm: realm) : MutableSet<T>(managed: set, realm: realm)
    }

    private static func scalarMap<T: _RealmScalar & _RealmMapValue>(
        _: T.Type, _ optional: Bool, _ map: DynamicMap,
        _ realm: Realm
    ) -> Any {
        optional ? Map<String, T?>(managed: map, realm: realm) : Map<String, T>(managed: map, realm: realm)
    }

    private static func unsupported(_ property: Property) -> RealmError {
        .internalError("a collection of \(property.typeDescription) cannot be read as a RealmSwift collection")
    }
}
