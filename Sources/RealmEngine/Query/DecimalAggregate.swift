/// `@sum` and `@avg` of decimal values, exactly as Realm Core computes them: a decimal128 sum
/// from zero (each addition exact, rounded half to even only past 34 digits; NaN and infinities
/// as IEEE adds them), and the average as that sum divided by the count, rounded once.
enum DecimalAggregate {
    /// The sum of the decimal values (nil and other values skipped); 0 for none.
    static func sum(_ values: [Value]) -> Decimal128 {
        var total = Decimal128.zero
        for case .decimal128(let d) in values { total += d }
        return total
    }

    /// The average of the decimal values (nil and other values skipped); nil for none.
    static func average(_ values: [Value]) -> Decimal128? {
        var total = Decimal128.zero
        var count: Int64 = 0
        for case .decimal128(let d) in values {
            total += d
            count += 1
        }
        return count == 0 ? nil : total.divided(by: count)
    }
}
