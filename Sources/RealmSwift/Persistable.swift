import Foundation

/// A type a column or a list element stores: a scalar, a `PersistableEnum` or an `Object`.
///
/// The one conversion protocol of the typed layer (RealmSwift's `_Persistable`): each storable
/// type says which `PropertyType` it is, how it reads from and writes to the dynamic core's
/// `Value`, and how it is made from the loosely typed input of `Object(value:)` and
/// `realm.create(_:value:)` (dictionaries, arrays, JSON numbers, `NSNull`). Conformances are
/// grouped by family in `Persistable+Scalars.swift`. Not meant to be adopted outside this module.
public protocol _RealmElement {
    /// The stored type.
    static var _rlmPropertyType: PropertyType { get }
    /// The linked class, for objects.
    static var _rlmObjectType: Object.Type? { get }
    /// Whether an element may be nil (`List<Int?>`): the collection's property is optional.
    static var _rlmIsOptional: Bool { get }
    /// Reads a stored value; nil for `.null` (or a link the Realm no longer holds).
    static func _rlmRead(_ value: Value, realm: Realm) -> Self?
    /// The input that stores this value in `realm` (a link, or a nested object to create).
    func _rlmInput(for realm: Realm?) -> ObjectInput
    /// The input that stores this value into a managed object or list of `realm`: an unmanaged
    /// object is added (becoming managed itself) and linked, as RealmSwift does.
    func _rlmAddedInput(for realm: Realm?) -> ObjectInput
    /// Converts a loosely typed value (`Object(value:)`); nil when it does not fit.
    static func _rlmConvert(_ any: Any) -> Self?
    /// Converts a loosely typed value into input for `realm.create`.
    static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput
}

extension _RealmElement {
    public static var _rlmObjectType: Object.Type? { nil }
    public static var _rlmIsOptional: Bool { false }
    public func _rlmAddedInput(for realm: Realm?) -> ObjectInput { _rlmInput(for: realm) }
}

/// A scalar stored as one `Value` (numbers, strings, dates, data, identifiers, enums).
public protocol _RealmScalar: _RealmElement {
    /// The stored value. For a value some stored type cannot hold (a `Date` no timestamp
    /// holds) this is `.null`, which no required property accepts: paths that store or compare
    /// user input use `_rlmCheckedValue()`, which says why.
    var _rlmValue: Value { get }
    /// The stored value, or the reason no stored value holds it (`RealmError.invalidInput`).
    func _rlmCheckedValue() throws -> Value
    /// The Swift value of a stored one.
    init?(_rlmValue value: Value)
    /// The value of a property declared without a default (`0`, `""`, the first enum case).
    static var _rlmZero: Self { get }
}

extension _RealmScalar {
    public func _rlmCheckedValue() throws -> Value { _rlmValue }
    public static func _rlmRead(_ value: Value, realm: Realm) -> Self? { Self(_rlmValue: value) }
    /// The stored value as input; a value no stored type holds records its error in `realm`,
    /// which makes the enclosing `write` throw and roll back.
    public func _rlmInput(for realm: Realm?) -> ObjectInput {
        do { return .value(try _rlmCheckedValue()) } catch {
            realm?.record(error)
            return .value(.null)
        }
    }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        if isNull(any) { return .value(.null) }
        guard let v = _rlmConvert(any) else {
            throw RealmError.invalidInput(
                "\(type(of: any)) value '\(any)' cannot be stored as \(_rlmPropertyType.rawValue)")
        }
        return .value(try v._rlmCheckedValue())
    }
}

/// The value type of a `@Persisted` property: a scalar, an optional scalar or link, a `List`,
/// a `LinkingObjects`, or a `PersistableEnum`.
public protocol _Persistable {
    /// The schema of a property of this type (name and flags are filled in by `@Persisted`).
    static func _rlmProperty(name: String) -> Property
    /// The class this property links to, if any (for discovering linked classes).
    static var _rlmLinkedType: Object.Type? { get }
    /// The value of a property declared without a default.
    static func _rlmDefault() -> Self
    /// Reads the property of a managed object.
    static func _rlmGet(_ object: Object, _ name: String) -> Self
    /// Reads the property of a managed object from its column (the property in `slot` of the
    /// class; the usual read of a `@Persisted` property, without a lookup by name).
    static func _rlmGet(_ object: Object, column: Int, slot: Int) -> Self
    /// Writes the property of a managed object (inside a write transaction).
    static func _rlmSet(_ value: Self, _ object: Object, _ name: String)
    /// The input that stores this value in `realm`; nil for a computed property.
    func _rlmInput(for realm: Realm?) -> ObjectInput?
    /// Converts a loosely typed value (`Object(value:)`).
    static func _rlmConvert(_ any: Any) -> Self?
    /// Converts a loosely typed value into input for `realm.create`; nil for a computed property.
    static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput?
    /// The unmanaged objects this value links to (so `add` can manage them too), paired with
    /// where the managed copy is found.
    func _rlmLinkedObjects() -> [Object]
}

extension _Persistable {
    public static func _rlmGet(_ object: Object, column: Int, slot: Int) -> Self {
        _rlmGet(object, object.propertyName(slot: slot))
    }
    public static var _rlmLinkedType: Object.Type? { nil }
    public func _rlmLinkedObjects() -> [Object] { [] }
}

extension _Persistable where Self: _RealmScalar {
    public static func _rlmProperty(name: String) -> Property { Property(name: name, type: _rlmPropertyType) }
    public static func _rlmDefault() -> Self { _rlmZero }
    public static func _rlmGet(_ object: Object, _ name: String) -> Self {
        decoded(object._rlmRead(name), of: object, name)
    }
    public static func _rlmGet(_ object: Object, column: Int, slot: Int) -> Self {
        decoded(object._rlmRead(column: column, slot: slot), of: object, object.propertyName(slot: slot))
    }
    /// `value` as a `Self`; a value it cannot represent answers the zero with the reason
    /// recorded in the object's `readError` (ReadErrors.swift).
    private static func decoded(_ value: Value, of object: Object, _ name: String) -> Self {
        if let decoded = Self(_rlmValue: value) { return decoded }
        object.recordReadError(unrepresentable(value, as: Self.self, at: "\(type(of: object).className()).\(name)"))
        return _rlmZero
    }
    public static func _rlmSet(_ value: Self, _ object: Object, _ name: String) {
        object._rlmWrite(name, value._rlmInput(for: object.realm))
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput? { _rlmInput(for: realm) as ObjectInput }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput? {
        if isNull(any) {
            throw RealmError.invalidInput("nil given for a required \(_rlmPropertyType.rawValue) property")
        }
        return try (_rlmInput(fromAny: any, realm: realm) as ObjectInput)
    }
}

extension Optional: _Persistable where Wrapped: _RealmElement {
    public static func _rlmProperty(name: String) -> Property {
        Property(
            name: name, type: Wrapped._rlmPropertyType, isOptional: true,
            objectClassName: Wrapped._rlmObjectType?.className())
    }
    public static var _rlmLinkedType: Object.Type? { Wrapped._rlmObjectType }
    public static func _rlmDefault() -> Self { nil }
    public static func _rlmGet(_ object: Object, _ name: String) -> Self {
        let v = object._rlmRead(name)
        if v.isNull { return nil }
        guard let realm = object.realm, let s = Wrapped._rlmRead(v, realm: realm) else {
            if case .link(let key) = v, let realm = object.realm {
                // A link whose target cannot be read (a consistent file nullifies links to deleted
                // objects): nil only with the reason recorded (ReadErrors.swift).
                object.recordReadError(
                    .corruptFile(
                        path: realm.dynamicRealm.path, offset: 0,
                        reason: "\(type(of: object)).\(name) links to object \(key), which cannot be read"))
                return nil
            }
            // A value the type cannot represent (an enum's unknown raw value): nil, with the reason.
            object.recordReadError(unrepresentable(v, as: Wrapped.self, at: "\(type(of: object).className()).\(name)"))
            return nil
        }
        return s
    }
    public static func _rlmSet(_ value: Self, _ object: Object, _ name: String) {
        // The class is asked first: a scalar's setter pays no dynamic cast.
        let embedded =
            Wrapped._rlmObjectType is EmbeddedObject.Type
            ? value.flatMap { $0 as? Object }.flatMap { $0.isUnmanagedEmbedded ? $0 : nil } : nil
        guard object._rlmWrite(name, value.map { $0._rlmAddedInput(for: object.realm) } ?? .value(.null)) else {
            return
        }
        // As in Realm Swift, the unmanaged embedded object given is now the one its values made.
        if let embedded, let realm = object.realm, case .link(let key)? = try? object.accessor?.value(forKey: name) {
            realm.adoptEmbedded(embedded, key: key)
        }
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput? {
        map { $0._rlmInput(for: realm) } ?? .value(.null)
    }
    public static func _rlmConvert(_ any: Any) -> Self? {
        if isNull(any) { return .some(nil) }
        guard let w = Wrapped._rlmConvert(any) else { return nil }
        return .some(w)
    }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput? {
        try (Wrapped._rlmInput(fromAny: any, realm: realm) as ObjectInput)
    }
    public func _rlmLinkedObjects() -> [Object] {
        if case .some(let w) = self, let o = w as? Object { return [o] }
        return []
    }
}

/// Whether a loosely typed value means nil (`NSNull`, or an optional holding nothing).
func isNull(_ any: Any) -> Bool {
    if any is NSNull { return true }
    let m = Mirror(reflecting: any)
    return m.displayStyle == .optional && m.children.isEmpty
}

/// An optional scalar as the element of a collection: `List<Int?>`, `MutableSet<String?>`
/// (a `Map`'s optional values are `_RealmMapValue`'s). Stored as the scalar, nil as null;
/// the collection's property is then optional (`int?[]`).
extension Optional: _RealmElement where Wrapped: _RealmScalar {
    public static var _rlmPropertyType: PropertyType { Wrapped._rlmPropertyType }
    public static var _rlmIsOptional: Bool { true }
    public static func _rlmRead(_ value: Value, realm: Realm) -> Self? {
        if value.isNull { return .some(nil) }
        return Wrapped._rlmRead(value, realm: realm).map { .some($0) }
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput {
        guard let wrapped = self else { return .value(.null) }
        return wrapped._rlmInput(for: realm)
    }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        try Wrapped._rlmInput(fromAny: any, realm: realm)
    }
}
