import Foundation

// The scalar families: integers, floating point, and the rest (Bool, String, Date, Data,
// ObjectId, UUID, Decimal128). Each converts to and from the dynamic core's `Value`.

/// Integers of every width are stored as `Value.int`; the property type says the width.
protocol _RealmInteger: _RealmScalar, _Persistable, FixedWidthInteger {}

extension _RealmInteger {
    public var _rlmValue: Value { .int(Int64(self)) }
    public init?(_rlmValue value: Value) {
        guard case .int(let i) = value, let v = Self(exactly: i) else { return nil }
        self = v
    }
    public static var _rlmZero: Self { 0 }
    public static func _rlmConvert(_ any: Any) -> Self? {
        if let v = any as? Self { return v }
        if let i = any as? any BinaryInteger { return Self(exactly: i) }
        // Only a whole number that fits: `int64Value` would truncate 1.5 to 1.
        if let n = any as? NSNumber, !(n is Bool) { return Int64(exactly: n).flatMap { Self(exactly: $0) } }
        if let d = any as? Double { return Self(exactly: d) }
        return nil
    }
}

extension Int: _RealmInteger { public static var _rlmPropertyType: PropertyType { .int } }
extension Int64: _RealmInteger { public static var _rlmPropertyType: PropertyType { .int } }
extension Int32: _RealmInteger { public static var _rlmPropertyType: PropertyType { .int32 } }
extension Int16: _RealmInteger { public static var _rlmPropertyType: PropertyType { .int16 } }
extension Int8: _RealmInteger { public static var _rlmPropertyType: PropertyType { .int8 } }

extension Double: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .double }
    public var _rlmValue: Value { .double(self) }
    public init?(_rlmValue value: Value) {
        switch value {
        case .double(let d): self = d
        case .float(let f): self = Double(f)
        case .int(let i): self = Double(i)
        default: return nil
        }
    }
    public static var _rlmZero: Double { 0 }
    public static func _rlmConvert(_ any: Any) -> Double? {
        if let v = any as? Double { return v }
        if let f = any as? Float { return Double(f) }
        if let i = any as? any BinaryInteger { return Double(i) }
        if let n = any as? NSNumber { return n.doubleValue }
        return nil
    }
}

extension Float: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .float }
    public var _rlmValue: Value { .float(self) }
    public init?(_rlmValue value: Value) {
        switch value {
        case .float(let f): self = f
        case .double(let d): self = Float(d)
        case .int(let i): self = Float(i)
        default: return nil
        }
    }
    public static var _rlmZero: Float { 0 }
    public static func _rlmConvert(_ any: Any) -> Float? {
        if let v = any as? Float { return v }
        return Double._rlmConvert(any).map(Float.init)
    }
}

extension Bool: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .bool }
    public var _rlmValue: Value { .bool(self) }
    public init?(_rlmValue value: Value) {
        guard case .bool(let b) = value else { return nil }
        self = b
    }
    public static var _rlmZero: Bool { false }
    public static func _rlmConvert(_ any: Any) -> Bool? { any as? Bool }
}

extension String: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .string }
    public var _rlmValue: Value { .string(self) }
    public init?(_rlmValue value: Value) {
        guard case .string(let s) = value else { return nil }
        self = s
    }
    public static var _rlmZero: String { "" }
    public static func _rlmConvert(_ any: Any) -> String? {
        if let s = any as? String { return s }
        if let s = any as? Substring { return String(s) }
        return nil
    }
}

extension Date: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .date }
    public var _rlmValue: Value { (try? _rlmCheckedValue()) ?? .null }
    public func _rlmCheckedValue() throws -> Value { .date(try Timestamp(self)) }
    public init?(_rlmValue value: Value) {
        guard case .date(let t) = value else { return nil }
        self = t.date
    }
    public static var _rlmZero: Date { Date(timeIntervalSince1970: 0) }
    public static func _rlmConvert(_ any: Any) -> Date? { any as? Date }
}

extension Data: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .data }
    public var _rlmValue: Value { .data(self) }
    public init?(_rlmValue value: Value) {
        guard case .data(let d) = value else { return nil }
        self = d
    }
    public static var _rlmZero: Data { Data() }
    public static func _rlmConvert(_ any: Any) -> Data? {
        if let d = any as? Data { return d }
        if let bytes = any as? [UInt8] { return Data(bytes) }
        return nil
    }
}

extension UUID: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .uuid }
    public var _rlmValue: Value { .uuid(self) }
    public init?(_rlmValue value: Value) {
        guard case .uuid(let u) = value else { return nil }
        self = u
    }
    public static var _rlmZero: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    public static func _rlmConvert(_ any: Any) -> UUID? {
        if let u = any as? UUID { return u }
        if let s = any as? String { return UUID(uuidString: s) }
        return nil
    }
}

extension ObjectId: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .objectId }
    public var _rlmValue: Value { .objectId(self) }
    public init?(_rlmValue value: Value) {
        guard case .objectId(let o) = value else { return nil }
        self = o
    }
    public static var _rlmZero: ObjectId { ObjectId(words: (0, 0, 0)) }
    public static func _rlmConvert(_ any: Any) -> ObjectId? {
        if let o = any as? ObjectId { return o }
        if let s = any as? String { return ObjectId(parsing: s) }
        return nil
    }
}

extension Decimal128: _RealmScalar, _Persistable {
    public static var _rlmPropertyType: PropertyType { .decimal128 }
    public var _rlmValue: Value { .decimal128(self) }
    public init?(_rlmValue value: Value) {
        switch value {
        case .decimal128(let d): self = d
        case .int(let i): self = Decimal128(i)
        default: return nil
        }
    }
    public static var _rlmZero: Decimal128 { .zero }
    public static func _rlmConvert(_ any: Any) -> Decimal128? {
        if let d = any as? Decimal128 { return d }
        if let i = any as? any BinaryInteger { return Int64(exactly: i).map { Decimal128($0) } }
        if let d = any as? Double { return Decimal128(d) }
        // Text converts exactly (not through a double).
        if let s = any as? String { return Decimal128(s) }
        return nil
    }
}

/// The stored value of a loosely typed one (query arguments, `setValue(_:forKey:)`); nil for a
/// type no property stores. Throws for a value of a stored type that no stored value holds
/// (a `Date` with an infinite interval).
func storedValue(_ any: Any?) throws -> Value? {
    guard let any else { return .null }
    if let scalar = any as? any _RealmScalar { return try scalar._rlmCheckedValue() }
    if isNull(any) { return .null }
    if let v = any as? Value { return v }
    if let o = any as? Object {
        guard let accessor = o.accessor else { return nil }
        return .link(accessor.key)
    }
    if type(of: any) == Bool.self, let b = any as? Bool { return .bool(b) }
    if let i = any as? any BinaryInteger, let v = Int64(exactly: i) { return .int(v) }
    if let d = any as? Double { return .double(d) }
    if let f = any as? Float { return .float(f) }
    if let s = any as? String { return .string(s) }
    if let d = any as? Date { return .date(try Timestamp(d)) }
    if let d = any as? Data { return .data(d) }
    if let u = any as? UUID { return .uuid(u) }
    if let o = any as? ObjectId { return .objectId(o) }
    if let n = any as? NSNumber { return .double(n.doubleValue) }
    if let scalar = any as? any _RealmScalar { return try scalar._rlmCheckedValue() }
    return nil
}
