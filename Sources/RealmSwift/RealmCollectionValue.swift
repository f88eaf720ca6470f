import Foundation

/// A type a `List`, `MutableSet`, `Map` or `Results` holds, as RealmSwift names it: every
/// stored scalar (`Int…Int64`, `Float`, `Double`, `Bool`, `String`, `Date`, `Data`,
/// `Decimal128`, `ObjectId`, `UUID`), their optionals, `AnyRealmValue` and every `RealmEnum`
/// or `PersistableEnum`. Generic code over collection values (`func f<V: RealmCollectionValue>
/// (_ list: List<V>)`) is written against it.
///
/// `PersistedType` is the type actually stored: `Self` for the types Realm stores directly,
/// the raw value for an enum, `Wrapped.PersistedType?` for an optional.
///
/// Declaring another type as conforming does not make it storable (as in RealmSwift). Unlike
/// RealmSwift, `Object` is not one: a `List<Dog>` works as ever, but generic code constrained
/// to `RealmCollectionValue` does not take objects.
public protocol RealmCollectionValue: Hashable, _RealmElement, _RealmMapValue
where PersistedType: RealmCollectionValue {
    /// The type actually stored in the Realm for this one.
    associatedtype PersistedType
}

/// A type that can appear in a Realm collection inside an `Optional` (`List<Int?>`).
public protocol _RealmCollectionValueInsideOptional: RealmCollectionValue, _RealmScalar
where PersistedType: _RealmCollectionValueInsideOptional {}

extension Int: _RealmCollectionValueInsideOptional { public typealias PersistedType = Int }
extension Int8: _RealmCollectionValueInsideOptional { public typealias PersistedType = Int8 }
extension Int16: _RealmCollectionValueInsideOptional { public typealias PersistedType = Int16 }
extension Int32: _RealmCollectionValueInsideOptional { public typealias PersistedType = Int32 }
extension Int64: _RealmCollectionValueInsideOptional { public typealias PersistedType = Int64 }
extension Float: _RealmCollectionValueInsideOptional { public typealias PersistedType = Float }
extension Double: _RealmCollectionValueInsideOptional { public typealias PersistedType = Double }
extension Bool: _RealmCollectionValueInsideOptional { public typealias PersistedType = Bool }
extension String: _RealmCollectionValueInsideOptional { public typealias PersistedType = String }
extension Date: _RealmCollectionValueInsideOptional { public typealias PersistedType = Date }
extension Data: _RealmCollectionValueInsideOptional { public typealias PersistedType = Data }
extension Decimal128: _RealmCollectionValueInsideOptional { public typealias PersistedType = Decimal128 }
extension ObjectId: _RealmCollectionValueInsideOptional { public typealias PersistedType = ObjectId }
extension UUID: _RealmCollectionValueInsideOptional { public typealias PersistedType = UUID }
extension AnyRealmValue: RealmCollectionValue { public typealias PersistedType = AnyRealmValue }

extension Optional: RealmCollectionValue where Wrapped: _RealmCollectionValueInsideOptional {
    /// An optional is stored as its wrapped type's stored type, or null.
    public typealias PersistedType = Wrapped.PersistedType?
}

/// Types whose values `min` and `max` (and `min(ofProperty:)`, `max(ofProperty:)`) compare,
/// as RealmSwift names them: the numbers, `Date`, `Decimal128`, `AnyRealmValue` and their
/// optionals. A marker: it adds no requirement, it names the set for generic code.
@_marker public protocol MinMaxType {}
extension NSNumber: MinMaxType {}
extension Double: MinMaxType {}
extension Float: MinMaxType {}
extension Int: MinMaxType {}
extension Int8: MinMaxType {}
extension Int16: MinMaxType {}
extension Int32: MinMaxType {}
extension Int64: MinMaxType {}
extension Date: MinMaxType {}
extension NSDate: MinMaxType {}
extension Decimal128: MinMaxType {}
extension AnyRealmValue: MinMaxType {}
extension Optional: MinMaxType where Wrapped: MinMaxType {}

/// Types whose values `sum` and `average` (and `sum(ofProperty:)`, `average(ofProperty:)`)
/// add, as RealmSwift names them: the numbers, `Decimal128`, `AnyRealmValue` and their
/// optionals. A marker, like `MinMaxType`.
@_marker public protocol AddableType {}
extension NSNumber: AddableType {}
extension Double: AddableType {}
extension Float: AddableType {}
extension Int: AddableType {}
extension Int8: AddableType {}
extension Int16: AddableType {}
extension Int32: AddableType {}
extension Int64: AddableType {}
extension Decimal128: AddableType {}
extension AnyRealmValue: AddableType {}
extension Optional: AddableType where Wrapped: AddableType {}

/// Types whose values a collection of them sorts or makes distinct directly
/// (`sorted(ascending:)`, `distinct()`), as RealmSwift names them. A marker, like `MinMaxType`.
@_marker public protocol SortableType {}
extension AnyRealmValue: SortableType {}
extension Data: SortableType {}
extension Date: SortableType {}
extension Decimal128: SortableType {}
extension Double: SortableType {}
extension Float: SortableType {}
extension Int: SortableType {}
extension Int8: SortableType {}
extension Int16: SortableType {}
extension Int32: SortableType {}
extension Int64: SortableType {}
extension String: SortableType {}
extension Optional: SortableType where Wrapped: SortableType {}
