extension Decimal128 {
    /// The exact product rounded half to even to 34 digits (IEEE 754 `multiplication`): the
    /// exponent is the sum of the operands' where the product fits; NaN propagates, `∞ × 0` is
    /// NaN, the sign is the operands' signs combined (also for zeros and infinities).
    public static func * (a: Decimal128, b: Decimal128) -> Decimal128 {
        let negative = a.isSignMinus != b.isSignMinus
        switch (a.form, b.form) {
        case (.nan, _): return a.quieted
        case (_, .nan): return b.quieted
        case (.infinity, .infinity): return negative ? -infinity : infinity
        case (.infinity, .finite(_, let coefficient, _)), (.finite(_, let coefficient, _), .infinity):
            return coefficient.isZero ? .nan : (negative ? -infinity : infinity)
        case (.finite(_, let coefficientA, let exponentA), .finite(_, let coefficientB, let exponentB)):
            if coefficientB.high == 0, let product = coefficientA.multiplied(by: coefficientB.low), product <= .max,
                (minExponent...maxExponent).contains(exponentA + exponentB)
            {
                return Decimal128(negative: negative, coefficient: product, exponent: exponentA + exponentB)
            }
            return rounded(
                negative: negative, digits: DecimalDigits.multiply(coefficientA.digits, coefficientB.digits),
                exponent: exponentA + exponentB)
        }
    }

    /// The quotient rounded half to even to 34 digits (IEEE 754 `division`): an exact quotient
    /// takes the exponent closest to the dividend's minus the divisor's (`10.50 / 2 == 5.25`,
    /// `1.00 / 4 == 0.25`), others carry all 34 digits; `x / 0` is ±infinity, `0 / 0`, `∞ / ∞`
    /// and NaNs NaN, `x / ∞` a zero.
    public static func / (a: Decimal128, b: Decimal128) -> Decimal128 {
        let negative = a.isSignMinus != b.isSignMinus
        switch (a.form, b.form) {
        case (.nan, _): return a.quieted
        case (_, .nan): return b.quieted
        case (.infinity, .infinity): return .nan
        case (.infinity, .finite): return negative ? -infinity : infinity
        case (.finite, .infinity): return Decimal128(negative: negative, coefficient: .zero, exponent: minExponent)
        case (.finite(_, let coefficientA, let exponentA), .finite(_, let coefficientB, let exponentB)):
            let preferred = exponentA - exponentB
            if coefficientB.isZero {
                return coefficientA.isZero ? .nan : (negative ? -infinity : infinity)
            }
            if coefficientA.isZero {
                return rounded(negative: negative, digits: [0], exponent: preferred)
            }
            // Carry the division far enough for 35 significant digits; a remainder left is only a
            // sticky digit below the rounding.
            let dividendDigits = coefficientA.digits
            let divisorDigits = coefficientB.digits
            let extra = Swift.max(0, Decimal128.precision + 1 + divisorDigits.count - dividendDigits.count)
            var (digits, inexact) = DecimalDigits.divide(
                dividendDigits + repeatElement(0, count: extra), by: divisorDigits)
            var exponent = preferred - extra
            if inexact {
                digits.append(1)
                exponent -= 1
            } else {
                while exponent < preferred, digits.last == 0 {
                    digits.removeLast()
                    exponent += 1
                }
            }
            return rounded(negative: negative, digits: digits, exponent: exponent)
        }
    }

    /// Multiplies in place.
    public static func *= (a: inout Decimal128, b: Decimal128) { a = a * b }

    /// Divides in place.
    public static func /= (a: inout Decimal128, b: Decimal128) { a = a / b }

    /// The largest finite value: 34 nines × 10^6111.
    public static let max = Decimal128(negative: false, coefficient: .max, exponent: maxExponent)

    /// The smallest finite value, `−max`.
    public static let min = Decimal128(negative: true, coefficient: .max, exponent: maxExponent)

    /// Whether the value is a signaling NaN (RealmSwift's name; every NaN here reads as one).
    public var isSignaling: Bool { isNaN }

    /// Whether the value is a signaling NaN (RealmSwift's name).
    public var isSignalingNaN: Bool { isNaN }
}

extension Decimal128: SignedNumeric {
    /// The value of an integer, when a decimal128 holds it exactly (every integer of up to 34
    /// digits); nil otherwise.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Decimal128(exactly: String(source)) else { return nil }
        self = value
    }

    /// The absolute value (NaN stays NaN).
    public var magnitude: Decimal128 { isSignMinus ? -self : self }
}

extension Decimal128: Strideable {
    /// `other − self`.
    public func distance(to other: Decimal128) -> Decimal128 { other - self }

    /// `self + n`.
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }
}
