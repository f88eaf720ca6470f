import Foundation
import Testing
@testable import RealmEngine

@Suite struct InterchangeExportTests {
    static let schemaJSON = #"""
        [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
         {"name": "Toy", "properties": {"label": "string"}},
         {"name": "Dog", "properties": {
            "name": "string", "age": "int?", "born": "date?", "tags": "string[]", "ok": "bool", "f": "float", "d": "double",
            "photo": "data?", "oid": "objectId?", "u": "uuid?", "owner": "Person?", "toy": "Toy?", "toys": "Toy[]",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
         {"name": "Owner", "properties": {"dogs": "Dog[]"}}]
        """#

    let schema: Schema
    let dog: ObjectSchema
    init() throws {
        // The linkingObjects above points at Person.dogs which does not exist; use Owner instead.
        let text = Self.schemaJSON.replacingOccurrences(
            of: #""objectType": "Person", "property": "dogs""#,
            with: #""objectType": "Owner", "property": "dogs""#)
        schema = try Schema(realmJSJSON: Data(text.utf8))
        dog = try #require(schema["Dog"])
    }

    /// Person keys map to primary key key*10; Toy has no primary key.
    let resolve: LinkResolver = { target, key in target == "Person" ? .primaryKey(.int(key.rawValue * 10)) : nil }

    var rex: [Value] {
        [
            .string("Rex \"the\" dog\n\t\\ 张三 😀 \u{1}"), .int(3),
            .date(Timestamp(seconds: 1_577_934_245, nanoseconds: 250_000_000)),
            .list([.string("a"), .string("b,c")]), .bool(true), .float(0.1), .double(.nan),
            .data(Data([1, 2, 3])), .objectId(ObjectId("6001c033600510df3bbfd864")),
            .uuid(UUID(uuidString: "D1B186E1-E9E0-4768-A1A7-C492519D47EE") ?? UUID()),
            .link(ObjectKey(4)), .link(ObjectKey(9)), .list([.link(ObjectKey(1)), .link(ObjectKey(1))]),
        ]
    }

    @Test func objectJSON() throws {
        let json = try JSONExport.object(rex, schema: dog, resolveLink: resolve).jsonText()
        #expect(
            json
                == #"{"name":"Rex \"the\" dog\n\t\\ 张三 😀 \u0001","age":3,"born":"2020-01-02T03:04:05.25Z","tags":["a","b,c"],"ok":true,"f":0.1,"d":"nan","photo":"AQID","oid":"6001c033600510df3bbfd864","u":"d1b186e1-e9e0-4768-a1a7-c492519d47ee","owner":40,"toy":{"class":"Toy","key":9},"toys":[{"class":"Toy","key":1},{"class":"Toy","key":1}]}"#
        )
    }

    @Test func nullsAndNonFiniteNumbers() throws {
        let values: [Value] = [
            .string(""), .null, .null, .list([]), .bool(false), .float(-.infinity), .double(.infinity),
            .null, .null, .null, .null, .null, .list([]),
        ]
        let json = try JSONExport.object(values, schema: dog, resolveLink: resolve).jsonText()
        #expect(
            json
                == #"{"name":"","age":null,"born":null,"tags":[],"ok":false,"f":"-inf","d":"inf","photo":null,"oid":null,"u":null,"owner":null,"toy":null,"toys":[]}"#
        )
        // Missing trailing values are null, not a crash.
        let short = try JSONExport.object([.string("x")], schema: dog, resolveLink: resolve)
        #expect(short.member("toys") == .null)
    }

    @Test func streamedArrayParsesAndReimports() throws {
        let values: [Value] = [
            .string("a"), .int(1), .null, .list([]), .bool(false), .float(1.5), .double(-2.25),
            .null, .null, .null, .link(ObjectKey(1)), .null, .list([]),
        ]
        var pieces: [String] = []
        try JSONExport.write([values, values], schema: dog, resolveLink: resolve) { pieces.append($0) }
        #expect(pieces.count == 3)
        let text = pieces.joined()
        #expect(text.hasPrefix("[\n{") && text.hasSuffix("}\n]\n"))
        let parsed = try JSONParser.parse(text)
        #expect(parsed.arrayValue?.count == 2)
        // Everything but the computed property reads back through import.
        let file = JSONValue.object([JSONMember("Dog", parsed)])
        let imported = try JSONImport.objects(from: file, schema: schema)
        guard case .dictionary(let d) = imported[0].objects[0] else {
            Issue.record("not a dictionary")
            return
        }
        #expect(d["owner"] == .primaryKey(.int(10)))
        #expect(d["f"] == .value(.float(1.5)))
        #expect(d["d"] == .value(.double(-2.25)))
        #expect(try JSONExport.array([[Value]](), schema: dog, resolveLink: resolve) == "[]\n")
    }

    @Test func exportedValuesReadBackExactly() throws {
        var writer = JSONWriter()
        writer.write(try JSONExport.object(rex, schema: dog, resolveLink: resolve))
        let back = try JSONImport.objectInput(
            fromJSON: try JSONParser.parse(writer.output), objectSchema: dog, schema: schema)
        guard case .dictionary(let d) = back else {
            Issue.record("not a dictionary")
            return
        }
        for (i, property) in dog.persistedProperties.enumerated() where !property.isLink {
            guard case .value(let v)? = d[property.name] ?? (property.isList ? nil : .value(.null)) else {
                if case .array(let items)? = d[property.name], case .list(let original) = rex[i] {
                    #expect(items == original.map { .value($0) })
                }
                continue
            }
            if case .double(let x) = v, x.isNaN { continue }
            #expect(v == rex[i], "\(property.name)")
        }
    }

    /// A resolver's error fails the export (a target that cannot be read), and a target named
    /// by a nil primary key (which import reads as no link) is refused, not written.
    @Test func aLinkIsWrittenOnlyAsSomethingImportReadsBack() {
        struct Unreadable: Error {}
        let failing: LinkResolver = { _, _ in throw Unreadable() }
        #expect(throws: Unreadable.self) { try JSONExport.object(rex, schema: dog, resolveLink: failing) }
        #expect(throws: Unreadable.self) { try CSVExport.table([rex], schema: dog, resolveLink: failing) }
        let nilKey: LinkResolver = { _, _ in .primaryKey(.null) }
        #expect(throws: RealmError.self) { try JSONExport.object(rex, schema: dog, resolveLink: nilKey) }
    }

    @Test func csv() throws {
        let values: [Value] = [
            .string("Rex, \"the\"\ndog"), .null, .null, .list([.string("a"), .string("b\"")]), .bool(true),
            .float(2), .double(.nan), .data(Data([255])), .null, .null, .link(ObjectKey(2)),
            .link(ObjectKey(3)), .list([]),
        ]
        let empty: [Value] = [
            .string(""), .int(-1), .date(Timestamp(seconds: 0)), .list([]), .bool(false), .float(0.5),
            .double(1e-7), .null, .null, .null, .null, .null, .list([.link(ObjectKey(1))]),
        ]
        let text = try CSVExport.table([values, empty], schema: dog, resolveLink: resolve)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == "name,age,born,tags,ok,f,d,photo,oid,u,owner,toy,toys")
        #expect(
            text == "name,age,born,tags,ok,f,d,photo,oid,u,owner,toy,toys\r\n"
                + "\"Rex, \"\"the\"\"\ndog\",,,\"[\"\"a\"\",\"\"b\\\"\"\"\"]\",true,2.0,nan,/w==,,,20,\"{\"\"class\"\":\"\"Toy\"\",\"\"key\"\":3}\",[]\r\n"
                + "\"\",-1,1970-01-01T00:00:00Z,[],false,0.5,1e-07,,,,,,\"[{\"\"class\"\":\"\"Toy\"\",\"\"key\"\":1}]\"\r\n"
        )
    }

    @Test func csvQuoting() throws {
        #expect(CSVExport.quote("plain") == "plain")
        #expect(CSVExport.quote("张三") == "张三")
        #expect(CSVExport.quote("a,b") == "\"a,b\"")
        #expect(CSVExport.quote("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVExport.quote("two\nlines") == "\"two\nlines\"")
        #expect(CSVExport.quote("cr\r") == "\"cr\r\"")
        #expect(CSVExport.quote(" padded ") == "\" padded \"")
        #expect(CSVExport.quote("") == "")
        #expect(CSVExport.quote("", forceIfEmpty: true) == "\"\"")
        let lf = try CSVExport.table([[Value]](), schema: dog, lineEnding: "\n", resolveLink: resolve)
        #expect(lf == "name,age,born,tags,ok,f,d,photo,oid,u,owner,toy,toys\n")
    }
}
