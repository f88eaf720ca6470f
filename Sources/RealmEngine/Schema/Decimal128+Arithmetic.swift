extension Decimal128 {
    /// The exact sum rounded half to even to 34 digits (IEEE 754 `addition`): the exponent is the
    /// smaller of the two when the sum fits, NaN propagates (quieted), `∞ + −∞` is NaN, and an
    /// exact zero sum is +0 unless both operands are negative.
    public static func + (a: Decimal128, b: Decimal128) -> Decimal128 {
        switch (a.form, b.form) {
        case (.nan, _): return a.quieted
        case (_, .nan): return b.quieted
        case (.infinity(let negativeA), .infinity(let negativeB)):
            return negativeA == negativeB ? a : .nan
        case (.infinity, .finite): return a
        case (.finite, .infinity): return b
        case (
            .finite(let negativeA, let coefficientA, let exponentA),
            .finite(let negativeB, let coefficientB, let exponentB)
        ):
            return sum(negativeA, coefficientA, exponentA, negativeB, coefficientB, exponentB)
        }
    }

    /// `a + (−b)`.
    public static func - (a: Decimal128, b: Decimal128) -> Decimal128 {
        if b.isNaN { return a.isNaN ? a.quieted : b.quieted }
        return a + -b
    }

    /// Adds in place.
    public static func += (a: inout Decimal128, b: Decimal128) { a = a + b }

    /// Subtracts in place.
    public static func -= (a: inout Decimal128, b: Decimal128) { a = a - b }

    /// A NaN with its signaling bit cleared (what an operation on a signaling NaN returns).
    var quieted: Decimal128 {
        Decimal128(low: low, high: high & ~(Decimal128.signalingNaNBits ^ Decimal128.nanBits))
    }

    private static func sum(
        _ negativeA: Bool, _ coefficientA: DecimalCoefficient, _ exponentA: Int,
        _ negativeB: Bool, _ coefficientB: DecimalCoefficient, _ exponentB: Int
    ) -> Decimal128 {
        let exponent = Swift.min(exponentA, exponentB)
        // The sign of an exact zero: negative only when both operands are (round half to even).
        let zeroNegative = negativeA && negativeB
        // Fast path: both operands aligned to the smaller exponent still fit in 128 bits.
        if let alignedA = coefficientA.scaled(byPowerOfTen: exponentA - exponent),
            let alignedB = coefficientB.scaled(byPowerOfTen: exponentB - exponent)
        {
            if negativeA == negativeB {
                if let total = alignedA.adding(alignedB) {
                    if total.isZero {
                        return Decimal128(negative: zeroNegative, coefficient: .zero, exponent: exponent)
                    }
                    if total <= .max { return Decimal128(negative: negativeA, coefficient: total, exponent: exponent) }
                    return rounded(negative: negativeA, digits: total.digits, exponent: exponent)
                }
            } else {
                if alignedA == alignedB {
                    return Decimal128(negative: zeroNegative, coefficient: .zero, exponent: exponent)
                }
                let (difference, negative) =
                    alignedA > alignedB
                    ? (alignedA.subtracting(alignedB), negativeA) : (alignedB.subtracting(alignedA), negativeB)
                return rounded(negative: negative, digits: difference.digits, exponent: exponent)
            }
        }
        // Slow path, on digit strings. An operand far below the other (more than 72 digits, twice
        // the precision and more) can only decide the rounding's direction, never a digit kept:
        // a 1 in its place, 72 digits down, rounds the same way and keeps the strings short.
        var (smallNegative, smallCoefficient, smallExponent) = (negativeA, coefficientA, exponentA)
        let (largeNegative, largeCoefficient, largeExponent) =
            exponentA > exponentB
            ? (negativeA, coefficientA, exponentA) : (negativeB, coefficientB, exponentB)
        if exponentA > exponentB {
            (smallNegative, smallCoefficient, smallExponent) = (negativeB, coefficientB, exponentB)
        }
        if largeExponent - smallExponent > 72 && !smallCoefficient.isZero {
            smallCoefficient = DecimalCoefficient(1)
            smallExponent = largeExponent - 72
        }
        if smallCoefficient.isZero {
            // Adding a zero: the other operand, brought as close to the zero's exponent as it goes.
            return rounded(
                negative: largeNegative,
                digits: largeCoefficient.digits + repeatElement(0, count: Swift.min(largeExponent - smallExponent, 80)),
                exponent: largeExponent - Swift.min(largeExponent - smallExponent, 80))
        }
        let largeDigits = largeCoefficient.digits + repeatElement(0, count: largeExponent - smallExponent)
        let smallDigits = smallCoefficient.digits
        if largeNegative == smallNegative {
            return rounded(
                negative: largeNegative, digits: DecimalDigits.add(largeDigits, smallDigits), exponent: smallExponent)
        }
        switch DecimalDigits.compare(largeDigits, smallDigits) {
        case 0:
            return Decimal128(
                negative: zeroNegative, coefficient: .zero, exponent: Swift.max(smallExponent, minExponent))
        case 1:
            return rounded(
                negative: largeNegative, digits: DecimalDigits.subtract(largeDigits, smallDigits),
                exponent: smallExponent)
        default:
            return rounded(
                negative: smallNegative, digits: DecimalDigits.subtract(smallDigits, largeDigits),
                exponent: smallExponent)
        }
    }

    /// The quotient by an integer, rounded half to even to 34 digits (IEEE 754 `division` by the
    /// integer as a decimal128, see `/`): exact quotients keep the dividend's exponent where they
    /// can (`10.50 / 2 == 5.25`), others carry all 34 digits; `x / 0` is ±infinity, `0 / 0` NaN.
    /// This is how `@avg` divides a decimal sum by a count.
    public func divided(by divisor: Int64) -> Decimal128 {
        self / Decimal128(divisor)
    }
}
