import Foundation

/// A value of a Mixed property, as RealmSwift's `AnyRealmValue`: nothing, a scalar, an object
/// of any class, or a list or dictionary of Mixed values.
///
/// Stored as the engine's Mixed (`PropertyType.mixed`): `@Persisted var value: AnyRealmValue`,
/// `List<AnyRealmValue>`, `MutableSet<AnyRealmValue>`, `Map<String, AnyRealmValue>`.
///
/// A nested `.list` or `.dictionary` read from a managed object's Mixed property is managed, as
/// in RealmSwift: live, changed in place inside a write transaction
/// (`box.value.listValue?.append(.int(3))`), observable, deeper ones too; it is invalidated
/// when its object is deleted or the property is given another value. One read from an element
/// of a managed `List<AnyRealmValue>` or `Map<String, AnyRealmValue>` is managed the same way
/// (`box.anyList[0].listValue`, `box.anyMap["k"]?.dictionaryValue`), at its position or key.
public enum AnyRealmValue {
    /// No value (nil).
    case none
    case int(Int)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    /// An object of any class: stored as a link naming its class.
    case object(Object)
    case objectId(ObjectId)
    case decimal128(Decimal128)
    case uuid(UUID)
    /// A dictionary of Mixed values.
    case dictionary(Map<String, AnyRealmValue>)
    /// A list of Mixed values.
    case list(List<AnyRealmValue>)

    /// Nothing (`.none`), as RealmSwift's `AnyRealmValue()`.
    public init() { self = .none }

    /// A dictionary value holding `dictionary`'s entries.
    public static func fromDictionary(_ dictionary: [String: AnyRealmValue]) -> AnyRealmValue {
        let map = Map<String, AnyRealmValue>()
        for (key, value) in dictionary { map[key] = value }
        return .dictionary(map)
    }

    /// A list value holding `array`'s elements.
    public static func fromArray(_ array: [AnyRealmValue]) -> AnyRealmValue {
        let list = List<AnyRealmValue>()
        list.append(objectsIn: array)
        return .list(list)
    }

    public var intValue: Int? { if case .int(let v) = self { v } else { nil } }
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    public var floatValue: Float? { if case .float(let v) = self { v } else { nil } }
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    public var dataValue: Data? { if case .data(let v) = self { v } else { nil } }
    public var dateValue: Date? { if case .date(let v) = self { v } else { nil } }
    public var objectIdValue: ObjectId? { if case .objectId(let v) = self { v } else { nil } }
    public var decimal128Value: Decimal128? { if case .decimal128(let v) = self { v } else { nil } }
    public var uuidValue: UUID? { if case .uuid(let v) = self { v } else { nil } }
    public var dictionaryValue: Map<String, AnyRealmValue>? { if case .dictionary(let v) = self { v } else { nil } }
    public var listValue: List<AnyRealmValue>? { if case .list(let v) = self { v } else { nil } }

    /// The object, when this is one of class `objectType`.
    public func object<T: Object>(_ objectType: T.Type) -> T? {
        if case .object(let o) = self { o as? T } else { nil }
    }

    /// The object, whatever its class (RealmSwift's `dynamicObject`).
    public var dynamicObject: Object? { if case .object(let o) = self { o } else { nil } }
}

extension AnyRealmValue: Hashable {
    /// Equal when of the same case and value; objects by identity, or the same stored object.
    public static func == (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): return true
        case (.int(let a), .int(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.float(let a), .float(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.objectId(let a), .objectId(let b)): return a == b
        case (.decimal128(let a), .decimal128(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.object(let a), .object(let b)):
            if a === b { return true }
            guard let x = a.accessor, let y = b.accessor else { return false }
            return x.className == y.className && x.key == y.key && a.realm === b.realm
        case (.list(let a), .list(let b)): return Array(a) == Array(b)
        case (.dictionary(let a), .dictionary(let b)):
            let x = Dictionary(a.map { ($0.key, $0.value) }, uniquingKeysWith: { v, _ in v })
            let y = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { v, _ in v })
            return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .none: hasher.combine(0)
        case .int(let v): hasher.combine(v)
        case .bool(let v): hasher.combine(v)
        case .float(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v)
        case .string(let v): hasher.combine(v)
        case .data(let v): hasher.combine(v)
        case .date(let v): hasher.combine(v)
        case .objectId(let v): hasher.combine(v)
        case .decimal128(let v): hasher.combine(v)
        case .uuid(let v): hasher.combine(v)
        case .object(let o): hasher.combine(o.accessor?.key)
        case .list(let l): hasher.combine(l.count)
        case .dictionary(let m): hasher.combine(m.count)
        }
    }
}

extension AnyRealmValue {
    /// The stored value; objects become links naming their class (with `adding`, an unmanaged
    /// one is added to `realm` first, in a write). Throws for a value no stored value holds, or an unmanaged object where none
    /// can be added.
    func _rlmStored(for realm: Realm?, adding: Bool) throws -> Value {
        switch self {
        case .none: return .null
        case .int(let v): return .int(Int64(v))
        case .bool(let v): return .bool(v)
        case .float(let v): return .float(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .data(let v): return .data(v)
        case .date(let v): return .date(try Timestamp(v))
        case .objectId(let v): return .objectId(v)
        case .decimal128(let v): return .decimal128(v)
        case .uuid(let v): return .uuid(v)
        case .object(let o):
            let className = type(of: o).className()
            if let accessor = o.accessor {
                return .typedLink(TypedLink(className: accessor.className, key: accessor.key))
            }
            guard adding, case .value(.link(let key)) = o._rlmAddedInput(for: realm) else {
                throw RealmError.invalidInput(
                    "an unmanaged \(className) in an AnyRealmValue: add it to the Realm first")
            }
            return .typedLink(TypedLink(className: className, key: key))
        case .list(let l): return .list(try l.map { try $0._rlmStored(for: realm, adding: adding) })
        case .dictionary(let m):
            var entries: [String: Value] = [:]
            for (key, value) in m { entries[key] = try value._rlmStored(for: realm, adding: adding) }
            return .map(entries)
        }
    }

    /// The value of a stored one; a link to a class this process has no `Object` type for
    /// reads as `.none` (there is no object to hand out).
    static func _rlmValue(_ value: Value, realm: Realm) -> AnyRealmValue {
        switch value {
        case .null, .link: return .none
        case .bool(let v): return .bool(v)
        case .int(let v): return Int(exactly: v).map(AnyRealmValue.int) ?? .none
        case .float(let v): return .float(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .data(let v): return .data(v)
        case .date(let v): return .date(v.date)
        case .objectId(let v): return .objectId(v)
        case .decimal128(let v): return .decimal128(v)
        case .uuid(let v): return .uuid(v)
        case .typedLink(let link):
            guard let type = realm.objectType(named: link.className),
                let object = type._rlmRead(.link(link.key), realm: realm)
            else { return .none }
            return .object(object)
        case .list(let items): return fromArray(items.map { _rlmValue($0, realm: realm) })
        case .map(let entries): return fromDictionary(entries.mapValues { _rlmValue($0, realm: realm) })
        }
    }

    /// The value of a stored one found at `slot` inside a Mixed property: a list or dictionary
    /// is the managed one there (live), anything else as `_rlmValue` reads it.
    static func _rlmValue(_ value: Value, realm: Realm, at slot: MixedSlot) -> AnyRealmValue {
        switch value {
        case .list: return .list(List(inMixed: slot, realm: realm))
        case .map: return .dictionary(Map(inMixed: slot, realm: realm))
        default: return _rlmValue(value, realm: realm)
        }
    }

    /// The element `step` of a managed list or dictionary of Mixed (`property` of `owner`)
    /// when it holds a nested list or dictionary: that collection, managed (live) at its place;
    /// nil for any other element (read as `_rlmValue` reads it).
    static func _rlmNested(
        _ value: Value, realm: Realm, owner: RealmEngine.DynamicObject, property: String,
        step: MixedPathElement, in list: [Value]? = nil
    ) -> AnyRealmValue? {
        switch value {
        case .list, .map:
            return _rlmValue(
                value, realm: realm,
                at: MixedSlot(owner: owner, property: property, place: MixedPlace().child(step, in: list)))
        default: return nil
        }
    }

    /// The argument a query compares a Mixed property with (nil for an unmanaged object).
    var _rlmQueryValue: Value? { try? _rlmStored(for: nil, adding: false) }
}

extension AnyRealmValue: _RealmElement, _Persistable, _RealmMapValue {
    public static var _rlmPropertyType: PropertyType { .mixed }
    public static func _rlmRead(_ value: Value, realm: Realm) -> AnyRealmValue? { _rlmValue(value, realm: realm) }

    // An unmanaged object is added wherever the value is stored in a write (a Mixed property
    // is no link property, so `add`'s graph walk does not reach it).
    public func _rlmInput(for realm: Realm?) -> ObjectInput { input(for: realm, adding: true) }
    public func _rlmAddedInput(for realm: Realm?) -> ObjectInput { input(for: realm, adding: true) }

    private func input(for realm: Realm?, adding: Bool) -> ObjectInput {
        do { return .value(try _rlmStored(for: realm, adding: adding)) } catch {
            realm?.record(error)
            return .value(.null)
        }
    }

    public static func _rlmConvert(_ any: Any) -> AnyRealmValue? {
        if let v = any as? AnyRealmValue { return v }
        if isNull(any) { return AnyRealmValue.none }
        if let o = any as? Object { return .object(o) }
        if type(of: any) == Bool.self, let b = any as? Bool { return .bool(b) }
        if let i = any as? Int { return .int(i) }
        if let i = any as? any BinaryInteger, let v = Int(exactly: i) { return .int(v) }
        if let d = any as? Double { return .double(d) }
        if let f = any as? Float { return .float(f) }
        if let s = any as? String { return .string(s) }
        if let d = any as? Data { return .data(d) }
        if let d = any as? Date { return .date(d) }
        if let o = any as? ObjectId { return .objectId(o) }
        if let d = any as? Decimal128 { return .decimal128(d) }
        if let u = any as? UUID { return .uuid(u) }
        if let array = any as? [Any] {
            var items: [AnyRealmValue] = []
            for element in array {
                guard let v = _rlmConvert(element) else { return nil }
                items.append(v)
            }
            return fromArray(items)
        }
        if let dictionary = any as? [String: Any] {
            var entries: [String: AnyRealmValue] = [:]
            for (key, element) in dictionary {
                guard let v = _rlmConvert(element) else { return nil }
                entries[key] = v
            }
            return fromDictionary(entries)
        }
        return nil
    }

    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput {
        guard let v = _rlmConvert(any) else {
            throw RealmError.invalidInput("\(type(of: any)) value '\(any)' cannot be stored as an AnyRealmValue")
        }
        return .value(try v._rlmStored(for: realm, adding: false))
    }

    public static func _rlmProperty(name: String) -> Property { Property(name: name, type: .mixed) }
    public static func _rlmDefault() -> AnyRealmValue { .none }
    public static func _rlmGet(_ object: Object, _ name: String) -> AnyRealmValue {
        guard let realm = object.realm else { return .none }
        let value = object._rlmRead(name)
        switch value {
        case .list, .map:
            guard let owner = object.accessor else { return _rlmValue(value, realm: realm) }
            return _rlmValue(value, realm: realm, at: MixedSlot(owner: owner, property: name))
        default: return _rlmValue(value, realm: realm)
        }
    }
    public static func _rlmSet(_ value: AnyRealmValue, _ object: Object, _ name: String) {
        object._rlmWrite(name, value.input(for: object.realm, adding: true))
    }
    public func _rlmInput(for realm: Realm?) -> ObjectInput? { input(for: realm, adding: true) }
    public static func _rlmInput(fromAny any: Any, realm: Realm) throws -> ObjectInput? {
        try _rlmInput(fromAny: any, realm: realm) as ObjectInput
    }
    public func _rlmLinkedObjects() -> [Object] {
        switch self {
        case .object(let o) where o.accessor == nil: return [o]
        case .list(let l): return l.flatMap { $0._rlmLinkedObjects() }
        case .dictionary(let m): return m.flatMap { $0.value._rlmLinkedObjects() }
        default: return []
        }
    }
}
