extension Decimal128 {
    /// The double as Realm Core's `Decimal128(double)` converts it: exactly when the double's
    /// value has at most 15 significant digits (`0.5`, `1.25`, `100`); otherwise its exact binary
    /// value rounded to 34 digits and then to 15 significant digits, half to even — so `0.1`
    /// becomes 0.100000000000000 (the 15 digits a double is good for), not 0.1000000000000000055….
    /// NaN keeps the sign and what fits of the payload; ±infinity and ±0 map to themselves.
    public init(_ value: Double) {
        self.init(value, significantDigits: 15)
    }

    /// The float as Realm Core's `Decimal128(float)` converts it: as its double, rounded to 7
    /// significant digits instead of 15 (`RoundTo::Digits7`), so `0.1f` becomes 0.1000000.
    public init(_ value: Float) {
        self.init(Double(value), significantDigits: 7)
    }

    private init(_ value: Double, significantDigits: Int) {
        let bits = value.bitPattern
        let negative = bits >> 63 != 0
        let sign: UInt64 = negative ? Decimal128.signBit : 0
        let biasedExponent = Int((bits >> 52) & 0x7FF)
        let fraction = bits & ((1 << 52) - 1)
        if biasedExponent == 0x7FF {
            guard fraction != 0 else {
                self.init(low: 0, high: sign | Decimal128.infinityBits)
                return
            }
            // Intel's binary64_to_bid128 moves the payload (without the quiet bit, which the
            // 64-bit shift drops) into the coefficient; a payload past 10^33 becomes 0.
            let shifted = fraction << 13
            let payloadHigh = shifted >> 18
            let payloadLow = shifted << 46
            let tooLarge =
                payloadHigh > 54_210_108_624_275
                || (payloadHigh == 54_210_108_624_275 && payloadLow > 4_089_650_035_136_921_599)
            self.init(low: tooLarge ? 0 : payloadLow, high: sign | Decimal128.nanBits | (tooLarge ? 0 : payloadHigh))
            return
        }
        if biasedExponent == 0 && fraction == 0 {
            self.init(negative: negative, coefficient: .zero, exponent: 0)
            return
        }
        // value = mantissa × 2^binaryExponent exactly, with the mantissa odd (or the binary
        // exponent 0 or more), so the decimal form below has no needless trailing zeros.
        var mantissa = biasedExponent == 0 ? fraction : fraction | (1 << 52)
        var binaryExponent = (biasedExponent == 0 ? 1 : biasedExponent) - 1075
        let trailing = mantissa.trailingZeroBitCount
        mantissa >>= UInt64(trailing)
        binaryExponent += trailing
        let digits: [UInt8]
        let exponent: Int
        if binaryExponent >= 0 {
            // An integer: mantissa × 2^e, exponent 0.
            digits = DecimalDigits.digits(of: mantissa, timesFiveToThe: 0, timesTwoToThe: binaryExponent)
            exponent = 0
        } else {
            // mantissa / 2^a == mantissa × 5^a × 10^−a.
            digits = DecimalDigits.digits(of: mantissa, timesFiveToThe: -binaryExponent, timesTwoToThe: 0)
            exponent = binaryExponent
        }
        if digits.count <= significantDigits {
            self.init(negative: negative, coefficient: DecimalCoefficient(digits: digits[...]), exponent: exponent)
            return
        }
        // Core rounds twice: to 34 digits (the conversion), then quantizes to 15 or 7 (the `RoundTo`).
        let full = Decimal128.rounded(negative: negative, digits: digits, exponent: exponent)
        guard case .finite(_, let coefficient, let fullExponent) = full.form else {
            self = full
            return
        }
        self = Decimal128.rounded(
            negative: negative, digits: coefficient.digits, exponent: fullExponent, precision: significantDigits)
    }

    /// The value as an `Int64` when it is an integer in range (`12.00` yes, `12.5` and NaN no).
    public var exactInt64: Int64? {
        guard case .finite(let negative, var coefficient, let exponent) = form else { return nil }
        if coefficient.isZero { return 0 }
        if exponent >= 0 {
            guard exponent <= 19, let scaled = coefficient.scaled(byPowerOfTen: exponent) else { return nil }
            coefficient = scaled
        } else {
            for _ in 0..<Swift.min(-exponent, 40) {
                let (quotient, remainder) = coefficient.quotientAndRemainder(dividingBy: 10)
                guard remainder == 0 else { return nil }
                coefficient = quotient
            }
            if -exponent > 40 && !coefficient.isZero { return nil }
        }
        guard coefficient.high == 0 else { return nil }
        if negative {
            return coefficient.low <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- coefficient.low) : nil
        }
        return coefficient.low <= UInt64(Int64.max) ? Int64(coefficient.low) : nil
    }

    /// The nearest `Double` (correctly rounded from the exact decimal value), for display and
    /// for comparing with float and double columns.
    public var doubleValue: Double {
        switch form {
        case .nan(let negative, _): return negative ? -Double.nan : Double.nan
        case .infinity(let negative): return negative ? -Double.infinity : Double.infinity
        case .finite(let negative, let coefficient, let exponent):
            if coefficient.isZero { return negative ? -0.0 : 0.0 }
            let text = String(coefficient.digits.map { Character(Unicode.Scalar($0 + UInt8(ascii: "0"))) })
            // Swift's `Double(String)` rounds correctly (strtod), so this is the nearest double.
            let magnitude = Double(text + "e\(exponent)") ?? Double.nan
            return negative ? -magnitude : magnitude
        }
    }
}
