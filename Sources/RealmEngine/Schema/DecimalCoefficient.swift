/// An unsigned 128-bit integer, just wide enough for a decimal128 coefficient (< 10^34 < 2^113),
/// with the few operations the conversions need. The standard library's `UInt128` needs macOS 15,
/// and the package supports macOS 13, so the two words are kept by hand.
struct DecimalCoefficient: Hashable, Comparable, Sendable {
    var high: UInt64
    var low: UInt64

    static let zero = DecimalCoefficient(high: 0, low: 0)
    /// 10^34 − 1, the largest canonical coefficient.
    static let max = DecimalCoefficient(high: 0x0001_ED09_BEAD_87C0, low: 0x378D_8E63_FFFF_FFFF)
    /// 10^33: a coefficient at or above it has all 34 digits.
    static let fullPrecision = DecimalCoefficient(high: 0x0000_314D_C644_8D93, low: 0x38C1_5B0A_0000_0000)

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ value: UInt64) {
        self.init(high: 0, low: value)
    }

    var isZero: Bool { high == 0 && low == 0 }

    static func < (a: DecimalCoefficient, b: DecimalCoefficient) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    /// `self * factor + addend`, or nil when the result does not fit in 128 bits.
    func multiplied(by factor: UInt64, adding addend: UInt64 = 0) -> DecimalCoefficient? {
        let lowProduct = low.multipliedFullWidth(by: factor)
        let highProduct = high.multipliedFullWidth(by: factor)
        guard highProduct.high == 0 else { return nil }
        let (newHigh, overflow) = highProduct.low.addingReportingOverflow(lowProduct.high)
        guard !overflow else { return nil }
        let (newLow, carry) = lowProduct.low.addingReportingOverflow(addend)
        if carry {
            let (carried, overflow2) = newHigh.addingReportingOverflow(1)
            guard !overflow2 else { return nil }
            return DecimalCoefficient(high: carried, low: newLow)
        }
        return DecimalCoefficient(high: newHigh, low: newLow)
    }

    /// `self + other`, or nil on overflow past 128 bits.
    func adding(_ other: DecimalCoefficient) -> DecimalCoefficient? {
        let (newLow, carry) = low.addingReportingOverflow(other.low)
        let (sum, overflow) = high.addingReportingOverflow(other.high)
        guard !overflow else { return nil }
        let (newHigh, overflow2) = sum.addingReportingOverflow(carry ? 1 : 0)
        guard !overflow2 else { return nil }
        return DecimalCoefficient(high: newHigh, low: newLow)
    }

    /// `self − other` for `self >= other`.
    func subtracting(_ other: DecimalCoefficient) -> DecimalCoefficient {
        assert(self >= other, "subtracting a larger coefficient")
        let (newLow, borrow) = low.subtractingReportingOverflow(other.low)
        return DecimalCoefficient(high: high &- other.high &- (borrow ? 1 : 0), low: newLow)
    }

    /// The quotient and remainder of a division by a nonzero 64-bit divisor.
    func quotientAndRemainder(dividingBy divisor: UInt64) -> (quotient: DecimalCoefficient, remainder: UInt64) {
        let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: divisor)
        let (quotientLow, remainder) = divisor.dividingFullWidth((high: remainderHigh, low: low))
        return (DecimalCoefficient(high: quotientHigh, low: quotientLow), remainder)
    }

    /// `self * 10^power`, or nil when it does not fit in 128 bits.
    func scaled(byPowerOfTen power: Int) -> DecimalCoefficient? {
        var result = self
        var remaining = power
        while remaining > 0 {
            let step = Swift.min(remaining, 19)
            guard let next = result.multiplied(by: DecimalCoefficient.powersOfTen[step]) else { return nil }
            result = next
            remaining -= step
        }
        return result
    }

    /// The decimal digits, most significant first (`[0]` for zero).
    var digits: [UInt8] {
        if isZero { return [0] }
        var chunks: [UInt64] = []
        var rest = self
        while !rest.isZero {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10_000_000_000_000_000_000)
            chunks.append(remainder)
            rest = quotient
        }
        var result: [UInt8] = []
        result.reserveCapacity(chunks.count * 19)
        for (index, chunk) in chunks.reversed().enumerated() {
            var chunkDigits: [UInt8] = []
            var value = chunk
            repeat {
                chunkDigits.append(UInt8(value % 10))
                value /= 10
            } while value > 0
            // Every chunk but the first is padded to its 19 digits.
            if index > 0 {
                while chunkDigits.count < 19 { chunkDigits.append(0) }
            }
            result.append(contentsOf: chunkDigits.reversed())
        }
        return result
    }

    /// The number of decimal digits (1 for zero).
    var digitCount: Int {
        var count = 1
        var bound = DecimalCoefficient(10)
        while bound <= self {
            count += 1
            guard let next = bound.multiplied(by: 10) else { return count }
            bound = next
        }
        return count
    }

    /// Builds a coefficient from decimal digits (at most 38, so the value fits).
    init(digits: ArraySlice<UInt8>) {
        var value = DecimalCoefficient.zero
        for digit in digits {
            // At most 38 digits are passed, which is below 2^128; the fallback cannot happen.
            value = value.multiplied(by: 10, adding: UInt64(digit)) ?? .max
        }
        self = value
    }

    /// 10^0 … 10^19.
    static let powersOfTen: [UInt64] = {
        var powers: [UInt64] = [1]
        for _ in 1...19 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()
}
