import Foundation
@testable import RealmEngine
import Testing

/// A streamed import (`DataImport.run(JSONElementStream)`, what `realmtui import` runs) stores
/// the same values, counts the same summary and fails with the same message as the import of
/// the same document parsed whole (`run([Group])`), for every value form a scalar class reads:
/// numbers at the edges of their types (and past them), strings with escapes and non-ASCII text, both date
/// forms, members in any order or missing or null, and the objects an import refuses.
@Suite struct StreamedImportTests {
    static let schemaJSON = #"""
        [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "score": "double", "active": "bool", "createdAt": "date", "nick": "string?", "rank": "int?"}},
         {"name": "Note", "properties": {"text": "string", "n": "int", "when": "date?", "weight": "double?"}},
         {"name": "Small", "properties": {"b": "int8", "f": "float"}}]
        """#

    /// What an import did: its summary (or error) and every object's values afterwards.
    struct Outcome: Equatable, CustomStringConvertible {
        var result: String
        var objects: [String: [[Value]]]

        static func == (a: Outcome, b: Outcome) -> Bool {
            a.result == b.result && a.objects.keys.sorted() == b.objects.keys.sorted()
                && a.objects.allSatisfy { name, rows in
                    guard let other = b.objects[name], other.count == rows.count else { return false }
                    return zip(rows, other).allSatisfy { Value.identical($0, $1) }
                }
        }

        var description: String { "\(result) \(objects)" }
    }

    /// Imports `text` into a fresh in-memory Realm (holding `Person` 1 "before" first when
    /// `preexisting`), streamed `step` bytes at a time or parsed whole.
    static func outcome(
        _ bytes: [UInt8], className: String? = nil, streamed: Bool, step: Int = 1 << 20,
        options: DataImport.Options = .init(), preexisting: Bool = false
    ) throws -> Outcome {
        let schema = try Schema(realmJSJSON: Data(schemaJSON.utf8))
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "streamed-\(UUID().uuidString)", schema: schema))
        if preexisting {
            try realm.write {
                try realm.create(
                    "Person",
                    [
                        "id": .int(1), "name": .string("before"), "score": .double(0.5), "active": .bool(true),
                        "createdAt": .date(Timestamp(milliseconds: 0)),
                    ])
            }
        }
        var result: String
        do {
            try realm.beginWrite()
            let importer = DataImport(realm: realm, options: options)
            let summary: DataImport.Summary
            if streamed {
                var offset = 0
                let stream = JSONElementStream(className: className) { buffer in
                    let count = min(step, buffer.count, bytes.count - offset)
                    guard count > 0 else { return 0 }
                    buffer.copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: bytes.withUnsafeBytes { $0 }[offset..<offset + count]))
                    offset += count
                    return count
                }
                summary = try importer.run(stream)
            } else {
                summary = try importer.run(
                    ImportDocument.groups(fromJSON: Data(bytes), className: className, schema: schema))
            }
            try realm.commitWrite()
            result =
                "created \(summary.created) updated \(summary.updated) unchanged \(summary.unchanged) ignored \(summary.ignoredProperties) \(summary.perClass)"
        } catch {
            realm.cancelWrite()
            result = "error: " + ((error as? RealmError)?.description ?? "\(error)")
        }
        var objects: [String: [[Value]]] = [:]
        for name in ["Person", "Note", "Small"] {
            objects[name] = try realm.objects(name).map { try $0.values() }
        }
        return Outcome(result: result, objects: objects)
    }

    /// Expects the streamed import of `text` (whole and a few bytes at a time) to do what the
    /// whole-document import does; returns that outcome.
    @discardableResult
    static func expectSame(
        _ text: String, className: String? = "Person", options: DataImport.Options = .init(),
        preexisting: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        try expectSame(
            bytes: Array(text.utf8), className: className, options: options, preexisting: preexisting,
            sourceLocation: sourceLocation)
    }

    @discardableResult
    static func expectSame(
        bytes text: [UInt8], className: String? = "Person", options: DataImport.Options = .init(),
        preexisting: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        let whole = try outcome(text, className: className, streamed: false, options: options, preexisting: preexisting)
        for step in [1 << 20, 7] {
            let streamed = try outcome(
                text, className: className, streamed: true, step: step, options: options, preexisting: preexisting)
            #expect(streamed == whole, "read \(step) bytes at a time", sourceLocation: sourceLocation)
        }
        return whole
    }

    static func person(
        _ id: String, name: String = #""n""#, score: String = "1.5", active: String = "true",
        createdAt: String = #""2020-01-02T03:04:05Z""#
    ) -> String {
        #"{"id": \#(id), "name": \#(name), "score": \#(score), "active": \#(active), "createdAt": \#(createdAt)}"#
    }

    @Test func doublesAreReadToTheLastBit() throws {
        var generator = SystemRandomNumberGenerator()
        var scores = [
            "0", "-0", "-0.0", "1e-300", "5e-324", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
            "123456789012345678901234567890", "0.1", "2.5E+3", "2.5e-3", "1E2", "63.942679845788376",
            "9007199254740993", "0.30000000000000004", "1.00000000000000011102230246251565404236316680908203125",
            // Around the edges of the exact path (digits up to 2^53, exponents up to ±22).
            "9007199254740992", "9007199254740991.5", "900719925474099.3", "1e22", "1e23", "-1e22", "4.5e-22",
            "1e-22", "1e-23", "0.0000000000000000000001", "123456789012345678", "1234567890123456789",
            "12345678901234567890", "0.1234567890123456789", "0e0", "-0e-5", "0e300", "4.35", "2.675",
            "1.7976931348623157e+308", "1E-0022", "1e0023",
        ]
        // Random digit strings and exponents across both sides of the exact path.
        for _ in 0..<300 {
            let digits = String(UInt64.random(in: 1...UInt64.max, using: &generator)).prefix(
                Int.random(in: 1...19, using: &generator))
            let split = Int.random(in: 0...digits.count, using: &generator)
            let fraction = split == digits.count ? "" : "." + digits.dropFirst(split)
            let exponent = Bool.random(using: &generator) ? "e\(Int.random(in: -30...30, using: &generator))" : ""
            let number = (split == 0 ? "0" : String(digits.prefix(split))) + fraction + exponent
            scores.append(Bool.random(using: &generator) ? "-" + number : number)
        }
        for _ in 0..<300 {
            let d = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            if d.isFinite { scores.append("\(d)") }
            scores.append("\(Double.random(in: 0..<100, using: &generator))")
        }
        let text = "[" + scores.enumerated().map { Self.person("\($0)", score: $1) }.joined(separator: ",\n") + "]"
        let outcome = try Self.expectSame(text)
        #expect(outcome.result.hasPrefix("created \(scores.count) "))
        let stored = try #require(outcome.objects["Person"])
        for (row, score) in zip(stored, scores) {
            #expect(Value.identical(row[2], .double(try #require(Double(score)))), "\(score)")
        }
    }

    @Test func integersAtTheEdges() throws {
        for id in ["-0", "9223372036854775807", "-9223372036854775808", "3.0", "1e3", "-2.5e1"] {
            try Self.expectSame("[\(Self.person(id))]")
        }
        for bad in ["9223372036854775808", "-9223372036854775809", "1.5", "012", "1.", "-", "+1", "0x1", "1e400"] {
            let outcome = try Self.expectSame("[\(Self.person("1")),\n \(Self.person(bad))]")
            #expect(outcome.result.hasPrefix("error: "), "\(bad): \(outcome.result)")
        }
        for bad in ["1e400", "-1e309", "\"1.5\"", "true", "nan"] {
            let outcome = try Self.expectSame("[\(Self.person("1", score: bad))]")
            #expect(outcome.result.hasPrefix("error: "), "\(bad): \(outcome.result)")
        }
        try Self.expectSame("[\(Self.person("1", score: "\"nan\"")), \(Self.person("2", score: "\"-inf\""))]")
        // Underflow (to zero or a subnormal): stored or refused as the whole-document import does.
        for tiny in ["1e-400", "-1e-400", "2e-320", "1e-320"] {
            try Self.expectSame("[\(Self.person("1", score: tiny))]")
        }
    }

    @Test func stringsWithEscapesAndNonASCIIText() throws {
        let names = [
            #""""#, #""a\"b\\c\/d\n\t\u0041\u00e9\ud83d\ude00""#, #""小白 🐕 é""#, #""\u0000""#,
            "\"" + String(repeating: "x", count: 5000) + "\"",
        ]
        let text = "[" + names.enumerated().map { Self.person("\($0)", name: $1) }.joined(separator: ",") + "]"
        let outcome = try Self.expectSame(text)
        #expect(outcome.result.hasPrefix("created \(names.count) "))
        for bad in ["\"a\nb\"", #""\x""#, #""\ud83d""#, "\"abc", "1", "null", "[\"a\"]"] {
            let result = try Self.expectSame("[\(Self.person("1")),\n\(Self.person("2", name: bad))]").result
            #expect(result.hasPrefix("error: "), "\(bad): \(result)")
        }
        // Bytes that are not UTF-8 inside a string: an error at its line and column.
        var bytes = Array("[\(Self.person("1", name: "\"ab\""))]".utf8)
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "b")))
        bytes[at] = 0xFF
        let result = try Self.expectSame(bytes: bytes).result
        #expect(result.contains("not valid UTF-8") && result.contains("line 1, column"), "\(result)")
    }

    @Test func datesInBothForms() throws {
        let dates = [
            #""2020-01-02T03:04:05Z""#, #""2020-01-02T03:04:05.123456789Z""#, #""1969-12-31T23:59:59.5Z""#,
            #""2020-01-02T03:04:05+02:00""#, "1577934245250", "-1", "0", "1.5", "-1.25", "1e3",
        ]
        let text = "[" + dates.enumerated().map { Self.person("\($0)", createdAt: $1) }.joined(separator: ",") + "]"
        let outcome = try Self.expectSame(text)
        #expect(outcome.result.hasPrefix("created \(dates.count) "))
        for bad in [#""2020-13-02T03:04:05Z""#, #""yesterday""#, "true", "1e400", "null"] {
            let result = try Self.expectSame("[\(Self.person("1", createdAt: bad))]").result
            #expect(result.hasPrefix("error: "), "\(bad): \(result)")
        }
    }

    @Test func booleans() throws {
        try Self.expectSame("[\(Self.person("1", active: "false")), \(Self.person("2", active: "true"))]")
        for bad in ["1", "\"true\"", "tru", "falsey", "null"] {
            let result = try Self.expectSame("[\(Self.person("1", active: bad))]").result
            #expect(result.hasPrefix("error: "), "\(bad): \(result)")
        }
    }

    @Test func membersInAnyOrderMissingOrNull() throws {
        let text = #"""
            [ {"id": 1, "name": "a", "score": 1, "active": true, "createdAt": 0, "nick": "x", "rank": 3},
              {"rank": null, "createdAt": 0, "active": false, "score": 2, "name": "b", "id": 2, "nick": null},
              {"name":"c","id":3,"score":3.5,"active":true,"createdAt":"2020-01-02T03:04:05Z"}	,
              {
                "id" : 4 ,
                "name" : "d" , "score" : 4 , "active" : true , "createdAt" : 5
              },
              [5, "e", 5.5, false, 6, "nick", 7],
              [6, "f", 6.5, true, 7]
            ]
            """#
        let outcome = try Self.expectSame(text)
        #expect(outcome.result.hasPrefix("created 6 "), "\(outcome.result)")
        let notes =
            #"{"Note": [{"text": "a", "n": 1}, {"n": 2, "text": "b", "when": 5, "weight": 2.5}, {"text": "c", "n": 3, "weight": null}], "Small": [{"b": 1, "f": 1.5}]}"#
        #expect(try Self.expectSame(notes, className: nil).result.hasPrefix("created 4 "))
        for bad in [
            #"{"id": 1, "name": "a", "score": 1, "active": true}"#,
            #"{"id": 1, "name": null, "score": 1, "active": true, "createdAt": 0}"#,
            #"{"id": null, "name": "a", "score": 1, "active": true, "createdAt": 0}"#, "{}", "[]", "1", "\"x\"",
        ] {
            let result = try Self.expectSame("[\(Self.person("0")),\n \(bad)]").result
            #expect(result.hasPrefix("error: "), "\(bad): \(result)")
        }
    }

    @Test func refusedObjectsAndTheirMessages() throws {
        let twice = #"{"id": 1, "name": "a", "name": "b", "score": 1, "active": true, "createdAt": 0}"#
        let unknown = #"{"id": 2, "name": "a", "score": 1, "active": true, "createdAt": 0, "colour": "red"}"#
        #expect(try Self.expectSame("[\(twice)]").result.contains("given twice"))
        #expect(try Self.expectSame("[\(unknown)]").result.contains("unknown property 'colour'"))
        let ignored = try Self.expectSame("[\(unknown)]", options: .init(ignoreUnknown: true))
        #expect(ignored.result.contains("ignored 1"), "\(ignored.result)")
        let sameKey = "[\(Self.person("1")), \(Self.person("1", name: #""other""#))]"
        #expect(try Self.expectSame(sameKey).result.contains("have the same primary key"))
        #expect(try Self.expectSame(sameKey, options: .init(upsertDuplicates: true)).result.hasPrefix("created 1 "))
        // Objects that existed before: updated, or unchanged when given their own values.
        let again =
            #"[{"id": 1, "name": "before", "score": 0.5, "active": true, "createdAt": 0}, "#
            + Self.person("2") + "]"
        #expect(try Self.expectSame(again, preexisting: true).result.hasPrefix("created 1 updated 0 unchanged 1"))
        #expect(
            try Self.expectSame("[\(Self.person("1"))]", preexisting: true).result.hasPrefix(
                "created 0 updated 1 unchanged 0"))
        // Out of range for the column's type.
        #expect(try Self.expectSame(#"{"Small": [{"b": 300, "f": 1}]}"#, className: nil).result.hasPrefix("error: "))
        #expect(try Self.expectSame(#"{"Small": [{"b": 1, "f": 1e39}]}"#, className: nil).result.hasPrefix("error: "))
        // A syntax error inside an object: the same line and column.
        let syntax = "[\(Self.person("1")),\n  {\"id\": 2, \"name\": \"x\" \"score\": 1}]"
        #expect(try Self.expectSame(syntax).result.contains("at line 2, column"))
        let badNumber = "[\(Self.person("1")),\n  {\"id\": 2, \"name\": \"漢字\", \"score\": 1.}]"
        #expect(try Self.expectSame(badNumber).result.contains("at line 2, column"))
    }
}
