@_spi(Reflection) import Swift

// Access to the `@Persisted` storage of an object without `Mirror`.
//
// `Mirror` demangles each field's type and copies each value on every call: tens of
// microseconds per object, which would make `add` and reading results far slower than the
// dynamic API. So, once per class, the Swift runtime's field list (`_forEachField`, what
// `Mirror` itself reads: each stored property's name, offset in the instance and type) gives
// where each `Persisted` lives; every later object of the class is read and written at those
// offsets. RealmSwift does the same through the Objective-C runtime's ivar offsets.

/// Typed operations on one `@Persisted` property stored at a raw address (the property's
/// `Persisted` value inside a live object).
protocol PersistedField {
    /// The unmanaged value as input for `realm` (nil for linking objects).
    func unmanagedInput(_ field: UnsafeRawPointer, for realm: Realm?) -> ObjectInput?
    /// The unmanaged objects the unmanaged value links to.
    func links(_ field: UnsafeRawPointer) -> [Object]
    /// The unmanaged value.
    func unmanagedValue(_ field: UnsafeRawPointer) -> Any
    /// Sets the unmanaged value from a loosely typed one; false when it does not fit.
    func setUnmanaged(_ field: UnsafeMutableRawPointer, _ any: Any) -> Bool
    /// Whether the property is a `LinkingObjects` (computed, never stored or given as input).
    var isLinkingObjects: Bool { get }
    /// Encodes `object`'s value of the property `name` (read from its Realm when managed, else
    /// `field`'s storage) under `key` (its Swift name), if its type is `Encodable`; false when
    /// it is not.
    func encode(
        _ object: Object, _ field: UnsafeRawPointer, name: String, key: String,
        into container: inout KeyedEncodingContainer<PropertyCodingKey>
    ) throws -> Bool
}

struct TypedField<V: _Persistable>: PersistedField {
    /// Where `storage` is inside the `Persisted` (found once per class: addressing the value
    /// directly needs no `Persisted<V>` metadata per call).
    let storageOffset: Int
    @inline(__always)
    private func value(_ p: UnsafeRawPointer) -> UnsafePointer<V> {
        (p + storageOffset).assumingMemoryBound(to: V.self)
    }
    func unmanagedInput(_ p: UnsafeRawPointer, for realm: Realm?) -> ObjectInput? {
        value(p).pointee._rlmInput(for: realm)
    }
    func links(_ p: UnsafeRawPointer) -> [Object] { value(p).pointee._rlmLinkedObjects() }
    func unmanagedValue(_ p: UnsafeRawPointer) -> Any { value(p).pointee }
    func setUnmanaged(_ p: UnsafeMutableRawPointer, _ any: Any) -> Bool {
        guard let v = V._rlmConvert(any) else { return false }
        (p + storageOffset).assumingMemoryBound(to: V.self).pointee = v
        return true
    }
    var isLinkingObjects: Bool { V.self is any _LinkingObjectsMarker.Type }
    func encode(
        _ object: Object, _ p: UnsafeRawPointer, name: String, key: String,
        into container: inout KeyedEncodingContainer<PropertyCodingKey>
    ) throws -> Bool {
        let current = object.hasAccessor ? V._rlmGet(object, name) : value(p).pointee
        guard let encodable = current as? any Encodable else { return false }
        try container.encode(encodable, forKey: PropertyCodingKey(key))
        return true
    }
}

/// A `Persisted` type, whatever its value type: how to reach its storage through a pointer.
protocol PersistedWrapperType {
    /// The typed operations; nil when the layout of the `Persisted` cannot be known.
    static var field: (any PersistedField)? { get }
    /// Where `slot` is inside the `Persisted` (written for every managed object made).
    static var slotOffset: Int? { get }
    /// Where `storage` is inside the `Persisted`.
    static var storageOffset: Int? { get }
}

extension Persisted: PersistedWrapperType {
    static var field: (any PersistedField)? { storageOffset.map { TypedField<Value>(storageOffset: $0) } }
    static var slotOffset: Int? { MemoryLayout<Persisted<Value>>.offset(of: \Persisted<Value>.slot) }
    static var storageOffset: Int? { MemoryLayout<Persisted<Value>>.offset(of: \Persisted<Value>.storage) }
}

/// One `@Persisted` property of a class (or a `RealmProperty` box): its name (without the
/// wrapper's `_`), where its `Persisted` is in an instance, and how to reach it.
struct FieldInfo {
    /// The name the property is stored under (`propertiesMapping()` applied): what the engine,
    /// its queries and its inputs use.
    let name: String
    /// The Swift property's name (what `value(forKey:)`, `Object(value:)` and Codable use).
    let swiftName: String
    let offset: Int
    /// The offsets of the `Persisted`'s `slot` and `storage` in the instance.
    let slotOffset: Int
    let storageOffset: Int
    let access: any PersistedField
}

/// The `@Persisted` properties of `type`, superclass first, with their offsets in an instance;
/// nil when the runtime cannot list the class's fields.
func persistedFields(of type: Object.Type) -> [FieldInfo]? {
    let mapping = type.propertiesMapping()
    var fields: [FieldInfo] = []
    var located = true
    // `.classType` (raw value 1), spelled by value: the standard library declares its option
    // constants as mutable statics, which strict concurrency refuses to read.
    let listed = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) { name, offset, fieldType, _ in
        if let persisted = fieldType as? any PersistedWrapperType.Type {
            guard let slot = persisted.slotOffset, let storage = persisted.storageOffset, let access = persisted.field
            else {
                located = false
                return false
            }
            let label = String(cString: name)
            let swiftName = label.hasPrefix("_") ? String(label.dropFirst()) : label
            fields.append(
                FieldInfo(
                    name: mapping[swiftName] ?? swiftName, swiftName: swiftName, offset: offset,
                    slotOffset: offset + slot, storageOffset: offset + storage, access: access))
        } else if let box = fieldType as? any BoxType.Type {
            // A `RealmProperty` or `RealmOptional`: a reference to its box, which has no slot
            // to record and whose value is not stored inline (-1 for both).
            let swiftName = String(cString: name)
            fields.append(
                FieldInfo(
                    name: mapping[swiftName] ?? swiftName, swiftName: swiftName, offset: offset,
                    slotOffset: -1, storageOffset: -1, access: box.boxField))
        }
        return true
    }
    return listed && located ? fields : nil
}

/// How many stored properties instances of `type` have (its superclasses' included), or nil
/// when the runtime cannot list them.
func storedPropertyCount(of type: AnyClass) -> Int? {
    var count = 0
    let listed = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) { _, _, _, _ in
        count += 1
        return true
    }
    return listed ? count : nil
}

/// One `@Persisted` property of one live object: its slot in the class, its name, and the
/// address of its `Persisted` (valid while the object is).
struct FieldHandle {
    let slot: Int
    /// The stored name, and the Swift one (`FieldInfo`).
    let name: String
    let swiftName: String
    let field: UnsafeMutableRawPointer
    let access: any PersistedField
}

extension Object {
    /// The `@Persisted` properties of this object, superclass first. The addresses are valid
    /// while the object is alive: use them inside the caller, never keep them.
    final func fieldHandles() -> [FieldHandle] {
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
        return info.fields.enumerated().map { slot, f in
            FieldHandle(slot: slot, name: f.name, swiftName: f.swiftName, field: base + f.offset, access: f.access)
        }
    }

    /// Where the value of an unmanaged object's property is stored, when the class's table
    /// knows the slot of the property whose storage `keyPath` names; nil for a managed object
    /// (its values are in the Realm) or a key path not seen yet.
    @usableFromInline
    final func unmanagedStorage(of keyPath: AnyKeyPath) -> UnsafeMutableRawPointer? {
        guard !hasAccessor, let slot = knownSlot(of: keyPath) else { return nil }
        return storage(slot: slot)
    }

    /// Where the value of the property in `slot` is stored in this object, or nil for a slot
    /// the class does not have.
    @inline(__always)
    private final func storage(slot: Int) -> UnsafeMutableRawPointer? {
        let offset = withInfo { info in info.storageOffsets.indices.contains(slot) ? info.storageOffsets[slot] : nil }
        guard let offset, offset >= 0 else { return nil }
        return UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque()) + offset
    }

    /// Sets the unmanaged value of the property in `slot` (the caller's `Persisted<V>`).
    final func setUnmanagedValue<V>(_ value: V, slot: Int) {
        guard let storage = storage(slot: slot) else {
            preconditionFailure("a @Persisted property of \(Self.className()) does not know its position in the class")
        }
        storage.assumingMemoryBound(to: V.self).pointee = value
    }

    /// Records each property's slot in its `Persisted`: a managed object's reads, and every
    /// write, then find the property without a lookup.
    final func stampSlots() {
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
        // Kept, so the object's later writes find the class's info without a lookup by type.
        let info = self.info
        classInfo = info
        info.slotOffsets.withUnsafeBufferPointer { offsets in
            for slot in offsets.indices where offsets[slot] >= 0 {
                (base + offsets[slot]).storeBytes(of: slot, as: Int.self)
            }
        }
    }
}

extension _Persistable {
    /// The managed value of `object`'s property `name`, as input for `realm` (nil for linking
    /// objects).
    static func _rlmManagedInput(_ object: Object, _ name: String, for realm: Realm?) -> ObjectInput? {
        _rlmGet(object, name)._rlmInput(for: realm)
    }
}
