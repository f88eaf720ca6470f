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
    // The stored properties and the initialisers are inlinable: every object made (a managed
    // one read from a Realm too) runs the initialiser of each of its properties, and inlined
    // into the model's module they are plain stores instead of unspecialised generic calls.

    /// The value of an unmanaged object (kept, unused, once the object is managed).
    @usableFromInline var storage: Value
    /// The property's position in its class (`ClassInfo.fields`), recorded in every property
    /// of the object when it becomes managed, on its first write, or in a prototype; -1
    /// before. Reads of a managed object and every write find the property through it.
    @usableFromInline var slot = -1
    @usableFromInline let isPrimaryKey: Bool
    @usableFromInline let isIndexed: Bool
    // No origin property is stored here: a `LinkingObjects` value holds its own, and every
    // object pays for each stored field's initialisation and destruction.

    /// A property whose default is the type's zero (`0`, `""`, nil, an empty list).
    @inlinable
    public init() {
        storage = Value._rlmDefault()
        isPrimaryKey = false
        isIndexed = false
    }

    /// A property with a default value, evaluated for each new object.
    @inlinable
    public init(wrappedValue: Value) {
        storage = wrappedValue
        isPrimaryKey = false
        isIndexed = false
    }

    /// A property with a default value that is the class's primary key and/or has a search index.
    @inlinable
    public init(wrappedValue: Value, primaryKey: Bool = false, indexed: Bool = false) {
        storage = wrappedValue
        isPrimaryKey = primaryKey
        isIndexed = indexed || primaryKey
    }

    /// A property without a default that is the class's primary key and/or has a search index.
    @inlinable
    public init(primaryKey: Bool = false, indexed: Bool = false) {
        storage = Value._rlmDefault()
        isPrimaryKey = primaryKey
        isIndexed = indexed || primaryKey
    }

    /// The objects of class `O` whose property `originProperty` (a link or list) points here.
    public init<O: Object>(originProperty: String) where Value == LinkingObjects<O> {
        storage = LinkingObjects<O>(originProperty: originProperty)
        isPrimaryKey = false
        isIndexed = false
    }

    /// Not available: `@Persisted` is read through its enclosing `Object`.
    @available(*, unavailable, message: "@Persisted can only be used as a property of an Object subclass")
    public var wrappedValue: Value {
        get { preconditionFailure("@Persisted can only be used as a property of an Object subclass") }
        // swiftlint:disable:next unused_setter_value
        set { preconditionFailure("@Persisted can only be used as a property of an Object subclass") }
    }

    /// Reads and writes go through the enclosing object: to its Realm when it is managed
    /// (columns are read when asked for, nothing is copied into the object), to the
    /// property's own storage when not.
    ///
    /// Inlined into the model's module, so that the compiler drops the `wrapped` key path it
    /// would otherwise make (and retain and release) on every access, unused here.
    @inlinable
    public static subscript<O: Object>(
        _enclosingInstance object: O,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<O, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<O, Persisted<Value>>
    ) -> Value {
        get {
            // A managed object's stored property whose key path is known: read by column.
            if let known = object.managedSlot(of: storageKeyPath) {
                return Value._rlmGet(object, column: known.column, slot: known.slot)
            }
            return read(object, storageKeyPath)
        }
        set {
            // An unmanaged object's property whose slot is known: stored here, where the
            // value's type is known (a plain store, not a generic one).
            if let storage = object.unmanagedStorage(of: storageKeyPath) {
                storage.assumingMemoryBound(to: Value.self).pointee = newValue
            } else {
                write(newValue, object, storageKeyPath)
            }
        }
    }

    /// The property's value: from the Realm when `object` is managed, else its storage.
    @usableFromInline
    static func read<O: Object>(_ object: O, _ storageKeyPath: ReferenceWritableKeyPath<O, Persisted<Value>>) -> Value {
        let slot = slot(of: storageKeyPath, in: object)
        if object.hasAccessor {
            return Value._rlmGet(object, object.propertyName(slot: slot))
        }
        if let tracer = object.tracer { return traced(object, storageKeyPath, slot: slot, tracer) }
        return object[keyPath: storageKeyPath].storage
    }

    /// `read` on a prototype recording the names a key path reads. Apart, so that `read`
    /// needs no `Value?` on its stack: in an unspecialised generic function that metadata is
    /// looked up on every call.
    @inline(never)
    static func traced<O: Object>(
        _ object: O, _ storageKeyPath: ReferenceWritableKeyPath<O, Persisted<Value>>, slot: Int,
        _ tracer: KeyPathTracer
    ) -> Value {
        // The Swift name: a traced key path is a name the user could have written, translated
        // to the stored one with the rest (`MappedNames`).
        tracer.names.append(object.swiftPropertyName(slot: slot))
        if let next = tracingLink(Value.self, tracer) { return next }
        return object[keyPath: storageKeyPath].storage
    }

    /// Sets the property: in the Realm when `object` is managed, else in its storage.
    @usableFromInline
    static func write<O: Object>(
        _ newValue: Value, _ object: O, _ storageKeyPath: ReferenceWritableKeyPath<O, Persisted<Value>>
    ) {
        let slot = slot(of: storageKeyPath, in: object)
        if object.hasAccessor {
            Value._rlmSet(newValue, object, object.propertyName(slot: slot))
            return
        }
        object.setUnmanagedValue(newValue, slot: slot)
    }

    /// The position in its class of the property whose storage `keyPath` names: from the
    /// class's table of key paths (`KeyPathSlots`), or on a key path's first use by reading the
    /// slot recorded in the property (recording every property's slot first if needed).
    @inline(__always)
    private static func slot<O: Object>(of keyPath: ReferenceWritableKeyPath<O, Persisted<Value>>, in object: O) -> Int
    {
        if let slot = object.knownSlot(of: keyPath) { return slot }
        var slot = object[keyPath: keyPath].slot
        if slot < 0 {
            object.stampSlots()
            slot = object[keyPath: keyPath].slot
        }
        object.info.keyPathSlots.record(keyPath, slot: slot)
        return slot
    }
}

/// What schema discovery needs from a `@Persisted` property (read from a prototype through
/// `Mirror`, once per class), whatever its type.
protocol AnyPersisted {
    func property(name: String) -> Property
    var linkedType: Object.Type? { get }
    var valueType: any _Persistable.Type { get }
    /// The unmanaged value.
    var unmanagedValue: Any { get }
}

extension Persisted: AnyPersisted {
    func property(name: String) -> Property {
        var p = Value._rlmProperty(name: name)
        if let linking = storage as? any _LinkingObjectsMarker, !linking._rlmOriginProperty.isEmpty {
            p.linkOriginPropertyName = linking._rlmOriginProperty
        }
        p.isPrimaryKey = isPrimaryKey
        p.isIndexed = isIndexed || p.isIndexed
        return p
    }
    var linkedType: Object.Type? { Value._rlmLinkedType }
    var valueType: any _Persistable.Type { Value.self }
    var unmanagedValue: Any { storage }
}

/// Records the names of the properties read from a prototype, to turn a Swift key path
/// (`\Dog.age`) into a property name (`"age"`).
final class KeyPathTracer {
    var names: [String] = []
}
