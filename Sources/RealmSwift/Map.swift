import Foundation

/// The key type of a `Map`: `String`, as in RealmSwift.
public protocol _RealmMapKey: Hashable {
    /// The key as text.
    var _rlmKey: String { get }
    /// The key of a stored text.
    init(_rlmKey: String)
}

extension String: _RealmMapKey {
    public var _rlmKey: String { self }
    public init(_rlmKey key: String) { self = key }
}

/// The value type of a `Map`: a scalar (`Map<String, Int>`), an optional scalar
/// (`Map<String, Int?>`) or an optional object (`Map<String, Dog?>`: a value whose object is
/// deleted becomes nil, so object values are always optional, as in RealmSwift).
public protocol _RealmMapValue {
    /// The stored type of the values.
    static var _rlmMapElementType: PropertyType { get }
    /// Whether a value may be nil.
    static var _rlmMapValueIsOptional: Bool { get }
    /// The linked class, for objects.
    static var _rlmMapObjectType: Object.Type? { get }
    /// A stored value as `Self`; nil when the type cannot represent it.
    static func _rlmMapRead(_ value: Value, realm: Realm) -> Self?
    /// The input that stores this value (an unmanaged object is added to `realm` first).
    func _rlmMapInput(for realm: Realm?, adding: Bool) -> ObjectInput
    /// Converts a loosely typed value; nil when it does not fit.
    static func _rlmMapConvert(_ any: Any) -> Self?
    /// The object this value links to, if any.
    var _rlmMapObject: Object? { get }
}

extension _RealmMapValue where Self: _RealmElement {
    public static var _rlmMapElementType: PropertyType { _rlmPropertyType }
    public static var _rlmMapValueIsOptional: Bool { false }
    public static var _rlmMapObjectType: Object.Type? { _rlmObjectType }
    public static func _rlmMapRead(_ value: Value, realm: Realm) -> Self? { _rlmRead(value, realm: realm) }
    public func _rlmMapInput(for realm: Realm?, adding: Bool) -> ObjectInput {
        adding ? _rlmAddedInput(for: realm) : _rlmInput(for: realm)
    }
    public static func _rlmMapConvert(_ any: Any) -> Self? { _rlmConvert(any) }
    public var _rlmMapObject: Object? { self as? Object }
}

extension Optional: _RealmMapValue where Wrapped: _RealmElement {
    public static var _rlmMapElementType: PropertyType { Wrapped._rlmPropertyType }
    public static var _rlmMapValueIsOptional: Bool { true }
    public static var _rlmMapObjectType: Object.Type? { Wrapped._rlmObjectType }
    public static func _rlmMapRead(_ value: Value, realm: Realm) -> Self? {
        if value.isNull { return .some(nil) }
        return Wrapped._rlmRead(value, realm: realm).map { .some($0) }
    }
    public func _rlmMapInput(for realm: Realm?, adding: Bool) -> ObjectInput {
        guard let wrapped = self else { return .value(.null) }
        return adding ? wrapped._rlmAddedInput(for: realm) : wrapped._rlmInput(for: realm)
    }
    public static func _rlmMapConvert(_ any: Any) -> Self? {
        if isNull(any) { return .some(nil) }
        return Wrapped._rlmConvert(any).map { .some($0) }
    }
    public var _rlmMapObject: Object? { self.flatMap { $0 as? Object } }
}

extension Bool: _RealmMapValue {}
extension Int: _RealmMapValue {}
extension Int8: _RealmMapValue {}
extension Int16: _RealmMapValue {}
extension Int32: _RealmMapValue {}
extension Int64: _RealmMapValue {}
extension Float: _RealmMapValue {}
extension Double: _RealmMapValue {}
extension String: _RealmMapValue {}
extension Date: _RealmMapValue {}
extension Data: _RealmMapValue {}
extension ObjectId: _RealmMapValue {}
extension UUID: _RealmMapValue {}
extension Decimal128: _RealmMapValue {}

/// A dictionary property: `@Persisted var attrs: Map<String, String>`, of optional values
/// `Map<String, Int?>`, of objects `Map<String, Dog?>`.
///
/// Keys are strings; a key that starts with `$` or contains `.` is refused, as Realm refuses
/// it (the write throws). Reading a key that is not there answers nil, as in RealmSwift.
/// Setting a key to nil (`map["k"] = nil`) removes it. An unmanaged map keeps its entries in
/// memory; a managed map is live and changes only inside a write transaction.
public final class Map<Key: _RealmMapKey, Value: _RealmMapValue>: Sequence, CustomStringConvertible {
    enum Storage {
        case unmanaged([Key: Value])
        case managed(DynamicMap, Realm)
        /// A dictionary nested in a Mixed property (`AnyRealmValue.dictionary` read from a
        /// managed object; only for `Map<String, AnyRealmValue>`): see `MixedSlot`.
        case inMixed(MixedSlot, Realm)
    }
    var storage: Storage

    /// An empty, unmanaged map.
    public init() { storage = .unmanaged([:]) }

    init(managed: DynamicMap, realm: Realm) { storage = .managed(managed, realm) }

    init(inMixed slot: MixedSlot, realm: Realm) { storage = .inMixed(slot, realm) }

    /// The Realm managing the map, or nil.
    public var realm: Realm? {
        switch storage {
        case .unmanaged: return nil
        case .managed(_, let realm), .inMixed(_, let realm): return realm
        }
    }

    /// Whether the map can no longer be used: its object was deleted, or (nested in a Mixed)
    /// the Mixed no longer holds it. An unmanaged map never is.
    public var isInvalidated: Bool {
        switch storage {
        case .unmanaged: return false
        case .managed(let map, let realm): return realm.reading { map.isInvalidated }
        case .inMixed(let slot, let realm): return realm.reading { slot.isInvalidated(list: false) }
        }
    }

    /// The entries of a dictionary nested in a Mixed, as stored.
    private func nestedEntries(_ slot: MixedSlot, _ realm: Realm, _ what: String) -> [String: RealmEngine.Value] {
        realm.verifyThread()
        do { return try realm.reading { try slot.entries() } } catch {
            // Gone (its object deleted or the Mixed replaced): empty, with `isInvalidated` true.
            guard slot.isInvalidated(list: false) else { preconditionFailure("\(slot.description).\(what): \(error)") }
            return [:]
        }
    }

    /// A value of a dictionary nested in a Mixed: a list or dictionary in it is itself managed.
    private static func nestedValue(_ value: RealmEngine.Value, _ key: String, _ slot: MixedSlot, _ realm: Realm)
        -> Value
    {
        let decoded = AnyRealmValue._rlmValue(value, realm: realm, at: slot.child(.key(key)))
        guard let typed = decoded as? Value else {
            preconditionFailure(
                "a dictionary nested in a Mixed is a Map<String, AnyRealmValue>, not a Map<\(Key.self), \(Value.self)>")
        }
        return typed
    }

    private func read<T>(_ what: String, _ body: (DynamicMap, Realm) throws -> T) -> T {
        guard case .managed(let map, let realm) = storage else {
            preconditionFailure("an unmanaged Map is read directly")
        }
        realm.verifyThread()
        do { return try realm.reading { try body(map, realm) } } catch {
            preconditionFailure("Map<\(Key.self), \(Value.self)>.\(what): \(error)")
        }
    }

    private static func decoded(_ value: RealmEngine.Value, _ key: String, _ map: DynamicMap, _ realm: Realm) throws
        -> Value
    {
        // A list or dictionary in a `Map<String, AnyRealmValue>` is managed at its key, as in
        // Realm Swift (the type is asked first: other maps pay nothing).
        if Value.self == AnyRealmValue.self,
            let nested = AnyRealmValue._rlmNested(
                value, realm: realm, owner: map.ownerObject, property: map.property.name,
                step: .key(key)) as? Value
        {
            return nested
        }
        guard let decoded = Value._rlmMapRead(value.namingLinkClass(for: Value.self, map.property), realm: realm) else {
            throw unreadableElement(value, as: Value.self, at: "\(map.property.name)['\(key)']", in: realm)
        }
        return decoded
    }

    /// Number of entries.
    public var count: Int {
        switch storage {
        case .unmanaged(let entries): return entries.count
        case .managed: return read("count") { map, _ in try map.count() }
        case .inMixed(let slot, let realm): return nestedEntries(slot, realm, "count").count
        }
    }

    /// Whether the map is empty.
    public var isEmpty: Bool { count == 0 }

    /// The keys (a managed map's in Realm's order, by UTF-8 bytes).
    public var keys: [Key] {
        switch storage {
        case .unmanaged(let entries): return Array(entries.keys)
        case .managed: return read("keys") { map, _ in try map.keys().map(Key.init(_rlmKey:)) }
        case .inMixed(let slot, let realm):
            return RealmEngine.Value.map(nestedEntries(slot, realm, "keys")).sortedEntries.map { Key(_rlmKey: $0.key) }
        }
    }

    /// The values, in the order of `keys`.
    public var values: [Value] { entries.map(\.value) }

    /// Every entry (a managed map's in key order).
    public var entries: [(key: Key, value: Value)] {
        switch storage {
        case .unmanaged(let entries): return entries.map { (key: $0.key, value: $0.value) }
        case .managed:
            return read("entries") { map, realm in
                try RealmEngine.Value.map(try map.entries()).sortedEntries.map { entry in
                    (key: Key(_rlmKey: entry.key), value: try Self.decoded(entry.value, entry.key, map, realm))
                }
            }
        case .inMixed(let slot, let realm):
            return RealmEngine.Value.map(nestedEntries(slot, realm, "entries")).sortedEntries.map { entry in
                (key: Key(_rlmKey: entry.key), value: Self.nestedValue(entry.value, entry.key, slot, realm))
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> { entries.makeIterator() }

    /// The value of `key`, nil when there is no such key (for a map of optionals, `.some(nil)`
    /// when the key holds nil). Setting nil removes the key.
    public subscript(key: Key) -> Value? {
        get {
            switch storage {
            case .unmanaged(let entries): return entries[key]
            case .managed:
                return read("[\(key._rlmKey)]") { map, realm in
                    try map.value(forKey: key._rlmKey).map { try Self.decoded($0, key._rlmKey, map, realm) }
                }
            case .inMixed(let slot, let realm):
                return nestedEntries(slot, realm, "[\(key._rlmKey)]")[key._rlmKey].map {
                    Self.nestedValue($0, key._rlmKey, slot, realm)
                }
            }
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeObject(for: key) }
        }
    }

    private func change(
        _ body: (DynamicMap, Realm) throws -> Void, nested: (MixedSlot, Realm) throws -> Void,
        unmanaged: (inout [Key: Value]) -> Void
    ) {
        switch storage {
        case .unmanaged(var entries):
            storage = .unmanaged([:])
            unmanaged(&entries)
            storage = .unmanaged(entries)
        case .managed(let map, let realm):
            realm.verifyThread()
            realm.refuseFrozenWrite()
            precondition(realm.isInWriteTransaction, "Cannot modify a managed Map outside of a write transaction.")
            do { try body(map, realm) } catch { realm.record(error) }
        case .inMixed(let slot, let realm):
            realm.verifyThread()
            realm.refuseFrozenWrite()
            precondition(realm.isInWriteTransaction, "Cannot modify a managed Map outside of a write transaction.")
            do { try nested(slot, realm) } catch { realm.record(error) }
        }
    }

    /// Sets the value of `key` (an unmanaged object is added to the Realm).
    public func updateValue(_ value: Value, forKey key: Key) {
        let embedded =
            Value._rlmMapObjectType is EmbeddedObject.Type
            ? value._rlmMapObject.flatMap { $0.isUnmanagedEmbedded ? $0 : nil } : nil
        change(
            { map, realm in
                try map.setInput(value._rlmMapInput(for: realm, adding: true), forKey: key._rlmKey)
                // As in Realm Swift, the unmanaged embedded object given is now the one its values made.
                if let embedded, case .link(let stored)? = try map.value(forKey: key._rlmKey) {
                    realm.adoptEmbedded(embedded, key: stored)
                }
            },
            nested: { slot, realm in
                try slot.checkKey(key._rlmKey)
                let stored = try MixedSlot.value(of: value._rlmMapInput(for: realm, adding: true))
                try slot.editEntries { $0[key._rlmKey] = stored }
            }, unmanaged: { $0[key] = value })
    }

    /// Removes `key` and its value.
    public func removeObject(for key: Key) {
        change(
            { map, _ in try map.removeValue(forKey: key._rlmKey) },
            nested: { slot, _ in
                // Nothing is written when the key is not there (as a managed map does).
                guard try slot.entries()[key._rlmKey] != nil else { return }
                try slot.editEntries { $0[key._rlmKey] = nil }
            }, unmanaged: { $0[key] = nil })
    }

    /// Removes every entry (objects stay in the Realm).
    public func removeAll() {
        change(
            { map, _ in try map.removeAll() }, nested: { slot, _ in try slot.editEntries { $0.removeAll() } },
            unmanaged: { $0.removeAll() })
    }

    /// Sets every entry of `entries`.
    public func merge<S: Sequence>(_ entries: S) where S.Element == (key: Key, value: Value) {
        for (key, value) in Array(entries) { updateValue(value, forKey: key) }
    }

    /// Sets every entry of `entries` (a dictionary, another map, or any sequence of key-value
    /// pairs); for a key the map already holds, stores `combine(current, new)` instead, as
    /// RealmSwift's `merge(_:uniquingKeysWith:)` (and `Dictionary`'s). An error thrown by
    /// `combine` stops the merge there and is rethrown; the entries set before it stay set.
    ///
    /// ```swift
    /// try realm.write { person.scores.merge(["math": 3, "art": 5]) { current, new in max(current, new) } }
    /// ```
    public func merge<S: Sequence>(
        _ entries: S, uniquingKeysWith combine: (Value, Value) throws -> Value
    ) rethrows where S.Element == (key: Key, value: Value) {
        for (key, value) in Array(entries) {
            let chosen = try self[key].map { try combine($0, value) } ?? value
            updateValue(chosen, forKey: key)
        }
    }

    /// The entries as a sequence of key-value pairs, in the map's order (RealmSwift's
    /// `asKeyValueSequence()`).
    public func asKeyValueSequence() -> [(key: Key, value: Value)] { entries }

    /// The entries, for debugging.
    public var description: String {
        "Map<\(Key.self), \(Value.self)>("
            + entries.map { "\($0.key._rlmKey): \(String(describing: $0.value))" }.joined(separator: ", ") + ")"
    }

    /// Observes the map: `.initial`, then the keys removed, added and given a new value after
    /// each version that changed it, on this thread's RunLoop.
    public func observe(_ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) -> NotificationToken {
        if case .inMixed(let slot, let realm) = storage {
            realm.verifyThread()
            return realm.reading { observeNested(slot, block) }
        }
        guard case .managed(let map, let realm) = storage else {
            preconditionFailure("Only a managed Map can be observed (add its object to a Realm first).")
        }
        realm.verifyThread()
        return map.observe { [self] change in
            switch change {
            case .initial: block(.initial(self))
            case .update(_, let d, let i, let m): block(.update(self, deletions: d, insertions: i, modifications: m))
            case .error(let error): block(.error(error))
            }
        }
    }

    /// A dictionary nested in a Mixed, observed through the engine's observer of a collection
    /// inside a Mixed: the keys that changed at its place in the value.
    private func observeNested(_ slot: MixedSlot, _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void)
        -> NotificationToken
    {
        slot.owner.observeCollection(inMixed: slot.property, at: slot.path) { [self] change in
            switch change {
            case .initial: block(.initial(self))
            case .dictionaryUpdate(_, let d, let i, let m):
                block(.update(self, deletions: d, insertions: i, modifications: m))
            case .listUpdate: break  // the engine follows the kind it found first: a dictionary here
            case .error(let error): block(.error(error))
            }
        }
    }

    /// Unmanaged entries in key order (by UTF-8 bytes), the order a managed map reads in.
    var sortedUnmanaged: [(key: String, value: Value)] {
        guard case .unmanaged(let entries) = storage else { return [] }
        return entries.map { (key: $0.key._rlmKey, value: $0.value) }.sorted {
            Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8))
        }
    }
}

extension Map: _Persistable {
    public static func _rlmProperty(name: String) -> Property {
        Property(
            name: name, type: Value._rlmMapElementType, isOptional: Value._rlmMapValueIsOptional, isMap: true,
            objectClassName: Value._rlmMapObjectType?.className())
    }
    public static var _rlmLinkedType: Object.Type? { Value._rlmMapObjectType }
    public static func _rlmDefault() -> Map { Map() }
    public static func _rlmGet(_ object: Object, _ name: String) -> Map {
        guard let accessor = object.accessor, let realm = object.realm else { preconditionFailure("unmanaged object") }
        do {
            return Map(managed: try realm.reading { try accessor.map(forKey: name) }, realm: realm)
        } catch {
            preconditionFailure("\(type(of: object).className()).\(name): \(error)")
        }
    }
    public static func _rlmSet(_ value: Map, _ object: Object, _ name: String) {
        var given: [String: ObjectInput] = [:]
        for (key, v) in value.entries { given[key._rlmKey] = v._rlmMapInput(for: object.realm, adding: true) }
        object._rlmWrite(name, .dictionary(given))
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput? {
        var given: [String: ObjectInput] = [:]
        for (key, v) in entries { given[key._rlmKey] = v._rlmMapInput(for: realm, adding: false) }
        return .dictionary(given)
    }
    /// A new unmanaged map: a map given is copied, never shared.
    public static func _rlmConvert(_ any: Any) -> Map? {
        let map = Map()
        if let m = any as? Map {
            for (k, v) in m.entries { map.updateValue(v, forKey: k) }
            return map
        }
        guard let dictionary = any as? [String: Any] else { return nil }
        for (k, a) in dictionary {
            guard let v = Value._rlmMapConvert(a) else { return nil }
            map.updateValue(v, forKey: Key(_rlmKey: k))
        }
        return map
    }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput? {
        if let m = any as? Map { return m._rlmInput(for: realm) }
        guard let dictionary = any as? [String: Any] else {
            throw RealmError.invalidInput("a \(type(of: any)) given for a dictionary of \(Value.self)")
        }
        var given: [String: ObjectInput] = [:]
        for (k, a) in dictionary {
            if isNull(a) {
                given[k] = .value(.null)
                continue
            }
            if let scalar = Value._rlmMapConvert(a) {
                given[k] = scalar._rlmMapInput(for: realm, adding: false)
            } else if let objectType = Value._rlmMapObjectType,
                let input = try? objectType._rlmInput(fromAny: a, realm: realm)
            {
                given[k] = input
            } else {
                throw RealmError.invalidInput("'\(k)': \(type(of: a)) value '\(a)' cannot be stored as \(Value.self)")
            }
        }
        return .dictionary(given)
    }
    /// The unmanaged objects the map links to, in key order (by bytes), nil values left out:
    /// the order `Realm.add` pairs them with their keys in.
    public func _rlmLinkedObjects() -> [Object] {
        sortedUnmanaged.compactMap { $0.value._rlmMapObject }
    }
}
