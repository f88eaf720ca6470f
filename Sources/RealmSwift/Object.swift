import Foundation

/// The base class of a Realm model: `final class Dog: Object { @Persisted var name = "" }`.
///
/// An object made with `Dog()` or `Dog(value:)` is *unmanaged*: a plain Swift object that may
/// cross threads. `realm.add(_:)` makes it *managed* (with the unmanaged objects it links to);
/// objects read from a Realm are managed. A managed object always shows its Realm's current
/// version, reads and writes go to the Realm, it is confined to the Realm's thread, and it can
/// only be changed inside a write transaction (changing it outside one stops the program with
/// a message, as RealmSwift does). After `realm.delete(_:)`, `isInvalidated` is true.
///
/// The class is stored under its Swift name; override `_realmObjectName()` to store it under
/// another (several Swift classes of a migration history stored as one class). A subclass of a
/// model keeps its parent's properties and is a class of its own (queries are not polymorphic).
open class Object: Hashable, CustomStringConvertible {
    /// How the object is read and written in its Realm, when managed: the engine's accessor
    /// (the same one `DynamicObject` uses), held inline so a managed object is one allocation.
    /// `@exclusivity(unchecked)`: reads only update its position cache, and a managed object is
    /// confined to its Realm's thread.
    /// Set only through `manage(_:)`, which keeps `hasAccessor` in step.
    // The members the typed layer reads per property access are `final`: an open class's
    // members are otherwise called through its vtable. Those it reads or sets per object or per
    // access are `@exclusivity(unchecked)`: a runtime exclusivity check costs a call each time,
    // and a managed object is confined to its Realm's thread (an unmanaged one is a plain
    // object, shared at its owner's risk like any other).
    @exclusivity(unchecked) final private(set) var managed: ObjectAccessor?
    /// `managed != nil`, kept apart so a property read can test it without copying the
    /// accessor (not an observer of `managed`: reads change the accessor's cache in place, and
    /// would call it each time).
    @exclusivity(unchecked) final private(set) var hasAccessor = false

    /// Makes the object managed through `accessor`.
    final func manage(_ accessor: consuming ObjectAccessor) {
        hasAccessor = true
        managed = .some(accessor)
    }

    /// Makes this managed object, which nobody holds any more, the object of `accessor` in
    /// the same Realm (see `Results.Iterator`): what it recorded of its previous object goes.
    final func recycle(as accessor: consuming ObjectAccessor) {
        managed = .some(accessor)
        rarelySet = nil
    }

    /// Makes the object managed through `accessor` (or unmanaged with nil).
    final func manage(_ accessor: consuming ObjectAccessor?) {
        // Tested by pattern: `!= nil` would copy the accessor (a retain and a release).
        if case .none = accessor { hasAccessor = false } else { hasAccessor = true }
        managed = accessor
    }
    /// The Realm managing the object, or nil for an unmanaged object.
    @exclusivity(unchecked) public final internal(set) var realm: Realm? {
        didSet {
            readsFrozenRealm = realm?.frozen ?? false
            // Every path that manages an object sets its accessor, then its Realm: the boxes of
            // `RealmProperty` properties are bound once both are known.
            if hasAccessor { bindBoxes() }
        }
    }
    /// `realm?.frozen`, kept so a property read does not retain the Realm to ask.
    @exclusivity(unchecked) final private(set) var readsFrozenRealm = false
    /// Set on a prototype that records property reads (key path → name); the prototype's
    /// properties then know their slots.
    final var tracer: KeyPathTracer? {
        get { rarelySet?.tracer }
        set {
            rarelyUsed().tracer = newValue
            if newValue != nil { stampSlots() }
        }
    }
    /// What few objects need (a tracer, a read error), out of line: every object made pays for
    /// its stored properties' initialisation and destruction, one optional reference here.
    @exclusivity(unchecked) final private var rarelySet: RarelySet?
    private final class RarelySet {
        var tracer: KeyPathTracer?
        var readError: RealmError?
    }
    private final func rarelyUsed() -> RarelySet {
        if let rarelySet { return rarelySet }
        let made = RarelySet()
        rarelySet = made
        return made
    }
    /// The class's info, kept by managed objects (their property names are found from it
    /// without a lookup by type).
    final var classInfo: ClassInfo? {
        get { classInfoRef?.takeUnretainedValue() }
        set { classInfoRef = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// `classInfo`, not counted: every `ClassInfo` handed out lives as long as the process
    /// (`ClassInfo.of` registers each one it returns and never removes it), and each property
    /// access would otherwise retain and release it (see `withInfo`).
    @exclusivity(unchecked) final private var classInfoRef: Unmanaged<ClassInfo>?

    /// The object in the Realm as a dynamic object, when managed (setting it manages this
    /// object as that one).
    var accessor: RealmEngine.DynamicObject? {
        get { managed.map(RealmEngine.DynamicObject.init) }
        set { manage(newValue?.accessor) }
    }

    /// The class's info.
    final var info: ClassInfo {
        if let classInfo, classInfo.type == type(of: self) { return classInfo }
        let found = ClassInfo.of(type(of: self))
        // Kept: an unmanaged object's later property accesses then find it without a lookup.
        classInfo = found
        return found
    }

    /// `body` applied to the class's info, borrowed without retaining it (the path of every
    /// property access).
    @inline(__always)
    final func withInfo<R>(_ body: (ClassInfo) -> R) -> R {
        if let classInfoRef {
            return classInfoRef._withUnsafeGuaranteedRef { known in
                known.type == type(of: self) ? body(known) : body(info)
            }
        }
        return body(info)
    }

    /// The slot of the property whose storage `keyPath` names, when the class's table knows it.
    /// Not generic, on purpose: a closure capturing the typed key path would instantiate its
    /// generic type's metadata on every property access.
    @inline(__always)
    final func knownSlot(of keyPath: AnyKeyPath) -> Int? {
        withInfo { $0.keyPathSlots.slot(of: keyPath) }
    }

    /// The name of the property in `slot` (a `Persisted`'s recorded position).
    final func propertyName(slot: Int) -> String {
        withInfo { info in
            guard info.names.indices.contains(slot) else {
                preconditionFailure(
                    "a @Persisted property of \(Self.className()) does not know its position in the class")
            }
            return info.names[slot]
        }
    }
    /// The Swift name of the property in `slot` (its stored name unless `propertiesMapping()`
    /// renames it).
    final func swiftPropertyName(slot: Int) -> String {
        withInfo { info in info.fields.indices.contains(slot) ? info.fields[slot].swiftName : propertyName(slot: slot) }
    }

    /// The first failure to read one of the object's properties from its file (a damaged file),
    /// or nil. Such a read answers the property type's empty value (`0`, `""`, nil, an empty
    /// list) and records the reason here, so an empty answer is never taken silently; use
    /// `checkedValue(forKey:)` to get the error thrown instead.
    public internal(set) var readError: RealmError? {
        get { rarelySet?.readError }
        set { rarelyUsed().readError = newValue }
    }

    /// An unmanaged object with every property at its default.
    public required init() {}

    /// An unmanaged object whose properties are taken from `value`: a dictionary of property
    /// name → value (missing keys keep their defaults, unknown keys are ignored), an array in
    /// property order, or another object. Nested dictionaries and arrays make linked objects
    /// and lists. A value that does not fit its property stops the program with a message:
    /// use `realm.create(_:value:)` (which makes the enclosing `write` throw) for data you do
    /// not control.
    public convenience init(value: Any) {
        self.init()
        if let error = _rlmSetValues(value) { preconditionFailure("\(Self.self)(value:): \(error)") }
    }

    /// The name the class is stored under; nil (the default) keeps the Swift class name.
    open class func _realmObjectName() -> String? { nil }

    /// The primary key property's name, for models that name it this way (Realm's older
    /// `@objc dynamic` models) rather than with `@Persisted(primaryKey: true)`; nil by default.
    /// A name that is not a `@Persisted` property of the class makes opening a Realm with it
    /// fail with `RealmError.invalidSchema`.
    open class func primaryKey() -> String? { nil }

    /// The properties to index, for models that name them this way rather than with
    /// `@Persisted(indexed: true)`; a name that is not a `@Persisted` property fails as for
    /// `primaryKey()`.
    open class func indexedProperties() -> [String] { [] }

    /// The properties never stored. Only `@Persisted` properties are ever stored, so this is
    /// accepted for ported code and must not name a `@Persisted` one (opening a Realm with the
    /// class then fails with `RealmError.invalidSchema`).
    open class func ignoredProperties() -> [String] { [] }

    /// The names the class's properties are stored under, by Swift property name, for the
    /// properties stored under another name than their own (a file shared with other SDKs,
    /// `first_name` for `firstName`):
    ///
    /// ```swift
    /// override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }
    /// ```
    ///
    /// Code keeps using the Swift names: key-value coding, `Object(value:)`, `create(_:value:)`,
    /// queries (`"firstName == 'A'"`, `where { $0.firstName == "A" }`), sorting, aggregates and
    /// observed key paths are translated; the schema (`objectSchema`), the dynamic API and the
    /// file use the stored names. A name that is not a stored property of the class makes
    /// opening a Realm with it fail with `RealmError.invalidSchema`. Empty by default.
    open class func propertiesMapping() -> [String: String] { [:] }

    /// True to leave the class out of the schema of a Realm opened without `objectTypes`
    /// (the classes discovered in the process), as Realm Swift's hook of the same name does:
    /// for classes that are never stored there, such as deliberately invalid test models.
    /// Naming the class in `objectTypes` still uses it. False by default.
    open class func _realmIgnoreClass() -> Bool { false }

    /// The name the class is stored under (its Swift name, or `_realmObjectName()`). A method,
    /// as in Realm Swift: `Dog.className()`.
    public class func className() -> String { _realmObjectName() ?? String(describing: self) }

    /// The class's schema, as discovered from its `@Persisted` properties.
    public class func sharedSchema() -> ObjectSchema { ClassInfo.of(self).objectSchema }

    /// The object's schema.
    public var objectSchema: ObjectSchema { ClassInfo.of(type(of: self)).objectSchema }

    /// Whether the object was deleted from its Realm (or the Realm was invalidated).
    public var isInvalidated: Bool { managed?.isInvalidated ?? false }

    /// Encodes every `@Persisted` property of an `Encodable` type under its name — read from
    /// its Realm for a managed object, else the object's own values; linking objects are left
    /// out. A model declaring `Codable` (`class Dog: Object, Codable`) encodes through this
    /// (and decodes through its `@Persisted` properties); one that writes its own
    /// `encode(to:)` overrides it.
    open func encode(to encoder: Encoder) throws {
        try encodePersistedProperties(to: encoder)
    }

    /// Whether the object is managed by a Realm.
    public var isManaged: Bool { managed != nil }

    // MARK: Key-value coding

    /// The value of a persisted property by name (an `Object` for a link, a `List` for a
    /// list, an enum's raw value as Realm Swift answers it: `object["kind"] as! Int`).
    public func value(forKey key: String) -> Any? {
        let value = typedValue(forKey: key)
        if let e = value as? any RealmEnum { return e.rawValue }
        return value
    }

    /// The value of a persisted property by name as its Swift type (an enum as itself).
    func typedValue(forKey key: String) -> Any? {
        let info = ClassInfo.of(Swift.type(of: self))
        let name = info.storedNames[key] ?? key
        guard let type = info.valueTypes[name] else {
            preconditionFailure("\(Self.className()) has no property '\(key)'")
        }
        if managed != nil { return unwrapped(type._rlmGet(self, name)) }
        return fieldHandles().first { $0.name == name }.map { unwrapped($0.access.unmanagedValue($0.field)) } ?? nil
    }

    /// `value(forKey:)`.
    public func value(forKeyPath keyPath: String) -> Any? { value(forKey: keyPath) }

    /// Sets a persisted property by name from a loosely typed value (inside a write
    /// transaction for a managed object).
    public func setValue(_ value: Any?, forKey swiftKey: String) {
        let info = ClassInfo.of(Swift.type(of: self))
        let key = info.storedNames[swiftKey] ?? swiftKey
        guard let type = info.valueTypes[key] else {
            preconditionFailure("\(Self.className()) has no property '\(key)'")
        }
        if let realm, managed != nil {
            do {
                guard let input = try type._rlmInput(fromAny: value ?? NSNull(), realm: realm) else { return }
                _rlmWrite(key, input)
            } catch {
                precondition(
                    realm.isInWriteTransaction, "Cannot modify managed objects outside of a write transaction.")
                realm.record(error)
            }
            return
        }
        guard let f = fieldHandles().first(where: { $0.name == key }), f.access.setUnmanaged(f.field, value ?? NSNull())
        else {
            preconditionFailure("\(Self.className()).\(key) cannot hold \(String(describing: value))")
        }
    }

    /// `setValue(_:forKey:)`.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, forKey: keyPath) }

    /// A persisted property by name.
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }

    // MARK: Identity

    /// Managed objects are equal when they are the same object of the same Realm; unmanaged
    /// objects only to themselves.
    public static func == (lhs: Object, rhs: Object) -> Bool {
        if let a = lhs.managed, let b = rhs.managed {
            return a.realm === b.realm && a.classIndex == b.classIndex && a.key == b.key
        }
        return lhs === rhs
    }

    /// Hashes managed objects by their identity in the file, unmanaged ones by instance.
    public func hash(into hasher: inout Hasher) {
        if let managed {
            hasher.combine(managed.classIndex)
            hasher.combine(managed.key)
        } else {
            hasher.combine(ObjectIdentifier(self))
        }
    }

    /// The class and its persisted values, for debugging.
    public var description: String {
        if isInvalidated { return "\(Self.className()) <invalidated>" }
        let body = fieldHandles().filter { !$0.access.isLinkingObjects }.map { f in
            let v = managed != nil ? value(forKey: f.swiftName) : unwrapped(f.access.unmanagedValue(f.field))
            return "\(f.swiftName) = \(v.map { String(describing: $0) } ?? "nil")"
        }
        return "\(Self.className()) { \(body.joined(separator: "; ")) }"
    }

    // MARK: The accessor (used by @Persisted)

    /// `read` applied to the managed object's accessor (in place: reads update its position
    /// cache), under the frozen Realm's lock when the object is frozen; nil when unmanaged.
    @inline(__always)
    private final func readManaged(_ read: (inout ObjectAccessor) throws -> Value?) throws -> Value? {
        if readsFrozenRealm, let realm { return try realm.reading { try managed?.reading(read) } }
        return try managed?.reading(read)
    }

    /// `_rlmRead(_:)` of the property in `slot`, stored in `column`: without a lookup by name.
    /// Any failure is left to the read by name, which reports it as it does.
    final func _rlmRead(column: Int, slot: Int) -> Value {
        if let value = try? readManaged({ try $0.value(column: column) }) { return value }
        return _rlmRead(propertyName(slot: slot))
    }

    /// The slot and column of a managed object's property whose storage `keyPath` names, when
    /// the class's table knows the key path and the property is stored (not linking objects).
    /// The column is the property's position among the stored ones: the file's class is the
    /// model's (`Realm.check`), in the same order.
    @usableFromInline
    final func managedSlot(of keyPath: AnyKeyPath) -> (slot: Int, column: Int)? {
        guard hasAccessor, let slot = knownSlot(of: keyPath) else { return nil }
        let column = withInfo { $0.columns.indices.contains(slot) ? $0.columns[slot] : -1 }
        return column >= 0 ? (slot, column) : nil
    }

    /// Reads a property of a managed object. A wrong thread or a deleted object is a
    /// programmer error and stops with a message, as in RealmSwift.
    final func _rlmRead(_ name: String) -> Value {
        guard hasAccessor else { preconditionFailure("\(Self.className()).\(name) read through an unmanaged object") }
        do {
            guard let value = try readManaged({ try $0.persistedValue(forKey: name) }) else {
                preconditionFailure("\(Self.className()).\(name) is not a persisted property of the Realm's class")
            }
            return value
        } catch RealmError.invalidatedObject {
            preconditionFailure("Object has been deleted or invalidated (\(Self.className()).\(name)).")
        } catch let error as RealmError where !error.isMisuse {
            // A damaged file: the empty value goes with the error recorded in `readError`.
            recordReadError(error)
            return accessor?.objectSchema[name].map(emptyValue(of:)) ?? .null
        } catch {
            preconditionFailure("\(Self.className()).\(name): \(error)")
        }
    }

    /// Writes a property of a managed object: outside a write transaction this is a programmer
    /// error; an error from the data (a changed primary key, a value too large) makes the
    /// enclosing `write` throw and roll back. Returns whether the value was written.
    @discardableResult
    final func _rlmWrite(_ name: String, _ input: ObjectInput) -> Bool {
        guard let managed, let realm else { return false }
        realm.refuseFrozenWrite()
        precondition(
            realm.isInWriteTransaction,
            "Cannot modify managed objects outside of a write transaction (\(Self.className()).\(name)).")
        do {
            try managed.setValue(input, column: try managed.column(name))
            return true
        } catch {
            realm.record(error)
            return false
        }
    }

    /// The object's values as input for `realm`: a link when `realm` manages it, else a nested
    /// object with every persisted property.
    func _rlmObjectInput(for realm: Realm?) -> ObjectInput {
        if let managed, let realm, self.realm?.dynamicRealm === realm.dynamicRealm { return .value(.link(managed.key)) }
        return .dictionary(_rlmValues(for: realm))
    }

    /// Every persisted property as input for `realm`.
    func _rlmValues(for realm: Realm?) -> [String: ObjectInput] {
        var values: [String: ObjectInput] = [:]
        let types = info.valueTypes
        for f in fieldHandles() {
            let input: ObjectInput?
            if managed != nil {
                input = types[f.name].flatMap { $0._rlmManagedInput(self, f.name, for: realm) }
            } else {
                input = f.access.unmanagedInput(f.field, for: realm)
            }
            if let input { values[f.name] = input }
        }
        return values
    }

    /// An unmanaged object's persisted properties as input in property order.
    func _rlmUnmanagedArray(for realm: Realm?) -> ObjectInput {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        return withInfo { info in
            // In place: a copy of each field's description would retain its name.
            info.fields.withUnsafeBufferPointer { fields in
                var values: [ObjectInput] = []
                values.reserveCapacity(fields.count)
                for i in fields.indices {
                    if let input = fields[i].access.unmanagedInput(base + fields[i].offset, for: realm) {
                        values.append(input)
                    }
                }
                return .array(values)
            }
        }
    }

    /// Sets unmanaged properties from a dictionary, an array in property order or an object;
    /// returns what did not fit.
    func _rlmSetValues(_ value: Any) -> String? {
        let fields = fieldHandles().filter { !$0.access.isLinkingObjects }
        if let other = value as? Object {
            for f in fields {
                guard let v = other.value(forKey: f.swiftName) else {
                    _ = f.access.setUnmanaged(f.field, NSNull())
                    continue
                }
                if !f.access.setUnmanaged(f.field, v) { return "\(f.name) cannot hold \(v)" }
            }
            return nil
        }
        if let dict = value as? [String: Any] {
            for f in fields {
                guard let v = dict[f.swiftName] ?? dict[f.name] else { continue }
                if !f.access.setUnmanaged(f.field, v) { return "\(f.name) cannot hold \(v)" }
            }
            return nil
        }
        if let array = value as? [Any] {
            guard array.count <= fields.count else { return "\(array.count) values for \(fields.count) properties" }
            for (v, f) in zip(array, fields) where !f.access.setUnmanaged(f.field, v) {
                return "\(f.name) cannot hold \(v)"
            }
            return nil
        }
        return "a \(type(of: value)) is not a dictionary, an array or an object"
    }
}

extension Object: _RealmElement {
    public static var _rlmPropertyType: PropertyType { .object }
    public class var _rlmObjectType: Object.Type? { self }

    public class func _rlmRead(_ value: Value, realm: Realm) -> Self? {
        // A `DynamicObject` has no class of its own: a collection of them names the target
        // class of each link it reads (`Value.namingLinkClass`).
        if self == DynamicObject.self, case .typedLink(let link) = value {
            return DynamicObject.linked(link, realm: realm) as? Self
        }
        guard case .link(let key) = value,
            let managed = try? realm.reading({ try realm.dynamicRealm.object(ofType: className(), key: key) })
        else { return nil }
        return _rlmMake(managed, realm: realm)
    }

    /// The typed object of a managed dynamic object.
    class func _rlmMake(_ managed: RealmEngine.DynamicObject, realm: Realm, info: ClassInfo? = nil) -> Self {
        _rlmMake(managed.accessor, realm: realm, info: info)
    }

    /// The typed object of a managed object's accessor: one allocation, its properties read
    /// from the Realm when asked for.
    class func _rlmMake(_ managed: consuming ObjectAccessor, realm: Realm, info: ClassInfo? = nil) -> Self {
        let o = self.init()
        if self == DynamicObject.self {
            // Its class is the stored one, read through the accessor: no model to check.
            o.manage(managed)
            o.realm = realm
            return o
        }
        // No slots are stamped: a property finds its slot through the class's key-path table
        // (`KeyPathSlots`), and stamps them itself on a key path's first use. Properties are
        // read by column number, so the class is checked against the file's (once per Realm):
        // a class reached only through a link was not, and read another property's column.
        o.classInfo = info ?? realm.check(self)
        o.manage(managed)
        o.realm = realm
        return o
    }

    /// An object given as a value (`create(_:value:)`, `Object(value:)`, a whole collection):
    /// a link when `realm` manages it; an embedded object is copied by its values, whichever
    /// parent it has (only assigning one, `_rlmAddedInput`, names the object itself).
    public func _rlmInput(for realm: Realm?) -> ObjectInput {
        self is EmbeddedObject ? .dictionary(_rlmValues(for: realm)) : _rlmObjectInput(for: realm)
    }

    /// An unmanaged object stored into a managed list or link of `realm` is added first (this
    /// instance and the unmanaged objects it reaches become managed), then linked by key. An
    /// embedded one is given by its values, which make a new embedded object of the parent.
    public func _rlmAddedInput(for realm: Realm?) -> ObjectInput {
        guard managed == nil, let realm, realm.isInWriteTransaction, !(self is EmbeddedObject) else {
            return _rlmObjectInput(for: realm)
        }
        do { return .value(.link(try realm.addGraph(self, update: .error))) } catch {
            realm.record(error)
            return .value(.null)
        }
    }

    public class func _rlmConvert(_ any: Any) -> Self? {
        if let o = any as? Self { return o }
        guard any is [String: Any] || any is [Any] else { return nil }
        let o = self.init()
        return o._rlmSetValues(any) == nil ? o : nil
    }

    public class func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        if isNull(any) { return .value(.null) }
        if let o = any as? Object {
            guard o is Self else {
                throw RealmError.invalidInput("a \(type(of: o).className()) given for a link to \(className())")
            }
            return o._rlmInput(for: realm)
        }
        return try _rlmNewObjectInput(fromAny: any, realm: realm)
    }

    /// `_rlmInputValues` where the keys a new object is not given take the defaults of a fresh
    /// instance (evaluated for this object); an existing object (by primary key) gets only the
    /// given values.
    class func _rlmNewObjectInput(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        let input = try _rlmInputValues(fromAny: any, realm: realm)
        guard case .dictionary(let given) = input else { return input }
        return try _rlmAddingDefaults(to: given, realm: realm)
    }

    /// `given` (values by stored name) for a new object of this class, the keys it does not give
    /// taking the defaults of a fresh instance; for an existing object (by primary key) only
    /// `given`. Shared by the typed `create` and the dynamic API's (`DynamicInput`).
    class func _rlmAddingDefaults(to given: [String: ObjectInput], realm: Realm) throws -> ObjectInput {
        if let pk = ClassInfo.of(self).objectSchema.primaryKeyProperty, case .value(let key)? = given[pk.name],
            try realm.dynamicRealm.object(ofType: className(), forPrimaryKey: key) != nil
        {
            return .dictionary(given)
        }
        var values = given
        for (k, v) in self.init()._rlmValues(for: realm) where values[k] == nil { values[k] = v }
        return .dictionary(values)
    }

    /// Input for `create` from a dictionary (only the given keys) or an array in property order.
    class func _rlmInputValues(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        let info = ClassInfo.of(self)
        let properties = info.objectSchema.persistedProperties
        if let dict = any as? [String: Any] {
            var values: [String: ObjectInput] = [:]
            for p in properties {
                // Given under the Swift name (or the stored one, as the dynamic API takes it).
                guard let v = dict[info.swiftNames[p.name] ?? p.name] ?? dict[p.name],
                    let type = info.valueTypes[p.name]
                else { continue }
                if let input = try type._rlmInput(fromAny: v, realm: realm) { values[p.name] = input }
            }
            return .dictionary(values)
        }
        if let array = any as? [Any] {
            guard array.count <= properties.count else {
                throw RealmError.invalidInput(
                    "\(array.count) values given for the \(properties.count) properties of \(className())")
            }
            var values: [String: ObjectInput] = [:]
            for (v, p) in zip(array, properties) {
                guard let type = info.valueTypes[p.name] else { continue }
                if let input = try type._rlmInput(fromAny: v, realm: realm) { values[p.name] = input }
            }
            return .dictionary(values)
        }
        throw RealmError.invalidInput(
            "a \(type(of: any)) cannot make a \(className()): give a dictionary, an array or an object")
    }
}

/// Marks `LinkingObjects` (computed, never stored or given as input).
public protocol _LinkingObjectsMarker {
    /// The link or list property of the linking class that points here.
    var _rlmOriginProperty: String { get }
}

/// An optional's value, or nil (so `value(forKey:)` returns `nil`, not `Optional(nil)`).
func unwrapped(_ any: Any) -> Any? {
    let m = Mirror(reflecting: any)
    if m.displayStyle == .optional { return m.children.first?.value }
    return any
}

extension ObjectAccessor {
    /// `read` applied to this accessor in place (reads update its position cache).
    @inline(__always)
    mutating func reading(_ read: (inout ObjectAccessor) throws -> Value?) rethrows -> Value? { try read(&self) }
}
