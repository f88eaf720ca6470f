extension Decimal128: Comparable, Hashable {
    /// Equal by value, as Realm Core's `operator==`: `1.0 == 1.00`, `0 == -0`; a NaN equals
    /// another NaN only when their bits are the same (so a NaN is found again by equality).
    public static func == (a: Decimal128, b: Decimal128) -> Bool {
        compare(a, b) == 0
    }

    /// Ordered by value, as Realm Core's `Decimal128::compare`: every NaN before −infinity (NaNs
    /// among themselves by their bits, so sorting is stable), then the numbers, then +infinity.
    public static func < (a: Decimal128, b: Decimal128) -> Bool {
        compare(a, b) < 0
    }

    /// −1, 0 or 1: Realm Core's three-way comparison (see `<`).
    public static func compare(_ a: Decimal128, _ b: Decimal128) -> Int {
        if let order = numericOrder(a, b) { return order }
        switch (a.isNaN, b.isNaN) {
        case (true, true):
            if a.high != b.high { return a.high < b.high ? -1 : 1 }
            return a.low == b.low ? 0 : (a.low < b.low ? -1 : 1)
        case (true, false): return -1
        default: return 1
        }
    }

    /// The IEEE comparison of two values by what they are worth; nil when either is NaN.
    static func numericOrder(_ a: Decimal128, _ b: Decimal128) -> Int? {
        switch (a.form, b.form) {
        case (.nan, _), (_, .nan):
            return nil
        case (.infinity(let negativeA), .infinity(let negativeB)):
            return negativeA == negativeB ? 0 : (negativeA ? -1 : 1)
        case (.infinity(let negative), .finite):
            return negative ? -1 : 1
        case (.finite, .infinity(let negative)):
            return negative ? 1 : -1
        case (
            .finite(let negativeA, let coefficientA, let exponentA),
            .finite(let negativeB, let coefficientB, let exponentB)
        ):
            let zeroA = coefficientA.isZero
            let zeroB = coefficientB.isZero
            if zeroA && zeroB { return 0 }
            if zeroA { return negativeB ? 1 : -1 }
            if zeroB { return negativeA ? -1 : 1 }
            if negativeA != negativeB { return negativeA ? -1 : 1 }
            let magnitude = compareMagnitudes(coefficientA, exponentA, coefficientB, exponentB)
            return negativeA ? -magnitude : magnitude
        }
    }

    /// Compares two nonzero `coefficient × 10^exponent` magnitudes.
    private static func compareMagnitudes(
        _ coefficientA: DecimalCoefficient, _ exponentA: Int,
        _ coefficientB: DecimalCoefficient, _ exponentB: Int
    ) -> Int {
        // The position of the leading digit decides unless it is the same for both.
        let topA = coefficientA.digitCount + exponentA
        let topB = coefficientB.digitCount + exponentB
        if topA != topB { return topA < topB ? -1 : 1 }
        // Same leading position: the exponents differ by less than 34, so aligning fits 128 bits.
        var alignedA = coefficientA
        var alignedB = coefficientB
        if exponentA > exponentB {
            alignedA = coefficientA.scaled(byPowerOfTen: exponentA - exponentB) ?? .max
        } else if exponentB > exponentA {
            alignedB = coefficientB.scaled(byPowerOfTen: exponentB - exponentA) ?? .max
        }
        return alignedA == alignedB ? 0 : (alignedA < alignedB ? -1 : 1)
    }

    /// One encoding per value, the same in every process (unlike `hashValue`): trailing zeros
    /// stripped, every zero as +0E0, every infinity and NaN as itself.
    var canonical: Decimal128 {
        guard case .finite(let negative, var coefficient, var exponent) = form else { return self }
        if coefficient.isZero { return .zero }
        while true {
            let (quotient, remainder) = coefficient.quotientAndRemainder(dividingBy: 10)
            guard remainder == 0 else { break }
            coefficient = quotient
            exponent += 1
        }
        return Decimal128(negative: negative, coefficient: coefficient, exponent: exponent)
    }

    /// Hashes by value, so values that are `==` hash alike (`1.0` and `1.00`, `0` and `-0`).
    public func hash(into hasher: inout Hasher) {
        switch form {
        case .nan:
            hasher.combine(0 as UInt8)
            hasher.combine(high)
            hasher.combine(low)
        case .infinity(let negative):
            hasher.combine(1 as UInt8)
            hasher.combine(negative)
        case .finite:
            // The shortest coefficient names the value.
            let words = canonical
            hasher.combine(2 as UInt8)
            hasher.combine(words.high)
            hasher.combine(words.low)
        }
    }
}
