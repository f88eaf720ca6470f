import Foundation

/// Decimal128 as Realm stores it: raw BID bits. Format 24 stores small values as BID32 or
/// BID64; they are widened here to the BID128 of the same value (as Realm Core's
/// `Decimal128(Bid32)` / `Decimal128(Bid64)` do) so a value always reads as the same 128 bits.
enum CoreDecimal {
    static let nullBits: (UInt64, UInt64) = (0xAA, 0x7C00_0000_0000_0000)
    /// 0 with exponent 0.
    static let zero = CoreValue.decimal128(low: 0, high: 0x3040_0000_0000_0000)

    static func value(_ bits: (UInt64, UInt64)) -> CoreValue {
        if bits == nullBits { return .null }
        return .decimal128(low: bits.0, high: bits.1)
    }

    /// BID128 of (sign, biased exponent in BID128 terms, coefficient < 2^64).
    private static func make(sign: Bool, exponent: Int, coefficient: UInt64) -> (UInt64, UInt64) {
        let high = (sign ? UInt64(1) << 63 : 0) | (UInt64(exponent & 0x3FFF) << 49)
        return (coefficient, high)
    }

    private static func infinity(sign: Bool) -> (UInt64, UInt64) {
        (0, (sign ? UInt64(1) << 63 : 0) | 0x7800_0000_0000_0000)
    }

    /// A NaN widened as the Intel library Realm uses does: the payload scaled to the wider
    /// precision (× 10^27 from BID32, × 10^18 from BID64), sign and signalling bits kept.
    private static func nan(topBits: UInt64, payload: UInt64, scale9: Bool) -> (UInt64, UInt64) {
        let scaled = scale9 ? payload &* 1_000_000_000 : payload
        let (high, low) = scaled.multipliedFullWidth(by: 1_000_000_000_000_000_000)
        return (low, topBits | (high & 0x0000_3FFF_FFFF_FFFF))
    }

    static func fromBid32(_ v: UInt32) -> (UInt64, UInt64) {
        // Realm's null in BID32 form (`DECIMAL_NULL_32`).
        if v == 0x7C00_00AA { return nullBits }
        let sign = v & 0x8000_0000 != 0
        if v & 0x6000_0000 == 0x6000_0000 {
            if v & 0x7C00_0000 == 0x7C00_0000 {
                return nan(topBits: UInt64(v & 0xFC00_0000) << 32, payload: UInt64(v & 0xF_FFFF), scale9: true)
            }
            if v & 0x7800_0000 == 0x7800_0000 { return infinity(sign: sign) }
            let e = Int((v >> 21) & 0xFF)
            let c = UInt64((v & 0x1F_FFFF) | 0x80_0000)
            return make(sign: sign, exponent: e - 101 + 6176, coefficient: c)
        }
        let e = Int((v >> 23) & 0xFF)
        return make(sign: sign, exponent: e - 101 + 6176, coefficient: UInt64(v & 0x7F_FFFF))
    }

    static func fromBid64(_ v: UInt64) -> (UInt64, UInt64) {
        // Realm's null in BID64 form (`DECIMAL_NULL_64`).
        if v == 0x7C00_0000_0000_00AA { return nullBits }
        let sign = v & (1 << 63) != 0
        if v & 0x6000_0000_0000_0000 == 0x6000_0000_0000_0000 {
            if v & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 {
                return nan(topBits: v & 0xFC00_0000_0000_0000, payload: v & 0x3_FFFF_FFFF_FFFF, scale9: false)
            }
            if v & 0x7800_0000_0000_0000 == 0x7800_0000_0000_0000 { return infinity(sign: sign) }
            let e = Int((v >> 51) & 0x3FF)
            let c = (v & 0x7_FFFF_FFFF_FFFF) | 0x20_0000_0000_0000
            return make(sign: sign, exponent: e - 398 + 6176, coefficient: c)
        }
        let e = Int((v >> 53) & 0x3FF)
        return make(sign: sign, exponent: e - 398 + 6176, coefficient: v & 0x1F_FFFF_FFFF_FFFF)
    }

    /// The text Realm Core's `Decimal128::to_string()` gives: "NaN", "Inf", "-Inf"; a
    /// coefficient of up to 64 bits as digits with the point moved left as far as the exponent
    /// allows ("1.5", "1.2E2", "1E-6143"); a larger one as the Intel library prints it
    /// ("+9999999999999999999999999999999999E+6111").
    static func text(low: UInt64, high: UInt64) -> String {
        let negative = high >> 63 != 0
        if high & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 { return (negative ? "-" : "") + "NaN" }
        if high & 0x7800_0000_0000_0000 == 0x7800_0000_0000_0000 { return (negative ? "-" : "") + "Inf" }
        var exponent: Int
        let coefficientHigh: UInt64
        var coefficientLow = low
        if high & 0x6000_0000_0000_0000 == 0x6000_0000_0000_0000 {
            // The large-coefficient form is never canonical in BID128: the value is zero.
            exponent = Int((high >> 47) & 0x3FFF) - 6176
            coefficientHigh = 0
            coefficientLow = 0
        } else {
            exponent = Int((high >> 49) & 0x3FFF) - 6176
            coefficientHigh = high & 0x1_FFFF_FFFF_FFFF
        }
        if coefficientHigh != 0 {
            let digits = decimalDigits(high: coefficientHigh, low: coefficientLow)
            return (negative ? "-" : "+") + digits + "E" + (exponent >= 0 ? "+" : "") + String(exponent)
        }
        let digits = Array(String(coefficientLow))
        var before = digits.count
        while before > 1, exponent != 0 {
            before -= 1
            exponent += 1
        }
        var out = negative ? "-" : ""
        out += String(digits[0..<before])
        if before < digits.count { out += "." + String(digits[before...]) }
        if exponent != 0 { out += "E" + String(exponent) }
        return out
    }

    /// The decimal digits of a 113-bit coefficient.
    private static func decimalDigits(high: UInt64, low: UInt64) -> String {
        if high == 0 { return String(low) }
        var h = high
        var l = low
        var out: [Character] = []
        while h != 0 || l != 0 {
            // Divide the 128-bit (h, l) by 10.
            let (qh, rh) = h.quotientAndRemainder(dividingBy: 10)
            let (ql, rl) = UInt64(10).dividingFullWidth((high: rh, low: l))
            h = qh
            l = ql
            out.append(Character(String(rl)))
        }
        return String(out.reversed())
    }
}
