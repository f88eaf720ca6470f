import Foundation
import Testing
@testable import RealmEngine

@Suite struct InterchangeJSONParserTests {
    @Test func parsesEveryKindAndKeepsMemberOrder() throws {
        let v = try JSONParser.parse(#"{"z": 1, "a": [true, false, null, -2.5e3, "x"], "m": {}}"#)
        #expect(v.objectMembers?.map(\.key) == ["z", "a", "m"])
        #expect(v.member("z") == .number("1"))
        #expect(v.member("a") == .array([.bool(true), .bool(false), .null, .number("-2.5e3"), .string("x")]))
        #expect(v.member("m") == .object([]))
    }

    @Test func booleansAreNotNumbers() throws {
        let v = try JSONParser.parse("[true, 1, false, 0]")
        guard case .array(let items) = v else {
            Issue.record("not an array")
            return
        }
        #expect(items[0].boolValue == true && items[0].int64Value == nil)
        #expect(items[1].boolValue == nil && items[1].int64Value == 1)
        #expect(items[2].boolValue == false)
        #expect(items[3].boolValue == nil && items[3].int64Value == 0)
    }

    @Test func numbersKeepTheirText() throws {
        #expect(try JSONParser.parse("9223372036854775807").int64Value == Int64.max)
        #expect(try JSONParser.parse("9223372036854775808").int64Value == nil)
        #expect(try JSONParser.parse("1e3").int64Value == 1000)
        #expect(try JSONParser.parse("1.5").int64Value == nil)
        #expect(try JSONParser.parse("1.0").isIntegerLiteral == false)
        #expect(try JSONParser.parse("-0.25").doubleValue == -0.25)
    }

    @Test func decodesEscapesAndSurrogates() throws {
        let v = try JSONParser.parse(#""a\"b\\c\/\n\t\u00e9\u5f20\ud83d\ude00""#)
        #expect(v == .string("a\"b\\c/\n\té张😀"))
        #expect(try JSONParser.parse("\"张三\"") == .string("张三"))
        #expect(try JSONParser.parse(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == .array([.number("1")]))
    }

    @Test(arguments: [
        "", "   ", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "01", "1.", "-", "1e", "+1", "tru", "nul",
        "\"abc", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\u12\"", "[1] x", "{1: 2}", "'a'", "NaN", "\"a\u{01}\"",
    ])
    func rejectsMalformedJSON(_ text: String) {
        #expect(throws: RealmError.self) { try JSONParser.parse(text) }
    }

    @Test func errorsNameLineAndColumn() {
        do {
            _ = try JSONParser.parse("{\n  \"a\": 1,\n  \"b\": x\n}")
            Issue.record("no error")
        } catch let error as RealmError {
            #expect(error.description.contains("line 3, column 8"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: RealmError.self) { try JSONParser.parse(Data([0x22, 0xFF, 0xFE, 0x22])) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: RealmError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func writerEscapesAndKeepsUTF8() throws {
        let s = "q\"b\\s/\n\r\t\u{0}\u{1F}\u{7F}张三😀\u{2028}"
        let text = JSONWriter.quoted(s)
        #expect(text == #""q\"b\\s/\n\r\t\u0000\u001f\u007f张三😀\u2028""#)
        #expect(try JSONParser.parse(text) == .string(s))
    }

    @Test func writerKeepsOrderAndPrettyPrints() throws {
        let v = JSONValue.object([
            JSONMember("b", .integer(1)), JSONMember("a", .array([.null, .bool(true)])),
            JSONMember("e", .array([])), JSONMember("o", .object([])),
        ])
        #expect(v.jsonText() == #"{"b":1,"a":[null,true],"e":[],"o":{}}"#)
        #expect(
            v.jsonText(pretty: true)
                == "{\n  \"b\": 1,\n  \"a\": [\n    null,\n    true\n  ],\n  \"e\": [],\n  \"o\": {}\n}")
        #expect(try JSONParser.parse(v.jsonText(pretty: true)) == v)
    }

    @Test func doubleNumbersRoundTrip() throws {
        for d in [0.1, -0.0, 1e-7, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 123456789.125, 1.0] {
            let json = try #require(JSONValue.double(d))
            #expect(try JSONParser.parse(json.jsonText()).doubleValue == d)
        }
        #expect(JSONValue.double(.nan) == nil)
        #expect(JSONValue.double(.infinity) == nil)
    }

    @Test func snippetIsShort() {
        let v = JSONValue.string(String(repeating: "x", count: 100))
        #expect(v.snippet().count == 40)
        #expect(v.snippet().hasSuffix("…"))
    }

    /// Mutated documents either parse or throw; none traps. Deterministic (seeded SplitMix64).
    @Test func mutatedInputNeverCrashes() {
        let seed = Array(
            #"{"Dog": [{"name": "张三\n", "age": -1.5e3, "tags": ["a", true, null]}, [1, {"x": "\ud83d\ude00"}]]}"#.utf8)
        var generator = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 { generator.next() }
        var parsed = 0
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<Int(next() % 4 + 1) {
                let i = Int(next() % UInt64(bytes.count))
                switch next() % 3 {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: next())
                case 1: bytes.remove(at: i)
                default: bytes.insert(UInt8(truncatingIfNeeded: next()), at: i)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            if let value = try? JSONParser.parse(Data(bytes)) {
                parsed += 1
                #expect((try? JSONParser.parse(value.jsonText())) == value)
            }
        }
        #expect(parsed > 0)
    }
}
