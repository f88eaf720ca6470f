import Foundation

// `RealmProperty<T?>` and the deprecated `RealmOptional<T>`: the properties of models declared
// the way Realm's older `@objc dynamic` models are, `let age = RealmProperty<Int?>()`, read and
// written through `value`.
//
// Each is a small object held by the model object (a `let`, so the model keeps one for its
// whole life). An unmanaged model's value lives in the box; once the model is managed, the
// model binds each of its boxes to itself and the property's name (`Object.bindBoxes`, when its
// Realm is set), and `value` reads and writes the Realm through the model, as `@Persisted` does.
// The schema and every field walk (add, `Object(value:)`, `value(forKey:)`, encoding) see a
// box as one more stored property of the class (`BoxField` in `persistedFields`).

/// What every box of a model shares: the model it is bound to once managed, and the name of
/// the property it is.
public class _RealmValueBox {
    /// The managed model object this box reads through; nil while the model is unmanaged.
    /// Weak: the model holds the box.
    weak var parent: Object?
    /// Makes another instance of the managed model, for a box that outlives its model
    /// (`realm.object(…)?.age.value`: the model is released once `age` is read). It holds the
    /// model's accessor, not the model.
    var remake: (() -> Object)?
    /// The property's name in the model's class.
    var name = ""

    init() {}

    /// The parent when it is managed: reads and writes then go to its Realm.
    var managedParent: Object? {
        if let parent { return parent.hasAccessor ? parent : nil }
        return remake?()
    }
}

/// A box a model holds as a stored property, with the persistable type of its value.
protocol BoxedValue: _RealmValueBox {
    associatedtype Stored: _Persistable
    /// The value while the model is unmanaged.
    var unmanaged: Stored { get set }
}

extension BoxedValue {
    /// The value: from the Realm when the model is managed, else the box's own.
    var current: Stored {
        get {
            if let parent = managedParent { return Stored._rlmGet(parent, name) }
            return unmanaged
        }
        set {
            if let parent = managedParent {
                Stored._rlmSet(newValue, parent, name)
            } else {
                unmanaged = newValue
            }
        }
    }
}

/// The types a `RealmProperty` holds: an optional number or Bool (`Int?`, `Double?`, `Bool?`…)
/// or an `AnyRealmValue`.
public protocol RealmPropertyType: _Persistable {}

/// The number and Bool types a `RealmOptional` (and `RealmProperty<T?>`) holds.
public protocol RealmOptionalType: _RealmElement {}

extension Int: RealmOptionalType {}
extension Int8: RealmOptionalType {}
extension Int16: RealmOptionalType {}
extension Int32: RealmOptionalType {}
extension Int64: RealmOptionalType {}
extension Float: RealmOptionalType {}
extension Double: RealmOptionalType {}
extension Bool: RealmOptionalType {}

extension Optional: RealmPropertyType where Wrapped: RealmOptionalType {}
extension AnyRealmValue: RealmPropertyType {}

/// A stored property of a model declared without `@Persisted`, as Realm's older models do:
///
/// ```swift
/// final class Person: Object {
///     @Persisted var name = ""
///     let age = RealmProperty<Int?>()
///     let extra = RealmProperty<AnyRealmValue>()
/// }
/// person.age.value = 30
/// ```
///
/// Declare it with `let`. Its value is the box's own while the object is unmanaged and the
/// Realm's once it is managed; it is queried under its property name (`"age > 20"`).
public final class RealmProperty<Value: RealmPropertyType>: _RealmValueBox {
    var unmanaged: Value

    /// A property holding the type's default (nil, or `.none` for `AnyRealmValue`).
    public override init() {
        unmanaged = Value._rlmDefault()
        super.init()
    }

    /// The value: the Realm's when the object is managed (set it inside a write transaction),
    /// else the property's own.
    public var value: Value {
        get { current }
        set { current = newValue }
    }
}

extension RealmProperty: Equatable where Value: Equatable {
    /// Properties are equal when their values are.
    public static func == (lhs: RealmProperty<Value>, rhs: RealmProperty<Value>) -> Bool { lhs.value == rhs.value }
}

extension RealmProperty: CustomStringConvertible {
    public var description: String { String(describing: value) }
}

extension RealmProperty: Codable where Value: Codable {
    /// Decodes the value (nil from a JSON null).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        value = try container.decode(Value.self)
    }

    /// Encodes the value.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// An optional number or Bool of a model declared the older way (`let age = RealmOptional<Int>()`).
/// Deprecated in Realm Swift in favour of `RealmProperty<Int?>`, which it works as.
@available(
    *, deprecated, renamed: "RealmProperty",
    message: "RealmOptional<T> has been deprecated, use RealmProperty<T?> instead."
)
public final class RealmOptional<Value: RealmOptionalType>: _RealmValueBox {
    var unmanaged: Value?

    /// A property holding `value` (nil by default).
    public init(_ value: Value? = nil) {
        unmanaged = value
        super.init()
    }

    /// The value: the Realm's when the object is managed, else the property's own.
    public var value: Value? {
        get { current }
        set { current = newValue }
    }
}

@available(*, deprecated, message: "RealmOptional has been deprecated, use RealmProperty<T?> instead.")
extension RealmOptional: Equatable where Value: Equatable {
    /// Properties are equal when their values are.
    public static func == (lhs: RealmOptional<Value>, rhs: RealmOptional<Value>) -> Bool { lhs.value == rhs.value }
}

// MARK: Schema discovery and field access

extension RealmProperty: BoxedValue, AnyPersisted, BoxType {}
@available(*, deprecated, message: "RealmOptional has been deprecated, use RealmProperty<T?> instead.")
extension RealmOptional: BoxedValue, AnyPersisted, BoxType {}

extension BoxedValue {
    func property(name: String) -> Property { Stored._rlmProperty(name: name) }
    var linkedType: Object.Type? { Stored._rlmLinkedType }
    var valueType: any _Persistable.Type { Stored.self }
    var unmanagedValue: Any { unmanaged }
    static var boxField: any PersistedField { BoxField<Self>() }
}

/// A box type, as the runtime's field list shows it (`persistedFields`).
protocol BoxType {
    static var boxField: any PersistedField { get }
}

/// The operations on a box held at a raw address of a model (a strong reference).
struct BoxField<B: BoxedValue>: PersistedField {
    @inline(__always)
    private func box(_ p: UnsafeRawPointer) -> B { p.assumingMemoryBound(to: B.self).pointee }
    func unmanagedInput(_ p: UnsafeRawPointer, for realm: Realm?) -> ObjectInput? {
        box(p).unmanaged._rlmInput(for: realm)
    }
    func links(_ p: UnsafeRawPointer) -> [Object] { box(p).unmanaged._rlmLinkedObjects() }
    func unmanagedValue(_ p: UnsafeRawPointer) -> Any { box(p).unmanaged }
    func setUnmanaged(_ p: UnsafeMutableRawPointer, _ any: Any) -> Bool {
        guard let v = B.Stored._rlmConvert(any) else { return false }
        box(p).unmanaged = v
        return true
    }
    var isLinkingObjects: Bool { false }
    func encode(
        _ object: Object, _ p: UnsafeRawPointer, name: String, key: String,
        into container: inout KeyedEncodingContainer<PropertyCodingKey>
    ) throws -> Bool {
        guard let encodable = box(p).current as? any Encodable else { return false }
        try container.encode(encodable, forKey: PropertyCodingKey(key))
        return true
    }
    func bind(_ p: UnsafeRawPointer, to object: Object, name: String) {
        let b = box(p)
        b.parent = object
        b.name = name
        guard let accessor = object.managed, let realm = object.realm else { return }
        let type = Swift.type(of: object)
        let info = object.classInfo
        b.remake = { type._rlmMake(accessor, realm: realm, info: info) }
    }
}

extension Object {
    /// Binds the object's `RealmProperty` and `RealmOptional` boxes to it, so that their
    /// values are read from its Realm (called when the object becomes managed: its accessor,
    /// then its Realm, are set).
    @inline(__always)
    final func bindBoxes() {
        guard withInfo({ $0.hasBoxes }) else { return }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        for f in info.fields where f.slotOffset < 0 {
            (f.access as? any BoxBinding)?.bind(base + f.offset, to: self, name: f.name)
        }
    }
}

/// Binding a box to its model.
protocol BoxBinding {
    func bind(_ p: UnsafeRawPointer, to object: Object, name: String)
}

extension BoxField: BoxBinding {}
