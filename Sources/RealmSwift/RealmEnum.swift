import Foundation

/// An enum stored through its raw value (an `Int`, a `String`, any stored scalar), as Realm's
/// older models declare one (`@objc enum Kind: Int, RealmEnum`; the `@objc` is not needed
/// here): `@Persisted var kind = Kind.small`, `let kind = RealmOptional<Kind>()`,
/// `List<Kind>`, `MutableSet<Kind>`, `Map<String, Kind?>`. The column is the raw value's
/// (`int` for an `Int` enum), the dynamic API sees the raw value, and a query compares the
/// enum (`$0.kind == .small`) or its raw value (`$0.kind.rawValue > 1`).
///
/// `CaseIterable` is part of the protocol because a property declared without a default holds
/// the first case (Swift provides it for every enum without associated values, so declaring
/// `RealmEnum` is enough). A raw value no case has (a file written by another program) reads
/// as an error recorded in `Object.readError`, never as a made-up case.
///
/// A `RealmCollectionValue` whose `PersistedType` is its raw value's, as in RealmSwift.
public protocol RealmEnum: RealmOptionalType, _RealmScalar, _Persistable, _RealmMapValue, RawRepresentable,
    CaseIterable,
    _RealmCollectionValueInsideOptional
where RawValue: _RealmCollectionValueInsideOptional, PersistedType == RawValue {}

/// An enum stored through its raw value: `enum Kind: Int, PersistableEnum { case a, b }` then
/// `@Persisted var kind: Kind`. A property declared without a default takes the first case.
/// The same as a `RealmEnum` (in Realm Swift the `@Persisted` spelling of one).
public protocol PersistableEnum: RealmEnum {}

extension RealmEnum {
    public static var _rlmPropertyType: PropertyType { RawValue._rlmPropertyType }
    public var _rlmValue: Value { rawValue._rlmValue }
    public init?(_rlmValue value: Value) {
        guard let raw = RawValue(_rlmValue: value) else { return nil }
        self.init(rawValue: raw)
    }
    public static var _rlmZero: Self {
        guard let first = allCases.first else { preconditionFailure("\(Self.self) has no cases to store") }
        return first
    }
    public static func _rlmConvert(_ any: Any) -> Self? {
        if let e = any as? Self { return e }
        return RawValue._rlmConvert(any).flatMap(Self.init(rawValue:))
    }
}
