import Foundation

/// RealmSwift's converting initialisers of `Decimal128` (`init(number:)`, `init(value:)`), which
/// realm-swift's own tests and apps use; they take Foundation types, so they live here rather
/// than in the engine.
extension Decimal128 {
    /// Realm Core's null decimal (`Decimal128(realm::null())`): a quiet NaN with payload 0xAA.
    /// `Decimal128(value: NSNull())` gives it, as in RealmSwift.
    static let realmNull = Decimal128(low: 0xAA, high: 0x7C00_0000_0000_0000)

    /// Zero, as RealmSwift's `Decimal128()`.
    public init() {
        self.init(Int64(0))
    }

    /// Converts the number as RealmSwift does: a `Double` or `Float` number as Realm Core's
    /// `Decimal128(double)` (its value to 15 significant digits, so `0.1` is 0.1), every other
    /// number (integers of any width and sign, booleans as 0 and 1) exactly. Never fails.
    public init(number: NSNumber) {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            self.init(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            self.init(unsigned: number.uint64Value)
        default:
            self.init(number.int64Value)
        }
    }

    /// An unsigned 64-bit integer, exactly (it has at most 20 digits, well within 34).
    init(unsigned value: UInt64) {
        if let signed = Int64(exactly: value) {
            self.init(signed)
        } else {
            // Past Int64.max: the leading digits and the last one, recombined exactly.
            self = Decimal128(Int64(value / 10)) * 10 + Decimal128(Int64(value % 10))
        }
    }

    /// Converts a value as RealmSwift's `Decimal128(value:)` does: nil and `NSNull` give Realm
    /// Core's null decimal (a NaN); a `Decimal128` itself; integers of any width, `Float`,
    /// `Double`, `Bool` and `NSNumber` as `init(number:)`; a `Decimal` and a `String` parsed as
    /// decimal text.
    ///
    /// As in RealmSwift, a value of another type, or a string that is not a decimal number, is a
    /// programming error and stops the program; text from a user or a file belongs in
    /// `init(string:)`, which throws instead.
    public init(value: Any) {
        if let converted = Decimal128.converting(value) {
            self = converted
            return
        }
        if let text = value as? String {
            preconditionFailure("Decimal128(value: \"\(text)\"): the string is not a decimal number")
        }
        preconditionFailure("Decimal128(value:): cannot convert a value of type \(type(of: value)) to a Decimal128")
    }

    /// The decimal `init(value:)` gives for `value`, or nil when it converts none.
    private static func converting(_ value: Any) -> Decimal128? {
        // `Any` may hold an Optional: nil is Realm's null decimal, a wrapped value converts as itself.
        if let optional = value as? any OptionalUnwrapping {
            guard let wrapped = optional.wrappedAny else { return realmNull }
            return converting(wrapped)
        }
        switch value {
        case is NSNull: return realmNull
        case let d as Decimal128: return d
        case let s as String: return Decimal128(s)
        case let d as Decimal: return Decimal128(d.description)
        case let d as Double: return Decimal128(d)
        case let f as Float: return Decimal128(Double(f))
        case let b as Bool: return Decimal128(b ? 1 : 0)
        case let i as Int: return Decimal128(i)
        case let i as Int8: return Decimal128(Int64(i))
        case let i as Int16: return Decimal128(Int64(i))
        case let i as Int32: return Decimal128(Int64(i))
        case let i as Int64: return Decimal128(i)
        case let u as UInt: return Decimal128(unsigned: UInt64(u))
        case let u as UInt8: return Decimal128(unsigned: UInt64(u))
        case let u as UInt16: return Decimal128(unsigned: UInt64(u))
        case let u as UInt32: return Decimal128(unsigned: UInt64(u))
        case let u as UInt64: return Decimal128(unsigned: u)
        case let n as NSNumber: return Decimal128(number: n)
        default: return nil
        }
    }
}

/// Lets `Decimal128.converting` see through an `Optional` held in an `Any`.
private protocol OptionalUnwrapping {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalUnwrapping {
    fileprivate var wrappedAny: Any? { self.map { $0 as Any } }
}
