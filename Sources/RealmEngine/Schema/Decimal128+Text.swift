extension Decimal128: CustomStringConvertible, LosslessStringConvertible {
    /// Parses decimal text without going through binary floating point: an optional sign, digits
    /// with at most one decimal point, and an optional exponent (`0.1`, `-1E-6143`,
    /// `+9999999999999999999999999999999999E+6111`, `12.50e3`); or `NaN`, `sNaN`, `Inf`,
    /// `Infinity` (any case, optional sign).
    ///
    /// Follows Realm Core's `Decimal128(StringData)` (Intel's `bid128_from_string`) for every
    /// valid text: more than 34 digits round half to even, once; an exponent past the range gives
    /// ±infinity (or a zero, or a subnormal, by the same rounding); trailing zeros are kept
    /// (`1.50` has coefficient 150, exponent −2). Where Core would quietly return NaN for text
    /// that is not a number, this throws `RealmError.invalidInput` naming the text.
    public init(parsing text: some StringProtocol) throws {
        guard let value = Decimal128.parse(Substring(text)) else {
            throw RealmError.invalidInput(
                "'\(text)' is not a decimal number: expected digits with an optional sign, "
                    + "decimal point and exponent (12.50, -1E-6143), or NaN, Inf, -Infinity")
        }
        self = value
    }

    /// Parses decimal text as `init(parsing:)` does; nil when it is not a decimal number.
    public init?(_ description: String) {
        guard let value = Decimal128.parse(Substring(description)) else { return nil }
        self = value
    }

    /// The text's value when it is held without rounding (at most 34 significant digits, an
    /// exponent in range; NaN and infinities as spelled); nil for text that is not a number or
    /// whose value the decimal128 would round, so a conversion from text can refuse a loss.
    public init?(exactly text: some StringProtocol) {
        guard let value = Decimal128.parse(Substring(text), requireExact: true) else { return nil }
        self = value
    }

    private static func parse(_ text: Substring, requireExact: Bool = false) -> Decimal128? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let word = String(decoding: bytes, as: UTF8.self).lowercased()
        switch word {
        case "inf", "infinity": return negative ? -infinity : infinity
        case "nan": return Decimal128(low: 0, high: nanBits | (negative ? signBit : 0))
        case "snan": return Decimal128(low: 0, high: signalingNaNBits | (negative ? signBit : 0))
        default: break
        }
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count)
        var digitsAfterPoint = 0
        var sawPoint = false
        var sawDigit = false
        while let byte = bytes.first {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                // Leading zeros carry no value; skipping them keeps a long 0.000…1 cheap.
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) || sawPoint {
                    digits.append(byte - UInt8(ascii: "0"))
                }
                if sawPoint { digitsAfterPoint += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if let marker = bytes.first {
            guard marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") else { return nil }
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty else { return nil }
            for byte in bytes {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                // Saturate far past the range: the result is then ±infinity or zero either way.
                exponent = Swift.min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000_000)
            }
            if exponentNegative { exponent = -exponent }
        }
        let value = rounded(negative: negative, digits: digits, exponent: exponent - digitsAfterPoint)
        if requireExact {
            guard case .finite(_, let coefficient, let valueExponent) = value.form,
                sameNumber(digits, exponent - digitsAfterPoint, coefficient.digits, valueExponent)
            else { return nil }
        }
        return value
    }

    /// Whether two digit strings with exponents name the same number (zeros of any exponent alike).
    private static func sameNumber(_ digitsA: [UInt8], _ exponentA: Int, _ digitsB: [UInt8], _ exponentB: Int) -> Bool {
        func normalized(_ digits: [UInt8], _ exponent: Int) -> ([UInt8], Int) {
            let leading = digits.drop { $0 == 0 }
            guard let last = leading.lastIndex(where: { $0 != 0 }) else { return ([], 0) }
            return (Array(leading[...last]), exponent + (leading.endIndex - 1 - last))
        }
        let a = normalized(digitsA, exponentA)
        let b = normalized(digitsB, exponentB)
        return a.0 == b.0 && a.1 == b.1
    }

    /// The text Realm Core's `Decimal128::to_string` prints, character for character.
    ///
    /// A coefficient that fits in the low word prints plainly with the point moved left as far
    /// as the exponent allows (`0`, `-123.456`, `1.5E3` for coefficient 15 and exponent 2,
    /// `1E-6143`, `NaN`, `-Inf`); a larger one prints as Intel's library does, sign, all digits
    /// and a signed exponent (`+9999999999999999999999999999999999E+6111`).
    public var description: String {
        let negative = isSignMinus
        if high & Decimal128.coefficientHighMask != 0 {
            return intelText(negative: negative)
        }
        var text = negative ? "-" : ""
        if high & Decimal128.infinityBits == Decimal128.infinityBits {
            text += high & Decimal128.nanBits == Decimal128.nanBits ? "NaN" : "Inf"
            return text
        }
        // Core takes the exponent from the first form's bits even for the (non-canonical) `11`
        // form, and prints the low word as it is; so do we, to print what Core prints.
        var exponent = Int((high >> 49) & 0x3FFF) - Decimal128.exponentBias
        let digits = String(low)
        var digitsBefore = digits.count
        while digitsBefore > 1 && exponent != 0 {
            digitsBefore -= 1
            exponent += 1
        }
        text += digits.prefix(digitsBefore)
        if digitsBefore < digits.count {
            text += "."
            text += digits.dropFirst(digitsBefore)
        }
        if exponent != 0 {
            text += "E\(exponent)"
        }
        return text
    }

    /// Intel's `bid128_to_string`: `[+-]digitsE[+-]exponent`, `[+-]NaN`, `[+-]SNaN`, `[+-]Inf`.
    private func intelText(negative: Bool) -> String {
        let sign = negative ? "-" : "+"
        switch form {
        case .nan(_, let signaling): return sign + (signaling ? "SNaN" : "NaN")
        case .infinity: return sign + "Inf"
        case .finite(_, let coefficient, let exponent):
            let digits = coefficient.digits.map { Character(Unicode.Scalar($0 + UInt8(ascii: "0"))) }
            return sign + String(digits) + "E" + (exponent >= 0 ? "+" : "-") + String(exponent.magnitude)
        }
    }
}
