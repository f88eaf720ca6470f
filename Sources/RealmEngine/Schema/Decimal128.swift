/// A decimal floating-point number as Realm stores it: IEEE 754-2008 decimal128 in the binary
/// integer decimal (BID) encoding — a sign, a coefficient of up to 34 decimal digits, an exponent
/// from −6176 to 6111, and the special values NaN and ±infinity.
///
/// Values compare, hash and sort by what they are worth (`1.0 == 1.00`), with NaN ordered as
/// Realm Core orders it (before every number; two NaNs are equal only when their bits are).
/// Arithmetic (`+`, `−`, division by an integer) is exact and then rounded half-to-even to 34
/// digits, so `0.1 + 0.2 == 0.3`.
///
/// The encoding, the text conversions and the arithmetic are written here from the standard and
/// from Realm Core's behaviour (`src/realm/decimal128.cpp` over Intel's decimal library): no
/// well-kept Swift package implements decimal128 — Foundation's `Decimal` is another format (38
/// digits, exponents ±128, no infinities), and the Swift packages for IEEE decimals are
/// unmaintained experiments.
///
/// ## Encoding
/// Two 64-bit words, `low` and `high`. `high` holds, from the top bit down: the sign; then either
/// a 14-bit biased exponent (bias 6176) and the coefficient's top 49 bits, or — when the two bits
/// after the sign are `11` — a 14-bit exponent two bits lower and an implicit `100` before the
/// coefficient's top 47 bits. That second form only holds coefficients above 2^113, which are past
/// 10^34 − 1 and so non-canonical: they read as zero, as do coefficients from 10^34 up in the
/// first form. `11110` after the sign marks infinity, `11111` NaN (`111111` a signaling NaN).
public struct Decimal128: Sendable {
    /// The low 64 bits: the coefficient's low word.
    public let low: UInt64
    /// The high 64 bits: sign, combination field (exponent) and the coefficient's high bits.
    public let high: UInt64

    /// The value with these two words (any bit pattern is a value; see the type's encoding notes).
    public init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    static let signBit: UInt64 = 1 << 63
    static let exponentBias = 6176
    /// The largest biased exponent (the exponent 6111).
    static let maxBiasedExponent = 12287
    /// The smallest exponent (biased 0).
    public static let minExponent = -6176
    /// The largest exponent.
    public static let maxExponent = 6111
    /// The number of significant decimal digits a value holds.
    public static let precision = 34

    static let infinityBits: UInt64 = 0x7800_0000_0000_0000
    static let nanBits: UInt64 = 0x7C00_0000_0000_0000
    static let signalingNaNBits: UInt64 = 0x7E00_0000_0000_0000
    static let largeFormBits: UInt64 = 0x6000_0000_0000_0000
    static let coefficientHighMask: UInt64 = (1 << 49) - 1

    /// Zero (coefficient 0, exponent 0), as Realm Core's default value.
    public static let zero = Decimal128(low: 0, high: UInt64(exponentBias) << 49)
    /// A quiet NaN.
    public static let nan = Decimal128(low: 0, high: nanBits)
    /// Positive infinity.
    public static let infinity = Decimal128(low: 0, high: infinityBits)

    /// The value's parts, with non-canonical coefficients read as zero.
    enum Form: Equatable {
        case nan(negative: Bool, signaling: Bool)
        case infinity(negative: Bool)
        case finite(negative: Bool, coefficient: DecimalCoefficient, exponent: Int)
    }

    var form: Form {
        let negative = high & Decimal128.signBit != 0
        if high & Decimal128.nanBits == Decimal128.nanBits {
            return .nan(
                negative: negative, signaling: high & Decimal128.signalingNaNBits == Decimal128.signalingNaNBits)
        }
        if high & Decimal128.infinityBits == Decimal128.infinityBits {
            return .infinity(negative: negative)
        }
        if high & Decimal128.largeFormBits == Decimal128.largeFormBits {
            // The `11` form: its coefficient is at least 2^113, past 10^34 − 1, so it reads as zero.
            let biased = Int((high >> 47) & 0x3FFF)
            return .finite(negative: negative, coefficient: .zero, exponent: biased - Decimal128.exponentBias)
        }
        let biased = Int((high >> 49) & 0x3FFF)
        var coefficient = DecimalCoefficient(high: high & Decimal128.coefficientHighMask, low: low)
        if coefficient > .max { coefficient = .zero }
        return .finite(negative: negative, coefficient: coefficient, exponent: biased - Decimal128.exponentBias)
    }

    /// Packs a finite value whose coefficient and exponent are already in range.
    init(negative: Bool, coefficient: DecimalCoefficient, exponent: Int) {
        assert(coefficient <= .max && exponent >= Decimal128.minExponent && exponent <= Decimal128.maxExponent)
        let biased = UInt64(exponent + Decimal128.exponentBias)
        self.init(low: coefficient.low, high: (negative ? Decimal128.signBit : 0) | biased << 49 | coefficient.high)
    }

    /// The integer, exactly (exponent 0), as Realm Core converts an `int64_t`.
    public init(_ value: Int64) {
        self.init(negative: value < 0, coefficient: DecimalCoefficient(value.magnitude), exponent: 0)
    }

    /// The integer, exactly (exponent 0).
    public init(_ value: Int) {
        self.init(Int64(value))
    }

    /// Whether the value is NaN (quiet or signaling).
    public var isNaN: Bool { high & Decimal128.nanBits == Decimal128.nanBits }
    /// Whether the value is +infinity or −infinity.
    public var isInfinite: Bool { !isNaN && high & Decimal128.infinityBits == Decimal128.infinityBits }
    /// Whether the value is neither NaN nor infinite.
    public var isFinite: Bool { high & Decimal128.infinityBits != Decimal128.infinityBits }
    /// Whether the sign bit is set (also for −0 and a negative NaN).
    public var isSignMinus: Bool { high & Decimal128.signBit != 0 }
    /// Whether the value is a zero of any sign and exponent.
    public var isZero: Bool {
        if case .finite(_, let coefficient, _) = form { return coefficient.isZero }
        return false
    }
}

extension Decimal128: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The integer literal, exactly.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    /// The float literal through `Double`, as Realm Core converts a double (15 significant
    /// digits, so `0.1` is worth exactly 0.1); use `init(parsing:)` for more digits.
    public init(floatLiteral value: Double) {
        self.init(value)
    }
}

extension Decimal128: Codable {
    /// Decodes the text form (`"12.50"`), or a JSON number (through `Double`, as Core would).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = try Decimal128(parsing: text)
        } else {
            self.init(try container.decode(Double.self))
        }
    }

    /// Encodes the text form, which keeps every digit.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
