import Foundation
import Testing
@testable import RealmEngine

/// Decimal128 multiplication and division as IEEE 754-2008 defines them (rounded once, half to
/// even, to 34 digits; the preferred exponent where the result is exact), and the standard
/// library's numeric protocols RealmSwift's Decimal128 conforms to.
@Suite struct Decimal128ProductTests {
    static func d(_ text: String) -> Decimal128 { (try? Decimal128(parsing: text)) ?? .nan }

    /// Digit for digit: the same coefficient and exponent (`1.0` is not `1.00`), as `text` parses.
    static func same(_ value: Decimal128, _ text: String) -> Bool {
        let expected = d(text)
        return value.low == expected.low && value.high == expected.high
    }

    @Test(arguments: [
        ("1.5", "2", "3.0"), ("0.1", "0.1", "0.01"), ("12.50", "3", "37.50"), ("-2", "0.5", "-1.0"),
        ("0", "-7", "-0"), ("1E+3", "1E+3", "1E+6"),
    ])
    func productsKeepEveryDigitAndTheSumOfExponents(_ a: String, _ b: String, _ expected: String) {
        let product = Self.d(a) * Self.d(b)
        #expect(Self.same(product, expected), "\(a) × \(b) = \(product)")
    }

    @Test func aProductPast34DigitsIsRoundedOnceHalfToEven() {
        let nines = Self.d(String(repeating: "9", count: 34))
        // (10^34 − 1)² = 10^68 − 2·10^34 + 1: 34 digits ending in 8, then 0…01 (below a half).
        #expect(nines * nines == Self.d(String(repeating: "9", count: 33) + "8E+34"))
        // A tie at the 35th digit rounds to the even neighbour: down after a 2, up after a 1.
        let tie = Self.d("1000000000000000000000000000000001") * Self.d("25")
        #expect(tie == Self.d("2500000000000000000000000000000002E+1"))
        let tieOver = Self.d("1000000000000000000000000000000001") * Self.d("15")
        #expect(tieOver == Self.d("1500000000000000000000000000000002E+1"))
    }

    @Test(arguments: [
        ("10.50", "2", "5.25"), ("1", "8", "0.125"), ("6", "2", "3"), ("1.00", "4", "0.25"),
        ("1", "3", "0.3333333333333333333333333333333333"), ("2", "3", "0.6666666666666666666666666666666667"),
        ("-1", "4", "-0.25"), ("0", "5", "0"), ("100", "0.01", "1.00E+4"),
    ])
    func quotientsAreExactWhereTheyCanBeAndRoundedOnceElsewhere(_ a: String, _ b: String, _ expected: String) {
        let quotient = Self.d(a) / Self.d(b)
        #expect(quotient == Self.d(expected), "\(a) ÷ \(b) = \(quotient)")
        #expect(Self.same(quotient, expected), "\(a) ÷ \(b) = \(quotient)")
    }

    @Test func infinitiesZerosAndNaNs() {
        #expect((Self.d("2") / Self.d("0")) == .infinity)
        #expect((Self.d("-2") / Self.d("0")) == -Decimal128.infinity)
        #expect((Self.d("0") / Self.d("0")).isNaN)
        #expect((Decimal128.infinity * Self.d("0")).isNaN)
        #expect((Decimal128.infinity * Self.d("-3")) == -Decimal128.infinity)
        #expect((Decimal128.infinity / Decimal128.infinity).isNaN)
        #expect((Self.d("5") / Decimal128.infinity).isZero)
        #expect((Decimal128.nan * Self.d("1")).isNaN)
        // Overflow goes to infinity, underflow to zero, never to a wrong finite value.
        #expect((Self.d("1E+6000") * Self.d("1E+6000")) == .infinity)
        #expect((Self.d("1E-6000") * Self.d("1E-6000")).isZero)
    }

    @Test func theNumericProtocolsHold() {
        func square<T: Numeric>(_ value: T) -> T { value * value }
        #expect(square(Self.d("1.5")) == Self.d("2.25"))
        #expect(Self.d("-2.5").magnitude == Self.d("2.5"))
        #expect(Decimal128(exactly: 42) == Self.d("42"))
        var total: Decimal128 = 1
        total *= 3
        total /= 4
        #expect(total == Self.d("0.75"))
        #expect(
            Array(stride(from: Decimal128(0), to: 1, by: Self.d("0.25")))
                == ["0", "0.25", "0.50", "0.75"].map { Self.d($0) })
        #expect(Self.d("0.1").distance(to: Self.d("0.3")) == Self.d("0.2"))
        #expect(Decimal128.max > Self.d("9.99E+6143") && Decimal128.min == -Decimal128.max)
        #expect(Decimal128.max == Self.d("9.999999999999999999999999999999999E+6144"))
    }
}
