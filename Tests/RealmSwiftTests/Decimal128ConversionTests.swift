import Foundation
import Testing
import RealmSwift

/// RealmSwift's `Decimal128(number:)` and `Decimal128(value:)` (realm-swift's Decimal128Tests
/// build its values with `.init(number: 3.14159)` and `.init(value: NSNull())`, rewritten here).
@Suite struct Decimal128ConversionTests {
    @Test func numbersConvertAsRealmSwiftConvertsThem() {
        #expect(Decimal128(number: 3.14159) == 3.14159)
        // A double to 15 significant digits (Realm Core's Decimal128(double)), not its binary expansion.
        #expect(Decimal128(number: 0.1) == Decimal128("0.1"))
        #expect(Decimal128(number: NSNumber(value: 123 as Int)) == 123)
        #expect(Decimal128(number: NSNumber(value: -7 as Int8)) == -7)
        #expect(Decimal128(number: NSNumber(value: UInt64.max)).description == "18446744073709551615")
        #expect(Decimal128(number: NSNumber(value: true)) == 1)
    }

    @Test func valuesOfEverySupportedTypeConvert() {
        #expect(Decimal128(value: NSNull()).isNaN)
        #expect(Decimal128(value: Optional<Int>.none as Any).isNaN)
        #expect(Decimal128(value: Optional(5) as Any) == 5)
        #expect(Decimal128(value: "9.876543") == Decimal128("9.876543"))
        #expect(Decimal128(value: Decimal(string: "1.25")!) == Decimal128("1.25"))
        #expect(Decimal128(value: 2.5 as Double) == 2.5)
        #expect(Decimal128(value: 0.5 as Float) == 0.5)
        #expect(Decimal128(value: Int16(-300)) == -300)
        #expect(Decimal128(value: UInt32(4_000_000_000)) == 4_000_000_000)
        #expect(Decimal128(value: Decimal128("1.50")) == Decimal128("1.5"))
    }

    @Test func theNullDecimalIsASignalingNaNAsRealmSwiftReportsIt() {
        let d = Decimal128(value: NSNull())
        #expect(d.isNaN)
        #expect(d.isSignaling)
        #expect(d.isSignalingNaN)
    }
}
