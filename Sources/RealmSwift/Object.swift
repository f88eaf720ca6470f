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
    /// The object in the Realm, when managed.
    var accessor: DynamicObject?
    /// The Realm managing the object, or nil for an unmanaged object.
    public internal(set) var realm: Realm?
    /// Set on a prototype that records property reads (key path → name).
    var tracer: KeyPathTracer?
    /// The class's info, kept by objects read from a Realm (their property names are found
    /// from it without a lookup by type).
    var classInfo: ClassInfo?
    /// The first failure to read one of the object's properties from its file (a damaged file),
    /// or nil. Such a read answers the property type's empty value (`0`, `""`, nil, an empty
    /// list) and records the reason here, so an empty answer is never taken silently; use
    /// `checkedValue(forKey:)` to get the error thrown instead.
    public internal(set) var readError: RealmError?

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

    /// The name the class is stored under.
    public class var className: String { _realmObjectName() ?? String(describing: self) }

    /// The class's schema, as discovered from its `@Persisted` properties.
    public class func sharedSchema() -> ObjectSchema { ClassInfo.of(self).objectSchema }

    /// The object's schema.
    public var objectSchema: ObjectSchema { ClassInfo.of(type(of: self)).objectSchema }

    /// Whether the object was deleted from its Realm (or the Realm was invalidated).
    public var isInvalidated: Bool { accessor?.isInvalidated ?? false }

    /// Whether the object is managed by a Realm.
    public var isManaged: Bool { accessor != nil }

    // MARK: Key-value coding

    /// The value of a persisted property by name (an `Object` for a link, a `List` for a list).
    public func value(forKey key: String) -> Any? {
        guard let type = ClassInfo.of(Swift.type(of: self)).valueTypes[key] else {
            preconditionFailure("\(Self.className) has no property '\(key)'")
        }
        if accessor != nil { return unwrapped(type._rlmGet(self, key)) }
        return persistedChildren(of: self).first { $0.0 == key }.map { unwrapped($0.1.unmanagedValue) } ?? nil
    }

    /// `value(forKey:)`.
    public func value(forKeyPath keyPath: String) -> Any? { value(forKey: keyPath) }

    /// Sets a persisted property by name from a loosely typed value (inside a write
    /// transaction for a managed object).
    public func setValue(_ value: Any?, forKey key: String) {
        guard let type = ClassInfo.of(Swift.type(of: self)).valueTypes[key] else {
            preconditionFailure("\(Self.className) has no property '\(key)'")
        }
        if let realm, accessor != nil {
            do {
                guard let input = try type._rlmInput(fromAny: value ?? NSNull(), realm: realm) else { return }
                _rlmWrite(key, input)
            } catch {
                precondition(realm.isInWriteTransaction, "Cannot modify managed objects outside of a write transaction.")
                realm.record(error)
            }
            return
        }
        guard let child = persistedChildren(of: self).first(where: { $0.0 == key }), child.1.setUnmanaged(value ?? NSNull()) else {
            preconditionFailure("\(Self.className).\(key) cannot hold \(String(describing: value))")
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
        if let a = lhs.accessor, let b = rhs.accessor { return a == b }
        return lhs === rhs
    }

    /// Hashes managed objects by their identity in the file, unmanaged ones by instance.
    public func hash(into hasher: inout Hasher) {
        if let accessor { hasher.combine(accessor) } else { hasher.combine(ObjectIdentifier(self)) }
    }

    /// The class and its persisted values, for debugging.
    public var description: String {
        if isInvalidated { return "\(Self.className) <invalidated>" }
        let body = persistedChildren(of: self).filter { !($0.1.valueType is any _LinkingObjectsMarker.Type) }.map { name, p in
            let v = accessor != nil ? value(forKey: name) : unwrapped(p.unmanagedValue)
            return "\(name) = \(v.map { String(describing: $0) } ?? "nil")"
        }
        return "\(Self.className) { \(body.joined(separator: "; ")) }"
    }

    // MARK: The accessor (used by @Persisted)

    /// Reads a property of a managed object. A wrong thread or a deleted object is a
    /// programmer error and stops with a message, as in RealmSwift.
    func _rlmRead(_ name: String) -> Value {
        guard let accessor else { preconditionFailure("\(Self.className).\(name) read through an unmanaged object") }
        do {
            if let realm, realm.frozen { return try realm.reading { try accessor.value(forKey: name) } }
            return try accessor.value(forKey: name)
        } catch RealmError.invalidatedObject {
            preconditionFailure("Object has been deleted or invalidated (\(Self.className).\(name)).")
        } catch let error as RealmError where !error.isMisuse {
            // A damaged file: the empty value goes with the error recorded in `readError`.
            recordReadError(error)
            return accessor.objectSchema[name].map(emptyValue(of:)) ?? .null
        } catch {
            preconditionFailure("\(Self.className).\(name): \(error)")
        }
    }

    /// Writes a property of a managed object: outside a write transaction this is a programmer
    /// error; an error from the data (a changed primary key, a value too large) makes the
    /// enclosing `write` throw and roll back.
    func _rlmWrite(_ name: String, _ input: ObjectInput) {
        guard let accessor, let realm else { return }
        realm.refuseFrozenWrite()
        precondition(realm.isInWriteTransaction,
                     "Cannot modify managed objects outside of a write transaction (\(Self.className).\(name)).")
        do { try accessor.setValue(input, forKey: name) } catch { realm.record(error) }
    }

    /// The name of the property stored in `box`, found once per class.
    func _rlmName(of box: AnyObject, at keyPath: AnyKeyPath) -> String {
        let info = classInfo ?? ClassInfo.of(type(of: self))
        if let layout = info.fieldLayout, info.type == type(of: self) {
            // The box's position among the class's offsets names it: no lock, no hashing.
            let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
            let pointer = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
            for i in layout.offsets.indices where base.load(fromByteOffset: layout.offsets[i], as: UnsafeRawPointer?.self) == pointer {
                setName(layout.names[i], box)
                return layout.names[i]
            }
        }
        if let name = info.name(for: keyPath) {
            setName(name, box)
            return name
        }
        let pointer = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
        for f in fieldHandles() where f.box == pointer {
            info.remember(f.name, for: keyPath)
            setName(f.name, box)
            return f.name
        }
        preconditionFailure("a @Persisted property of \(Self.className) was not found by reflection")
    }

    private func setName(_ name: String, _ box: AnyObject) {
        (box as? any NamedBox)?.setName(name)
    }

    /// Makes this object (and the unmanaged objects it links to) the managed object `managed`.
    func _rlmAttach(_ managed: DynamicObject, realm: Realm, visited: inout Set<ObjectIdentifier>) {
        guard visited.insert(ObjectIdentifier(self)).inserted else { return }
        let fields = fieldHandles()
        var linked: [(String, [Object])] = []
        for f in fields {
            f.access.setName(f.box, f.name)
            let links = f.access.links(f.box)
            if !links.isEmpty { linked.append((f.name, links)) }
        }
        accessor = managed
        self.realm = realm
        for (name, links) in linked {
            guard let property = managed.objectSchema[name] else { continue }
            if property.isList {
                guard let list = try? managed.list(forKey: name) else { continue }
                for (i, o) in links.enumerated() where o.accessor == nil {
                    if let d = try? list.object(at: i) { o._rlmAttach(d, realm: realm, visited: &visited) }
                }
            } else if let o = links.first, o.accessor == nil, let d = try? managed.linkedObject(forKey: name) {
                o._rlmAttach(d, realm: realm, visited: &visited)
            }
        }
    }

    /// The object's values as input for `realm`: a link when `realm` manages it, else a nested
    /// object with every persisted property.
    func _rlmObjectInput(for realm: Realm?) -> ObjectInput {
        if let accessor, let realm, self.realm?.dynamicRealm === realm.dynamicRealm { return .value(.link(accessor.key)) }
        return .dictionary(_rlmValues(for: realm))
    }

    /// Every persisted property as input for `realm`.
    func _rlmValues(for realm: Realm?) -> [String: ObjectInput] {
        var values: [String: ObjectInput] = [:]
        let managed = accessor != nil
        for f in fieldHandles() {
            let input = managed ? f.access.managedInput(self, f.name, for: realm) : f.access.unmanagedInput(f.box, for: realm)
            if let input { values[f.name] = input }
        }
        return values
    }

    /// An unmanaged object's persisted properties as input in property order.
    func _rlmUnmanagedArray(for realm: Realm?) -> ObjectInput {
        var values: [ObjectInput] = []
        for f in fieldHandles() {
            if let input = f.access.unmanagedInput(f.box, for: realm) { values.append(input) }
        }
        return .array(values)
    }

    /// Sets unmanaged properties from a dictionary, an array in property order or an object;
    /// returns what did not fit.
    func _rlmSetValues(_ value: Any) -> String? {
        let children = persistedChildren(of: self).filter { !($0.1.valueType is any _LinkingObjectsMarker.Type) }
        if let other = value as? Object {
            for (name, p) in children {
                guard let v = other.value(forKey: name) else { _ = p.setUnmanaged(NSNull()); continue }
                if !p.setUnmanaged(v) { return "\(name) cannot hold \(v)" }
            }
            return nil
        }
        if let dict = value as? [String: Any] {
            for (name, p) in children {
                guard let v = dict[name] else { continue }
                if !p.setUnmanaged(v) { return "\(name) cannot hold \(v)" }
            }
            return nil
        }
        if let array = value as? [Any] {
            guard array.count <= children.count else { return "\(array.count) values for \(children.count) properties" }
            for (v, (name, p)) in zip(array, children) where !p.setUnmanaged(v) { return "\(name) cannot hold \(v)" }
            return nil
        }
        return "a \(type(of: value)) is not a dictionary, an array or an object"
    }
}

extension Object: _RealmElement {
    public static var _rlmPropertyType: PropertyType { .object }
    public class var _rlmObjectType: Object.Type? { self }

    public class func _rlmRead(_ value: Value, realm: Realm) -> Self? {
        guard case .link(let key) = value,
              let managed = try? realm.reading({ try realm.dynamicRealm.object(ofType: className, key: key) }) else { return nil }
        return _rlmMake(managed, realm: realm)
    }

    /// The typed object of a managed dynamic object.
    class func _rlmMake(_ managed: DynamicObject, realm: Realm, info: ClassInfo? = nil) -> Self {
        let o = self.init()
        o.classInfo = info ?? ClassInfo.of(self)
        o.accessor = managed
        o.realm = realm
        return o
    }

    public func _rlmInput(for realm: Realm?) -> ObjectInput { _rlmObjectInput(for: realm) }

    public class func _rlmConvert(_ any: Any) -> Self? {
        if let o = any as? Self { return o }
        guard any is [String: Any] || any is [Any] else { return nil }
        let o = self.init()
        return o._rlmSetValues(any) == nil ? o : nil
    }

    public class func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        if isNull(any) { return .value(.null) }
        if let o = any as? Object {
            guard o is Self else { throw RealmError.invalidInput("a \(type(of: o).className) given for a link to \(className)") }
            return o._rlmInput(for: realm)
        }
        return try _rlmNewObjectInput(fromAny: any, realm: realm)
    }

    /// `_rlmInputValues` where the keys a new object is not given take the defaults of a fresh
    /// instance (evaluated for this object); an existing object (by primary key) gets only the
    /// given values.
    class func _rlmNewObjectInput(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        let input = try _rlmInputValues(fromAny: any, realm: realm)
        guard case .dictionary(var given) = input else { return input }
        if let pk = ClassInfo.of(self).objectSchema.primaryKeyProperty, case .value(let key)? = given[pk.name],
           try realm.dynamicRealm.object(ofType: className, forPrimaryKey: key) != nil {
            return input
        }
        for (k, v) in self.init()._rlmValues(for: realm) where given[k] == nil { given[k] = v }
        return .dictionary(given)
    }

    /// Input for `create` from a dictionary (only the given keys) or an array in property order.
    class func _rlmInputValues(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        let info = ClassInfo.of(self)
        let properties = info.objectSchema.persistedProperties
        if let dict = any as? [String: Any] {
            var values: [String: ObjectInput] = [:]
            for p in properties {
                guard let v = dict[p.name], let type = info.valueTypes[p.name] else { continue }
                if let input = try type._rlmInput(fromAny: v, realm: realm) { values[p.name] = input }
            }
            return .dictionary(values)
        }
        if let array = any as? [Any] {
            guard array.count <= properties.count else {
                throw RealmError.invalidInput("\(array.count) values given for the \(properties.count) properties of \(className)")
            }
            var values: [String: ObjectInput] = [:]
            for (v, p) in zip(array, properties) {
                guard let type = info.valueTypes[p.name] else { continue }
                if let input = try type._rlmInput(fromAny: v, realm: realm) { values[p.name] = input }
            }
            return .dictionary(values)
        }
        throw RealmError.invalidInput("a \(type(of: any)) cannot make a \(className): give a dictionary, an array or an object")
    }
}

/// Lets a `PersistedBox` learn its name without knowing its value type.
protocol NamedBox: AnyObject { func setName(_ name: String) }
extension PersistedBox: NamedBox { func setName(_ name: String) { self.name = name } }

/// Marks `LinkingObjects` (computed, never stored or given as input).
public protocol _LinkingObjectsMarker {}

/// An optional's value, or nil (so `value(forKey:)` returns `nil`, not `Optional(nil)`).
func unwrapped(_ any: Any) -> Any? {
    let m = Mirror(reflecting: any)
    if m.displayStyle == .optional { return m.children.first?.value }
    return any
}
