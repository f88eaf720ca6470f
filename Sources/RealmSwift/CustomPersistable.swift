import Foundation

/// The part `CustomPersistable` and `FailableCustomPersistable` share: the stored type, and
/// everything the typed layer derives from it. Not meant to be adopted directly.
///
/// A custom type is a scalar to the rest of the layer: its column, list, set or map element
/// has the persisted type's `PropertyType`, queries compare its persisted value, and a primary
/// key is allowed where the persisted type allows one.
///
/// As in RealmSwift, a custom type is a `RealmCollectionValue` (so `Hashable`: Swift derives it
/// for a struct or enum whose stored values are) and may appear in a collection inside an
/// optional (`List<Celsius?>`). Its `PersistedType` is the Realm type it is stored as (a
/// `String` for a `URL`, say).
public protocol _CustomPersistable: _RealmScalar, _Persistable, _RealmMapValue, _RealmCollectionValueInsideOptional {
    /// The value stored for this one.
    var persistableValue: PersistedType { get }
    /// This type's value of a stored one; nil when the stored value does not convert.
    static func _rlmFromPersisted(_ value: PersistedType) -> Self?
}

extension _CustomPersistable {
    public static var _rlmPropertyType: PropertyType { PersistedType._rlmPropertyType }
    public var _rlmValue: Value { persistableValue._rlmValue }
    public func _rlmCheckedValue() throws -> Value { try persistableValue._rlmCheckedValue() }
    public init?(_rlmValue value: Value) {
        guard let persisted = PersistedType(_rlmValue: value), let v = Self._rlmFromPersisted(persisted) else {
            return nil
        }
        self = v
    }
    /// Accepts this type itself or anything its persisted type accepts (`Object(value:)`
    /// with a dictionary from JSON holds the persisted form).
    public static func _rlmConvert(_ any: Any) -> Self? {
        if let v = any as? Self { return v }
        return PersistedType._rlmConvert(any).flatMap(_rlmFromPersisted)
    }
}

/// A type stored as a type Realm supports, as RealmSwift has it: declare the `PersistedType`,
/// how to make a value from a stored one, and what to store.
///
/// ```
/// struct Celsius: CustomPersistable {
///     typealias PersistedType = Double
///     var degrees: Double
///     init(persistedValue: Double) { degrees = persistedValue }
///     var persistableValue: Double { degrees }
/// }
/// class Reading: Object { @Persisted var temperature: Celsius }
/// ```
///
/// Such a type then works in `@Persisted` properties, optionals, `List`, `MutableSet` and
/// `Map`, as a primary key when its persisted type can be one, and in queries, which compare
/// the persisted value: `where { $0.temperature == Celsius(persistedValue: 20) }` or
/// `where { $0.temperature.persistableValue > 20 }`. A property declared without a default
/// holds the conversion of the persisted type's zero.
public protocol CustomPersistable: _CustomPersistable {
    /// The value of a stored one.
    init(persistedValue: PersistedType)
}

extension CustomPersistable {
    public static func _rlmFromPersisted(_ value: PersistedType) -> Self? { Self(persistedValue: value) }
    public static var _rlmZero: Self { Self(persistedValue: PersistedType._rlmZero) }
}

/// A `CustomPersistable` whose conversion from the stored value can fail, as RealmSwift has it
/// (a `URL` stored as a `String`).
///
/// A stored value that does not convert is an error, never a made-up value: reading it records
/// the reason in `Object.readError` (the throwing `checkedValue(forKey:)` throws it), as for
/// an enum's unknown raw value; an optional property reads nil with that error recorded. A
/// property declared without a default starts as the conversion of the persisted type's zero,
/// so declare a default when that zero does not convert.
public protocol FailableCustomPersistable: _CustomPersistable {
    /// The value of a stored one; nil when it does not convert.
    init?(persistedValue: PersistedType)
}

extension FailableCustomPersistable {
    public static func _rlmFromPersisted(_ value: PersistedType) -> Self? { Self(persistedValue: value) }
    public static var _rlmZero: Self {
        guard let zero = Self(persistedValue: PersistedType._rlmZero) else {
            preconditionFailure(
                "\(Self.self) has no value for \(PersistedType.self)'s zero: give its @Persisted property a default")
        }
        return zero
    }
}

extension Query where T: _CustomPersistable {
    /// The stored value, to query with the persisted type's operators:
    /// `$0.url.persistableValue.starts(with: "https:")`.
    public var persistableValue: Query<T.PersistedType> { Query<T.PersistedType>(text: text, isKeyPath: isKeyPath) }
}
