import Foundation
import Testing
@testable import RealmEngine

/// Mixed in realm-js schemas, JSON and CSV: `mixed`, `mixed[]`, `mixed<>`, `mixed{}` read and
/// written back; each value as its natural JSON value, tagged (`$date`, `$oid`, `$uuid`,
/// `$binary`, `$decimal`, `$float`, `$double`, `$link`) where JSON cannot tell; a CSV cell is
/// JSON text; export → import → export byte-identical, links by primary key or position.
@Suite struct MixedInterchangeTests {
    static let schemaJSON = #"""
        [{"name": "Box", "primaryKey": "id", "properties": {"id": "int", "value": "mixed", "items": "mixed[]", "bag": "mixed<>", "attrs": "mixed{}"}},
         {"name": "Dog", "primaryKey": "name", "properties": {"name": "string"}},
         {"name": "Cat", "properties": {"name": "string"}}]
        """#

    static func schema() throws -> Schema { try Schema(realmJSJSON: Data(schemaJSON.utf8)) }

    static func memory(_ schema: Schema) throws -> Realm {
        try Realm(configuration: .init(inMemoryIdentifier: "mixed-\(UUID().uuidString)", schema: schema))
    }

    @Test func realmJSSchemaFormsReadAndRoundTrip() throws {
        let schema = try Self.schema()
        let box = try #require(schema["Box"])
        #expect(box.properties.map(\.typeDescription) == ["int", "mixed", "mixed[]", "mixed<>", "mixed{}"])
        #expect(box["value"]?.type == .mixed && box["value"]?.isOptional == true)
        #expect(try Schema(realmJSJSON: try schema.realmJSJSON()) == schema)
        let long = try Schema(
            realmJSJSON: Data(
                #"[{"name": "A", "properties": {"m": {"type": "list", "objectType": "mixed"}, "o": "mixed?"}}]"#.utf8))
        #expect(long["A"]?["m"]?.typeDescription == "mixed[]" && long["A"]?["o"]?.typeDescription == "mixed")
    }

    /// Every kind of Mixed value in one document, in export's own form.
    static let document = #"""
        [
        {"id":1,"value":null,"items":[1,1.5,"1",true,null,{"$float":2.5},{"$double":"nan"},{"$decimal":"12.50"},{"$date":"2020-01-02T03:04:05.25Z"},{"$oid":"0123456789abcdef01234567"},{"$uuid":"d1b186e1-e9e0-4768-a1a7-c492519d47ee"},{"$binary":"AAH/"},[1,[2]],{"a":{"b":[]}}],"bag":[null,true,1,"1"],"attrs":{"cat":{"$link":{"class":"Cat","index":1}},"dog":{"$link":{"class":"Dog","key":"rex"}},"n":-0.0}},
        {"id":2,"value":{"$link":{"class":"Dog","key":"tom"}},"items":[],"bag":[],"attrs":{}},
        {"id":3,"value":{"k":[{"$date":"1969-12-31T23:59:59Z"}]},"items":[],"bag":[],"attrs":{}},
        {"id":4,"value":"5","items":[],"bag":[],"attrs":{}},
        {"id":5,"value":5,"items":[],"bag":[],"attrs":{}}
        ]
        """#

    static func importDocument(_ text: String, csv: Bool = false, schema: Schema) throws -> Realm {
        let realm = try memory(schema)
        try realm.write {
            for name in ["rex", "tom"] { try realm.create("Dog", ["name": .string(name)]) }
            for name in ["felix", "tibbles"] { try realm.create("Cat", ["name": .string(name)]) }
            let groups =
                csv
                ? try ImportDocument.groups(fromCSV: Data(text.utf8), className: "Box", schema: schema)
                : try ImportDocument.groups(fromJSON: Data(text.utf8), className: "Box", schema: schema)
            _ = try DataImport(realm: realm).run(groups)
        }
        return realm
    }

    static func export(_ realm: Realm, csv: Bool = false) throws -> String {
        let objectSchema = try #require(realm.schema["Box"])
        let rows = try realm.objects("Box").sorted(byKeyPath: "id").map { try $0.values() }
        return csv
            ? try CSVExport.table(rows, schema: objectSchema, resolveLink: realm.exportLinkResolver())
            : try JSONExport.array(rows, schema: objectSchema, resolveLink: realm.exportLinkResolver())
    }

    @Test func jsonRoundTripIsByteIdenticalAndReadsEveryKind() throws {
        let schema = try Self.schema()
        let realm = try Self.importDocument(Self.document, schema: schema)
        let box = try #require(try realm.object(ofType: "Box", forPrimaryKey: .int(1)))
        guard case .list(let items)? = box["items"] else {
            Issue.record("no items")
            return
        }
        #expect(items.count == 14)
        #expect(items.prefix(5) == [.int(1), .double(1.5), .string("1"), .bool(true), .null])
        #expect(items[5] == .float(2.5) && ValueOrder.isNaN(items[6]))
        #expect(items[7] == .decimal128(Decimal128("12.50")) && items[11] == .data(Data([0, 1, 255])))
        #expect(items[12] == .list([.int(1), .list([.int(2)])]) && items[13] == .map(["a": .map(["b": .list([])])]))
        let rex = try #require(try realm.object(ofType: "Dog", forPrimaryKey: .string("rex")))
        let tibbles = try #require(try realm.objects("Cat").filter("name == 'tibbles'").first)
        #expect(
            box["attrs"]
                == .map([
                    "dog": .typedLink(TypedLink(className: "Dog", key: rex.key)),
                    "cat": .typedLink(TypedLink(className: "Cat", key: tibbles.key)), "n": .double(-0.0),
                ]))
        #expect(try realm.object(ofType: "Box", forPrimaryKey: .int(4))?["value"] == .string("5"))
        #expect(try realm.object(ofType: "Box", forPrimaryKey: .int(5))?["value"] == .int(5))
        let exported = try Self.export(realm)
        #expect(exported == Self.document + "\n", "\(exported)")
    }

    @Test func csvCellsAreJSONTextAndRoundTrip() throws {
        let schema = try Self.schema()
        let realm = try Self.importDocument(Self.document, schema: schema)
        let csv = try Self.export(realm, csv: true)
        #expect(csv.contains("\n4,\"\"\"5\"\"\",[],[],{}"), "\(csv)")  // the string "5" as JSON text in a quoted cell
        #expect(csv.contains("\n5,5,[],[],{}"), "\(csv)")
        let again = try Self.importDocument(csv, csv: true, schema: schema)
        #expect(try Self.export(again, csv: true) == csv)
        #expect(try Self.export(again) == Self.document + "\n")
    }

    @Test func badMixedJSONIsAnErrorNamingTheValue() throws {
        let schema = try Self.schema()
        let cases: [(String, String)] = [
            (#"[{"id": 1, "value": {"$kitten": 1}}]"#, "$kitten"),
            (#"[{"id": 1, "value": {"$date": "yesterday"}}]"#, "$date"),
            (#"[{"id": 1, "value": {"$link": {"class": "Dog", "key": "nobody"}}}]"#, "nobody"),
            (#"[{"id": 1, "value": {"$link": {"class": "Cat", "key": "felix"}}}]"#, "no primary key"),
            (#"[{"id": 1, "value": {"$link": {"class": "Cat", "index": 9}}}]"#, "Cat[9]"),
            (#"[{"id": 1, "value": {"$link": {"class": "Rat", "index": 0}}}]"#, "Rat"),
            (#"[{"id": 1, "value": {"a.b": 1}}]"#, "'.'"),
            (#"[{"id": 1, "value": 123456789012345678901234567890}]"#, "64 bits"),
            (#"[{"id": 1, "bag": [[1]]}]"#, "set"),
        ]
        for (json, word) in cases {
            do {
                _ = try Self.importDocument(json, schema: schema)
                Issue.record("no error for \(json)")
            } catch let error as RealmError {
                #expect(error.description.contains(word), "\(json): \(error)")
            }
        }
        // Without an import to resolve it, a link is refused rather than guessed.
        let value = try #require(schema["Box"]?["value"])
        #expect(throws: RealmError.self) {
            try Value.parse(#"{"$link": {"class": "Dog", "key": "rex"}}"#, for: value, className: "Box")
        }
        #expect(try Value.parse("hello", for: value, className: "Box") == .string("hello"))
        #expect(try Value.parse("5", for: value, className: "Box") == .int(5))
        #expect(try Value.parse(#""5""#, for: value, className: "Box") == .string("5"))
    }
}
