/// Arithmetic on unbounded decimal digit strings (most significant digit first), for the slow
/// paths of decimal128: sums whose operands lie too many digits apart for 128 bits, quotients
/// carried past 34 digits, and the exact expansion of a `Double`. The fast paths stay in 128 bits.
enum DecimalDigits {
    /// `a + b`.
    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(Swift.max(a.count, b.count) + 1)
        var indexA = a.count - 1
        var indexB = b.count - 1
        var carry: UInt8 = 0
        while indexA >= 0 || indexB >= 0 || carry > 0 {
            let sum = (indexA >= 0 ? a[indexA] : 0) + (indexB >= 0 ? b[indexB] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            indexA -= 1
            indexB -= 1
        }
        return result.reversed()
    }

    /// `a − b` for `a >= b` (see `compare`).
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(a.count)
        var indexB = b.count - 1
        var borrow: Int = 0
        for indexA in stride(from: a.count - 1, through: 0, by: -1) {
            var difference = Int(a[indexA]) - borrow - (indexB >= 0 ? Int(b[indexB]) : 0)
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
            indexB -= 1
        }
        assert(borrow == 0, "subtracting a larger number")
        return result.reversed()
    }

    /// −1, 0 or 1 comparing two digit strings by value (leading zeros allowed).
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let trimmedA = a.drop { $0 == 0 }
        let trimmedB = b.drop { $0 == 0 }
        if trimmedA.count != trimmedB.count { return trimmedA.count < trimmedB.count ? -1 : 1 }
        for (digitA, digitB) in zip(trimmedA, trimmedB) where digitA != digitB {
            return digitA < digitB ? -1 : 1
        }
        return 0
    }

    /// `a × b` (schoolbook; operands of a few dozen digits).
    static func multiply(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var columns = [Int](repeating: 0, count: a.count + b.count)
        for (indexA, digitA) in a.enumerated() where digitA != 0 {
            for (indexB, digitB) in b.enumerated() {
                columns[indexA + indexB + 1] += Int(digitA) * Int(digitB)
            }
        }
        var carry = 0
        for index in stride(from: columns.count - 1, through: 0, by: -1) {
            let total = columns[index] + carry
            columns[index] = total % 10
            carry = total / 10
        }
        return columns.map { UInt8($0) }
    }

    /// Long division by a nonzero digit string: the quotient's digits (as many as the dividend
    /// has, leading zeros included) and whether a remainder was left.
    static func divide(_ dividend: [UInt8], by divisor: [UInt8]) -> (quotient: [UInt8], inexact: Bool) {
        var quotient: [UInt8] = []
        quotient.reserveCapacity(dividend.count)
        var remainder: [UInt8] = []
        for digit in dividend {
            remainder.append(digit)
            if let first = remainder.firstIndex(where: { $0 != 0 }) {
                remainder.removeFirst(first)
            } else {
                remainder = []
            }
            var count: UInt8 = 0
            while compare(remainder, divisor) >= 0 {
                remainder = subtract(remainder, divisor)
                count += 1
            }
            quotient.append(count)
        }
        return (quotient, remainder.contains { $0 != 0 })
    }

    /// Long division by a nonzero 64-bit divisor: the quotient's digits (as many as the
    /// dividend has, leading zeros included) and whether a remainder was left.
    static func divide(_ dividend: [UInt8], by divisor: UInt64) -> (quotient: [UInt8], inexact: Bool) {
        var quotient: [UInt8] = []
        quotient.reserveCapacity(dividend.count)
        var remainder: UInt64 = 0
        for digit in dividend {
            // remainder < divisor, so remainder * 10 + digit < 10 * divisor: at most 68 bits.
            let product = remainder.multipliedFullWidth(by: 10)
            let (low, carry) = product.low.addingReportingOverflow(UInt64(digit))
            let wide = (high: product.high + (carry ? 1 : 0), low: low)
            let (digitQuotient, digitRemainder) = divisor.dividingFullWidth(wide)
            quotient.append(UInt8(digitQuotient))
            remainder = digitRemainder
        }
        return (quotient, remainder != 0)
    }

    /// The digits of `value × 5^fivePower × 2^twoPower`, computed exactly in base 10^9 limbs.
    static func digits(of value: UInt64, timesFiveToThe fivePower: Int, timesTwoToThe twoPower: Int) -> [UInt8] {
        var limbs: [UInt32] = []  // little endian, base 10^9
        var rest = value
        while rest > 0 {
            limbs.append(UInt32(rest % 1_000_000_000))
            rest /= 1_000_000_000
        }
        func multiply(by factor: UInt64) {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = UInt64(limbs[index]) * factor + carry
                limbs[index] = UInt32(product % 1_000_000_000)
                carry = product / 1_000_000_000
            }
            while carry > 0 {
                limbs.append(UInt32(carry % 1_000_000_000))
                carry /= 1_000_000_000
            }
        }
        // Factors below 2^32 keep every product within 64 bits.
        var fives = fivePower
        while fives > 0 {
            let step = Swift.min(fives, 13)  // 5^13 < 2^31
            multiply(by: DecimalDigits.powerOfFive(step))
            fives -= step
        }
        var twos = twoPower
        while twos > 0 {
            let step = Swift.min(twos, 31)
            multiply(by: UInt64(1) << UInt64(step))
            twos -= step
        }
        guard let top = limbs.last else { return [0] }
        var result = Array(String(top).utf8.map { $0 - UInt8(ascii: "0") })
        for limb in limbs.dropLast().reversed() {
            let text = String(limb)
            result.append(contentsOf: repeatElement(0, count: 9 - text.utf8.count))
            result.append(contentsOf: text.utf8.map { $0 - UInt8(ascii: "0") })
        }
        return result
    }

    private static func powerOfFive(_ exponent: Int) -> UInt64 {
        var power: UInt64 = 1
        for _ in 0..<exponent { power *= 5 }
        return power
    }
}
