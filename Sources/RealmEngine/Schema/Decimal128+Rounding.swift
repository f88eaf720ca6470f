extension Decimal128 {
    /// The decimal128 nearest to `±digits × 10^exponent` (digits most significant first, any
    /// number of them, leading zeros allowed), rounding once, half to even, as IEEE 754 requires
    /// of every conversion and operation here:
    ///
    /// - more than 34 significant digits are rounded to 34 (the exponent rises by those dropped);
    /// - an exponent above 6111 is brought down by padding the coefficient with zeros while it
    ///   has fewer than 34 digits (Intel's "clamping"); past that the result is ±infinity;
    /// - an exponent below −6176 drops further digits (a subnormal result, possibly zero);
    /// - a zero keeps its exponent, clamped into range.
    ///
    /// `precision` below 34 rounds to fewer digits (Core's conversion of a double keeps 15).
    static func rounded(negative: Bool, digits: [UInt8], exponent: Int, precision: Int = Decimal128.precision)
        -> Decimal128
    {
        guard let first = digits.firstIndex(where: { $0 != 0 }) else {
            let clamped = Swift.min(Swift.max(exponent, minExponent), maxExponent)
            return Decimal128(negative: negative, coefficient: .zero, exponent: clamped)
        }
        let significant = digits[first...]
        var keep = Swift.min(significant.count, precision)
        var resultExponent = exponent + (significant.count - keep)
        if resultExponent < minExponent {
            // Below the smallest exponent: drop the digits under 10^−6176 too, in the same rounding.
            keep -= minExponent - resultExponent
            resultExponent = minExponent
        }
        var coefficient = roundedCoefficient(significant, keeping: keep)
        if coefficient.digitCount > precision {
            // Rounding carried 99…9 up to 10^precision: one digit fewer, one exponent more.
            coefficient = coefficient.quotientAndRemainder(dividingBy: 10).quotient
            resultExponent += 1
        }
        if resultExponent > maxExponent {
            if coefficient.isZero {
                return Decimal128(negative: negative, coefficient: .zero, exponent: maxExponent)
            }
            while resultExponent > maxExponent, let padded = coefficient.multiplied(by: 10), padded <= .max {
                coefficient = padded
                resultExponent -= 1
            }
            if resultExponent > maxExponent {
                return negative ? -Decimal128.infinity : Decimal128.infinity
            }
        }
        return Decimal128(negative: negative, coefficient: coefficient, exponent: resultExponent)
    }

    /// The first `keep` digits as an integer, rounded half to even by the rest (`keep` may be 0
    /// or negative: every digit is then below the kept unit).
    private static func roundedCoefficient(_ digits: ArraySlice<UInt8>, keeping keep: Int) -> DecimalCoefficient {
        if keep < 0 { return .zero }
        let start = digits.startIndex
        let kept = digits[start..<(start + keep)]
        let coefficient = DecimalCoefficient(digits: kept)
        guard keep < digits.count else { return coefficient }
        let firstDropped = digits[start + keep]
        let restNonZero = digits[(start + keep + 1)...].contains { $0 != 0 }
        let lastKeptOdd = (kept.last ?? 0) % 2 == 1
        let roundUp = firstDropped > 5 || (firstDropped == 5 && (restNonZero || lastKeptOdd))
        guard roundUp else { return coefficient }
        // At most 34 kept digits plus one carry: far below 2^128.
        return coefficient.adding(DecimalCoefficient(1)) ?? .max
    }

    /// The value with the sign flipped (also for NaN and infinity, as IEEE's `negate`).
    public static prefix func - (value: Decimal128) -> Decimal128 {
        Decimal128(low: value.low, high: value.high ^ signBit)
    }
}
