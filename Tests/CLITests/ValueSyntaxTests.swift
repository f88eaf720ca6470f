import Foundation
import Testing
import RealmEngine

/// One value syntax for `--set`, `--arg`, import (JSON and CSV) and `ValueSyntax.parse`.
@Suite(.tags(.multiProcess)) struct ValueSyntaxTests {
    static let schema = """
        [{"name": "Owner", "primaryKey": "id", "properties": {"id": "int"}},
         {"name": "Item", "primaryKey": "id", "properties": {"id": "int", "name": "string?", "born": "date?", "pic": "data?",
          "oid": "objectId?", "u": "uuid?", "owner": "Owner?", "tags": "string[]"}}]
        """

    func database(_ scratch: Scratch) throws -> String {
        let file = scratch.path("v.realm")
        #expect(try CLI.run(["create", file, "--schema", try scratch.write("s.json", Self.schema)]).status == 0)
        let r = try CLI.run(
            ["import", file, "-"], stdin: #"{"Owner": [{"id": 7}], "Item": [{"id": 1}, {"id": 2, "name": "x"}]}"#)
        try #require(r.status == 0, "\(r.stderr)")
        return file
    }

    @Test func setAcceptsEveryForm() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let r = try CLI.run([
            "update", file, "Item", "id == 1", "--set", "born=2020-01-02T03:04:05.125Z", "--set", "name=Rex",
            "--set", "pic=AAEC", "--set", "oid=6001c033600510df3bbfd864",
            "--set", "u=D1B186E1-E9E0-4768-A1A7-C492519D47EE", "--set", "owner=7", "--set", #"tags=["a","b"]"#,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let epoch = try CLI.run([
            "update", file, "Item", "id == 2", "--set", "born=1577934245125", "--set", #"name="null""#,
        ])
        #expect(epoch.status == 0, "\(epoch.stderr)")
        let rows = try CLI.run(["query", file, "Item", "--sort", "id", "--format", "json"]).stdout
        #expect(
            rows.contains(
                #"{"id":1,"name":"Rex","born":"2020-01-02T03:04:05.125Z","pic":"AAEC","oid":"6001c033600510df3bbfd864","u":"d1b186e1-e9e0-4768-a1a7-c492519d47ee","owner":7,"tags":["a","b"]}"#
            ), "\(rows)")
        #expect(rows.contains(#"{"id":2,"name":"null","born":"2020-01-02T03:04:05.125Z""#), "\(rows)")
        let null = try CLI.run(["update", file, "Item", "id == 2", "--set", "name=null"])
        #expect(null.status == 0)
        #expect(try CLI.run(["query", file, "Item", "name == nil", "--format", "count"]).stdout == "1\n")
        expectFailure(
            try CLI.run(["update", file, "Item", "id == 1", "--set", "born=yesterday"]), contains: "ISO 8601")
    }

    @Test func argumentsAreReadByThePropertyTheyAreComparedWith() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        _ = try CLI.run([
            "update", file, "Item", "id == 1", "--set", "born=2020-01-02T03:04:05.125Z", "--set", "pic=AAEC",
            "--set", "oid=6001c033600510df3bbfd864", "--set", "u=d1b186e1-e9e0-4768-a1a7-c492519d47ee",
        ])
        for (predicate, arg) in [
            ("born > $0", "2020-01-01"), ("born > $0", #"{"$date": 1577836800000}"#),
            ("born == $0", "2020-01-02T03:04:05.125Z"),
            ("pic == $0", "AAEC"), ("oid == $0", "6001c033600510df3bbfd864"),
            ("u == $0", "d1b186e1-e9e0-4768-a1a7-c492519d47ee"), ("name == $0", "null"),
        ] {
            let r = try CLI.run(["query", file, "Item", predicate, "--arg", arg, "--format", "count"])
            #expect(r.stdout == "1\n", "\(predicate) \(arg): \(r.stdout)\(r.stderr)")
        }
    }

    @Test func theEngineFunctionDecidesByType() throws {
        let date = Property(name: "d", type: .date, isOptional: true)
        #expect(
            try Value.parse("2020-01-02T03:04:05.5Z", for: date, className: "C")
                == Value.parse("1577934245500", for: date, className: "C"))
        #expect(try Value.parse("null", for: date, className: "C") == .null)
        let name = Property(name: "s", type: .string)
        #expect(try Value.parse("Rex", for: name, className: "C") == .string("Rex"))
        #expect(try Value.parse(#""null""#, for: name, className: "C") == .string("null"))
        #expect(throws: RealmError.self) { try Value.parse("null", for: name, className: "C") }
        let data = Property(name: "b", type: .data)
        #expect(try Value.parse("AAEC", for: data, className: "C") == .data(Data([0, 1, 2])))
        let schema = Schema([
            ObjectSchema(name: "O", properties: [Property(name: "k", type: .string, isPrimaryKey: true)]),
            ObjectSchema(name: "C", properties: [Property(name: "o", type: .object, objectClassName: "O")]),
        ])
        let link = schema["C"]!.properties[0]
        #expect(try ValueSyntax.parse("42", for: link, className: "C", schema: schema) == .primaryKey(.string("42")))
    }

    /// A whole number too large for an int is refused as out of range, not as "not a whole number".
    @Test func aWholeNumberOutOfRangeSaysSo() throws {
        let int = Property(name: "n", type: .int)
        do {
            _ = try Value.parse("99999999999999999999", for: int, className: "C")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("int in -9223372036854775808...9223372036854775807"), "\(error)")
        }
        do {
            _ = try Value.parse("three", for: int, className: "C")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("(a whole number)"), "\(error)")
        }
    }
}
