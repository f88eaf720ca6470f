import Foundation
import Testing
@testable import RealmEngine

/// Decimal128: the BID encoding read and written as Realm Core does, text both ways, ordering,
/// and exact arithmetic. Vectors come from Realm Core itself (`generated-alltypes`, written by
/// Realm Core 14.14: each value's words and its `to_string`), from hand computation, and — for
/// rounding over many random operands — from Python's `decimal` module set to decimal128.
@Suite(.tags(.multiProcess)) struct Decimal128Tests {
    /// (text printed by Realm Core, high word, low word) from generated-alltypes.json.
    static let coreVectors: [(String, UInt64, UInt64)] = [
        ("0", 0x3040_0000_0000_0000, 0),
        ("+9999999999999999999999999999999999E+6111", 0x5FFF_ED09_BEAD_87C0, 0x378D_8E63_FFFF_FFFF),
        ("-1E-6143", 0x8042_0000_0000_0000, 1),
        ("NaN", 0x7C00_0000_0000_0000, 0),
        ("-123.456", 0xB03A_0000_0000_0000, 0x1E240),
    ]

    @Test func coreVectorsPrintAndParseBothWays() throws {
        for (text, high, low) in Self.coreVectors {
            let decoded = Decimal128(low: low, high: high)
            #expect(decoded.description == text)
            let parsed = try Decimal128(parsing: text)
            #expect(
                parsed.high == high && parsed.low == low,
                "\(text) parsed to \(String(parsed.high, radix: 16)) \(String(parsed.low, radix: 16))")
        }
    }

    /// Every `decimal…` value of the committed Realm Core fixture's JSON (decompressed with gzip).
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/gzip"), "needs /bin/gzip to read the fixture"))
    func everyDecimalOfTheCoreFixture() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "RealmCoreFormatTests/Fixtures/generated-alltypes.json.gz")
        let json = try Self.run("/bin/gzip", ["-dc", fixture.path])
        let root = try JSONSerialization.jsonObject(with: json)
        var vectors: [(String, String)] = []
        func walk(_ node: Any) {
            if let object = node as? [String: Any] {
                if let text = object["text"] as? String, let hex = object["bid128"] as? String {
                    vectors.append((text, hex))
                    return
                }
                object.values.forEach(walk)
            } else if let array = node as? [Any] {
                array.forEach(walk)
            }
        }
        walk(root)
        #expect(vectors.count >= 50)
        for (text, hex) in vectors {
            let high = try #require(UInt64(hex.prefix(16), radix: 16))
            let low = try #require(UInt64(hex.suffix(16), radix: 16))
            #expect(Decimal128(low: low, high: high).description == text)
            let parsed = try Decimal128(parsing: text)
            #expect(String(format: "%016llx%016llx", parsed.high, parsed.low) == hex, "\(text)")
        }
    }

    @Test func descriptionFollowsCoreFormatting() throws {
        func decimal(_ negative: Bool, _ coefficient: UInt64, _ exponent: Int) -> Decimal128 {
            Decimal128(negative: negative, coefficient: DecimalCoefficient(coefficient), exponent: exponent)
        }
        // Core moves the point left as far as the exponent allows, then prints what is left.
        #expect(decimal(false, 15, 2).description == "1.5E3")
        #expect(decimal(false, 123, -1).description == "12.3")
        #expect(decimal(false, 123, -5).description == "1.23E-3")
        #expect(decimal(false, 150, -2).description == "1.50")
        #expect(decimal(false, 0, -2).description == "0E-2")
        #expect(decimal(true, 0, 0).description == "-0")
        #expect(decimal(false, 7, 0).description == "7")
        #expect((-Decimal128.infinity).description == "-Inf")
        #expect(Decimal128.infinity.description == "Inf")
        #expect((-Decimal128.nan).description == "-NaN")
        // A coefficient past 64 bits goes through Intel's format: sign, digits, signed exponent.
        let big = try Decimal128(parsing: "12345678901234567890.5")
        #expect(big.description == "+123456789012345678905E-1")
        #expect(try Decimal128(parsing: "-18446744073709551616").description == "-18446744073709551616E+0")
    }

    @Test func parsingHandlesSpecialsSignsAndExponents() throws {
        #expect(try Decimal128(parsing: "Inf") == .infinity)
        #expect(try Decimal128(parsing: "-Infinity") == -Decimal128.infinity)
        #expect(try Decimal128(parsing: "+inf") == .infinity)
        #expect(try Decimal128(parsing: "nan").isNaN)
        #expect(try Decimal128(parsing: "-NaN").high == 0xFC00_0000_0000_0000)
        #expect(try Decimal128(parsing: "sNaN").high == 0x7E00_0000_0000_0000)
        #expect(try Decimal128(parsing: "42") == Decimal128(42))
        #expect(try Decimal128(parsing: "-7") == Decimal128(-7))
        #expect(try Decimal128(parsing: ".5").description == "5E-1")
        #expect(try Decimal128(parsing: "5.").description == "5")
        #expect(try Decimal128(parsing: "12.50e3").description == "1.250E4")
        #expect(
            try Decimal128(parsing: "0.1")
                == Decimal128(negative: false, coefficient: DecimalCoefficient(1), exponent: -1))
        // Exponent past the range: infinity; a zero is clamped; a tiny value rounds to zero.
        #expect(try Decimal128(parsing: "1E6145") == .infinity)
        #expect(try Decimal128(parsing: "-1E6145") == -Decimal128.infinity)
        #expect(try Decimal128(parsing: "1E6144").description == "+1000000000000000000000000000000000E+6111")
        #expect(try Decimal128(parsing: "0E9999").description == "0E6111")
        #expect(try Decimal128(parsing: "1E-6177").isZero)
        #expect(try Decimal128(parsing: "6E-6177").description == "1E-6176")
        // Too many digits: one rounding, half to even.
        #expect(
            try Decimal128(parsing: "1234567890123456789012345678901234.5").description
                == "+1234567890123456789012345678901234E+0")
        #expect(
            try Decimal128(parsing: "1234567890123456789012345678901235.5").description
                == "+1234567890123456789012345678901236E+0")
        #expect(
            try Decimal128(parsing: "1234567890123456789012345678901234.50000000001").description
                == "+1234567890123456789012345678901235E+0")
        #expect(
            try Decimal128(parsing: "99999999999999999999999999999999999").description
                == "+1000000000000000000000000000000000E+2")
        for bad in ["", "-", ".", "1.2.3", "1e", "1e+", "abc", "12a", " 1", "1 ", "--1", "1E5x", "0x10"] {
            #expect(throws: RealmError.self, "'\(bad)'") { try Decimal128(parsing: bad) }
            #expect(Decimal128(bad) == nil)
        }
    }

    @Test func equalityHashingAndOrderAreByValue() throws {
        let one = try Decimal128(parsing: "1")
        let oneAgain = try Decimal128(parsing: "1.00")
        #expect(one == oneAgain)
        #expect(one.hashValue == oneAgain.hashValue)
        #expect(Set([one, oneAgain, Decimal128(1)]).count == 1)
        #expect(try Decimal128(parsing: "0") == Decimal128(parsing: "-0.000"))
        #expect(try Decimal128(parsing: "0").hashValue == Decimal128(parsing: "-0E5").hashValue)
        // Non-canonical coefficients read as zero: past 10^34 − 1, and every `11`-form value.
        #expect(Decimal128(low: 0x378D_8E64_0000_0000, high: 0x3041_ED09_BEAD_87C0).isZero)
        #expect(Decimal128(low: 5, high: 0x6000_0000_0000_0000).isZero)
        #expect(Decimal128(low: 5, high: 0x6000_0000_0000_0000) == .zero)
        // NaN: before everything, equal only to the same bits (Core's compare).
        let ordered = try [
            "NaN", "-Inf", "-1E6111", "-2.5", "-0", "1E-6176", "0.3", "0.30000000000000000001", "1", "1E6111", "Inf",
        ]
        .map { try Decimal128(parsing: $0) }
        #expect(ordered.shuffled().sorted().map(\.description) == ordered.map(\.description))
        #expect(Decimal128.nan == Decimal128.nan)
        #expect(Decimal128.nan != -Decimal128.nan)
        #expect(Decimal128.nan < -Decimal128.infinity)
        #expect(try Decimal128(parsing: "2.50") > Decimal128(parsing: "2.499999999999999999999999999999999"))
        #expect(try Decimal128(parsing: "-2.50") < Decimal128(parsing: "-2.499999999999999999999999999999999"))
    }

    @Test func additionIsExact() throws {
        let sum = try Decimal128(parsing: "0.1") + Decimal128(parsing: "0.2")
        #expect(sum == (try Decimal128(parsing: "0.3")))
        // Core prints one digit before the point whenever the exponent lets it.
        #expect(sum.description == "3E-1")
        #expect((try Decimal128(parsing: "10.50") + Decimal128(parsing: "0.5")).description == "11.00")
        #expect(
            (try Decimal128(parsing: "1E100") + Decimal128(parsing: "1E-100")).description
                == "+1000000000000000000000000000000000E+67")
        #expect((try Decimal128(parsing: "1") - Decimal128(parsing: "1.00")).description == "0E-2")
        #expect((try Decimal128(parsing: "-0") + Decimal128(parsing: "-0")).description == "-0")
        #expect((Decimal128.infinity + -Decimal128.infinity).isNaN)
        #expect((Decimal128.infinity + Decimal128(5)) == .infinity)
        #expect(
            (try Decimal128(parsing: "9999999999999999999999999999999999E6111") + Decimal128(parsing: "1E6111"))
                == .infinity)
        var total = Decimal128.zero
        for _ in 0..<10 { total += try Decimal128(parsing: "0.1") }
        #expect(total == Decimal128(1))
    }

    @Test func divisionByAnIntegerRoundsOnce() throws {
        #expect(Decimal128(6).divided(by: 3).description == "2")
        #expect((try Decimal128(parsing: "10.50")).divided(by: 2).description == "5.25")
        #expect(Decimal128(1).divided(by: 4).description == "2.5E-1")
        #expect(Decimal128(1).divided(by: 3).description == "+3333333333333333333333333333333333E-34")
        #expect(Decimal128(2).divided(by: 3).description == "+6666666666666666666666666666666667E-34")
        #expect(Decimal128(-1).divided(by: 8).description == "-1.25E-1")
        #expect(Decimal128(1).divided(by: 0) == .infinity)
        #expect(Decimal128(-1).divided(by: 0) == -Decimal128.infinity)
        #expect(Decimal128.zero.divided(by: 0).isNaN)
    }

    @Test func doublesConvertAsRealmCoreDoes() throws {
        // Exact with at most 15 digits: kept as is.
        #expect(Decimal128(0.5).description == "5E-1")
        #expect(Decimal128(100.0).description == "100")
        #expect(Decimal128(-2.25).description == "-2.25")
        #expect(Decimal128(-0.0).description == "-0")
        // Otherwise 15 significant digits (Core's RoundTo::Digits15), printed in Core's way.
        #expect(Decimal128(0.1).description == "1.00000000000000E-1")
        #expect(Decimal128(0.1) == (try Decimal128(parsing: "0.1")))
        #expect(Decimal128(1e20).description == "1.00000000000000E20")
        #expect(Decimal128(123456789012345.5).description == "123456789012346")
        #expect(Decimal128(Double.infinity) == .infinity)
        #expect(Decimal128(Double.nan).high == 0x7C00_0000_0000_0000 && Decimal128(Double.nan).low == 0)
        #expect(Decimal128(Int64.min).description == "-9223372036854775808")
        // Back to an integer only when exact: zeros of any exponent, 12.00, Int64's ends.
        #expect((try Decimal128(parsing: "0E25")).exactInt64 == 0)
        #expect((try Decimal128(parsing: "12.00")).exactInt64 == 12)
        #expect((try Decimal128(parsing: "12.5")).exactInt64 == nil)
        #expect((try Decimal128(parsing: "-9223372036854775808")).exactInt64 == Int64.min)
        #expect((try Decimal128(parsing: "9223372036854775808")).exactInt64 == nil)
        #expect((try Decimal128(parsing: "1E19")).exactInt64 == nil)
        #expect(Decimal128.nan.exactInt64 == nil)
        // Back to Double: the nearest double.
        #expect((try Decimal128(parsing: "0.1")).doubleValue == 0.1)
        #expect((try Decimal128(parsing: "-1E-6143")).doubleValue == -0.0)
        #expect((try Decimal128(parsing: "1E400")).doubleValue == .infinity)
        #expect((try Decimal128(parsing: "123.456")).doubleValue == 123.456)
        #expect(Decimal128.nan.doubleValue.isNaN)
    }

    // MARK: Python's decimal module as an oracle

    static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// Random operands (seeded): parsing, sums, differences and quotients by integers, and
    /// doubles, each checked against Python's decimal with decimal128's context.
    @Test(.enabled(if: hasPython, "needs /usr/bin/python3 (its decimal module is the oracle)"))
    func randomOperationsMatchPythonDecimal() throws {
        var generator = SeededGenerator(seed: 0xDEC1_28)
        func randomText() -> String {
            let length = Int.random(in: 1...40, using: &generator)
            var digits = String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            if Bool.random(using: &generator) {
                let point = Int.random(in: 0...length, using: &generator)
                digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point))
                if digits == "." { digits = "0." }
            }
            let sign = ["", "-", "+"][Int.random(in: 0...2, using: &generator)]
            let exponent =
                [0, 0, Int.random(in: -40...40, using: &generator), Int.random(in: -6200...6200, using: &generator)]
                .randomElement(using: &generator) ?? 0
            return sign + digits + (exponent == 0 ? "" : "E\(exponent)")
        }
        var lines: [String] = []
        var expected: [String] = []
        for _ in 0..<400 {
            let a = randomText()
            let b = randomText()
            let divisor =
                [
                    Int64.random(in: 1...12, using: &generator),
                    Int64.random(in: -1_000_000...1_000_000, using: &generator),
                    Int64.random(in: Int64.min / 2...Int64.max, using: &generator),
                ].randomElement(using: &generator) ?? 7
            let x = try Decimal128(parsing: a)
            let y = try Decimal128(parsing: b)
            lines.append("parse \(a)")
            expected.append(Self.parts(x))
            lines.append("add \(a) \(b)")
            expected.append(Self.parts(x + y))
            lines.append("sub \(a) \(b)")
            expected.append(Self.parts(x - y))
            if divisor != 0 {
                lines.append("div \(a) \(divisor)")
                expected.append(Self.parts(x.divided(by: divisor)))
            }
            let double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            if double.isFinite {
                lines.append("double \(double.bitPattern)")
                expected.append(Self.parts(Decimal128(double)))
            }
        }
        let output = try Self.run("/usr/bin/python3", ["-c", Self.oracle], input: lines.joined(separator: "\n") + "\n")
        let answers = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(answers.count == lines.count)
        var mismatches = 0
        for (index, (line, answer)) in zip(lines, answers).enumerated() where answer != expected[index] {
            mismatches += 1
            if mismatches <= 10 { Issue.record("\(line): engine \(expected[index]), Python \(answer)") }
        }
        #expect(mismatches == 0)
    }

    /// `sign coefficient exponent`, `Inf`, `-Inf` or `NaN`: a form both sides can print.
    static func parts(_ value: Decimal128) -> String {
        switch value.form {
        case .nan: return "NaN"
        case .infinity(let negative): return negative ? "-Inf" : "Inf"
        case .finite(let negative, let coefficient, let exponent):
            return "\(negative ? 1 : 0) \(coefficient.digits.map(String.init).joined()) \(exponent)"
        }
    }

    static let oracle = """
        import sys, struct
        from decimal import Decimal, Context, ROUND_HALF_EVEN
        ctx = Context(prec=34, Emax=6144, Emin=-6143, rounding=ROUND_HALF_EVEN, clamp=1, traps=[])
        ctx15 = Context(prec=15, Emax=6144, Emin=-6143, rounding=ROUND_HALF_EVEN, clamp=1, traps=[])
        def parts(d):
            if d.is_nan(): return "NaN"
            if d.is_infinite(): return "-Inf" if d.is_signed() else "Inf"
            s, digits, e = d.as_tuple()
            return "%d %s %d" % (s, "".join(map(str, digits)), e)
        for line in sys.stdin:
            f = line.split()
            if f[0] == "parse": r = ctx.create_decimal(f[1])
            elif f[0] == "add": r = ctx.add(ctx.create_decimal(f[1]), ctx.create_decimal(f[2]))
            elif f[0] == "sub": r = ctx.subtract(ctx.create_decimal(f[1]), ctx.create_decimal(f[2]))
            elif f[0] == "div": r = ctx.divide(ctx.create_decimal(f[1]), Decimal(int(f[2])))
            else:
                x = struct.unpack("<d", struct.pack("<Q", int(f[1])))[0]
                exact = Decimal(x)
                r = exact if len(exact.as_tuple()[1]) <= 15 else ctx15.plus(ctx.plus(exact))
            print(parts(r))
        """

    static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Input through a file and errors to a file: only one pipe is read, so none can fill up.
        let scratch = TempDir("decimal-oracle")
        defer { withExtendedLifetime(scratch) {} }
        let inputURL = scratch.url.appendingPathComponent("input")
        let errorURL = scratch.url.appendingPathComponent("errors")
        try Data((input ?? "").utf8).write(to: inputURL)
        #expect(FileManager.default.createFile(atPath: errorURL.path, contents: nil))
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? Data(contentsOf: errorURL)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw RealmError.invalidInput("\(executable) failed: \(String(decoding: stderr, as: UTF8.self))")
        }
        return data
    }
}
