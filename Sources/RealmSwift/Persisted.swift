import Foundation

/// Declares a stored property of an `Object` subclass.
///
/// ```swift
/// final class Dog: Object {
///     @Persisted(primaryKey: true) var id = UUID()   // evaluated for each new object
///     @Persisted(indexed: true) var name = ""
///     @Persisted var age: Int?                         // optional: nil by default
///     @Persisted var owner: Person?                    // to-one link, always optional
///     @Persisted var tags: List<String>
///     @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
/// }
/// ```
///
/// An unmanaged object keeps the value in the property itself, as a plain Swift object does.
/// Once the object is managed (added to or read from a Realm), every read and write goes to the
/// Realm through the object's accessor: a write through one instance is seen by every
/// instance of the same object. Properties without `@Persisted`, and computed ones, are not
/// stored and cannot be queried.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    let box: PersistedBox<Value>
    let isPrimaryKey: Bool
    let isIndexed: Bool
    let originProperty: String?

    /// A property whose default is the type's zero (`0`, `""`, nil, an empty list).
    public init() {
        box = PersistedBox(Value._rlmDefault())
        isPrimaryKey = false
        isIndexed = false
        originProperty = nil
    }

    /// A property with a default value, evaluated for each new object.
    public init(wrappedValue: Value) {
        box = PersistedBox(wrappedValue)
        isPrimaryKey = false
        isIndexed = false
        originProperty = nil
    }

    /// A property with a default value that is the class's primary key and/or has a search index.
    public init(wrappedValue: Value, primaryKey: Bool = false, indexed: Bool = false) {
        box = PersistedBox(wrappedValue)
        isPrimaryKey = primaryKey
        isIndexed = indexed || primaryKey
        originProperty = nil
    }

    /// A property without a default that is the class's primary key and/or has a search index.
    public init(primaryKey: Bool = false, indexed: Bool = false) {
        box = PersistedBox(Value._rlmDefault())
        isPrimaryKey = primaryKey
        isIndexed = indexed || primaryKey
        originProperty = nil
    }

    /// The objects of class `O` whose property `originProperty` (a link or list) points here.
    public init<O: Object>(originProperty: String) where Value == LinkingObjects<O> {
        box = PersistedBox(LinkingObjects<O>(originProperty: originProperty))
        isPrimaryKey = false
        isIndexed = false
        self.originProperty = originProperty
    }

    /// Not available: `@Persisted` is read through its enclosing `Object`.
    @available(*, unavailable, message: "@Persisted can only be used as a property of an Object subclass")
    public var wrappedValue: Value {
        get { preconditionFailure("@Persisted can only be used as a property of an Object subclass") }
        // swiftlint:disable:next unused_setter_value
        set { preconditionFailure("@Persisted can only be used as a property of an Object subclass") }
    }

    /// Reads and writes go through the enclosing object: to its Realm when it is managed, to
    /// the property's own storage when not.
    public static subscript<O: Object>(
        _enclosingInstance object: O,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<O, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<O, Persisted<Value>>
    ) -> Value {
        get {
            let box = object[keyPath: storageKeyPath].box
            if object.accessor != nil || object.tracer != nil {
                let name = box.name ?? object._rlmName(of: box, at: storageKeyPath)
                if let tracer = object.tracer {
                    tracer.names.append(name)
                    return box.value
                }
                return Value._rlmGet(object, name)
            }
            return box.value
        }
        set {
            let box = object[keyPath: storageKeyPath].box
            if object.accessor != nil {
                Value._rlmSet(newValue, object, box.name ?? object._rlmName(of: box, at: storageKeyPath))
            } else {
                box.value = newValue
            }
        }
    }
}

/// The storage of one `@Persisted` property of one object: its unmanaged value, and its name
/// once known. A reference, so that `Mirror` (which copies the wrapper) reaches the same storage.
final class PersistedBox<Value> {
    var value: Value
    var name: String?
    init(_ value: Value) { self.value = value }
}

/// What schema discovery and `add` need from a `@Persisted` property, whatever its type.
protocol AnyPersisted {
    var anyBox: AnyObject { get }
    func property(name: String) -> Property
    var linkedType: Object.Type? { get }
    var valueType: any _Persistable.Type { get }
    /// The unmanaged value as input for `realm` (nil for linking objects).
    func unmanagedInput(for realm: Realm?) -> ObjectInput?
    /// The unmanaged objects the unmanaged value links to.
    func unmanagedLinks() -> [Object]
    /// Sets the unmanaged value from a loosely typed one; false when it does not fit.
    func setUnmanaged(_ any: Any) -> Bool
    /// The unmanaged value.
    var unmanagedValue: Any { get }
    /// The managed value of `object`'s property `name`, as input for `realm`.
    func managedInput(_ object: Object, _ name: String, for realm: Realm?) -> ObjectInput?
    /// Typed access to the storage box through a raw pointer.
    var boxAccess: any BoxAccess { get }
}

extension Persisted: AnyPersisted {
    var anyBox: AnyObject { box }
    func property(name: String) -> Property {
        var p = Value._rlmProperty(name: name)
        if let originProperty { p.linkOriginPropertyName = originProperty }
        p.isPrimaryKey = isPrimaryKey
        p.isIndexed = isIndexed || p.isIndexed
        return p
    }
    var linkedType: Object.Type? { Value._rlmLinkedType }
    var valueType: any _Persistable.Type { Value.self }
    func unmanagedInput(for realm: Realm?) -> ObjectInput? { box.value._rlmInput(for: realm) }
    func unmanagedLinks() -> [Object] { box.value._rlmLinkedObjects() }
    var unmanagedValue: Any { box.value }
    var boxAccess: any BoxAccess { TypedBoxAccess<Value>() }
    func managedInput(_ object: Object, _ name: String, for realm: Realm?) -> ObjectInput? {
        Value._rlmGet(object, name)._rlmInput(for: realm)
    }
    func setUnmanaged(_ any: Any) -> Bool {
        guard let v = Value._rlmConvert(any) else { return false }
        box.value = v
        return true
    }
}

/// Records the names of the properties read from a prototype, to turn a Swift key path
/// (`\Dog.age`) into a property name (`"age"`).
final class KeyPathTracer {
    var names: [String] = []
}
