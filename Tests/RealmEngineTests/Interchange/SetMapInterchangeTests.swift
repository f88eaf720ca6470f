import Foundation
import Testing
@testable import RealmEngine

/// Sets and dictionaries in JSON and CSV: a set is a JSON array (in Realm's order), a
/// dictionary a JSON object (keys in Realm's order); both read back the same, dictionaries of
/// links by the target's primary key; keys Realm refuses and values of the wrong type are
/// errors naming the key.
@Suite struct SetMapInterchangeTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "scores", type: .double, isOptional: true, isSet: true),
                Property(name: "attrs", type: .string, isMap: true),
                Property(name: "counts", type: .int, isOptional: true, isMap: true),
                Property(name: "pets", type: .object, isMap: true, objectClassName: "Pet"),
                Property(name: "friends", type: .object, isSet: true, objectClassName: "Pet"),
            ]),
        ObjectSchema(name: "Pet", properties: [Property(name: "name", type: .string, isPrimaryKey: true)]),
    ])

    static func memory() throws -> Realm {
        try Realm(configuration: .init(inMemoryIdentifier: "setmap-\(UUID().uuidString)", schema: schema))
    }

    static func fill(_ realm: Realm) throws {
        try realm.write {
            try realm.create("Pet", ["name": .string("rex")])
            try realm.create("Pet", ["name": .string("tom")])
            try realm.create(
                "Item",
                value: .dictionary([
                    "id": .value(.int(1)),
                    "tags": .value(.list([.string("b"), .string("a"), .string("名前")])),
                    "scores": .value(.list([.double(2.5), .null, .double(-0.0)])),
                    "attrs": .value(.map(["color": .string("red"), "": .string("empty"), "quote\"d": .string("x,y")])),
                    "counts": .value(.map(["a": .int(1), "nil": .null])),
                    "pets": .dictionary(["dog": .primaryKey(.string("rex")), "none": .value(.null)]),
                    "friends": .array([.primaryKey(.string("tom")), .primaryKey(.string("rex"))]),
                ]))
            try realm.create("Item", ["id": .int(2)])
        }
    }

    /// Pets by primary key, as export names them.
    static func resolver(_ realm: Realm) -> LinkResolver {
        { className, key in
            try realm.object(ofType: className, key: key).map { .primaryKey(try $0.value(forKey: "name")) }
        }
    }

    @Test func jsonAndCSVRoundTrip() throws {
        let source = try Self.memory()
        try Self.fill(source)
        let objectSchema = try #require(Self.schema["Item"])
        let rows = try source.objects("Item").sorted(byKeyPath: "id").map { try $0.values() }
        let json = try JSONExport.array(rows, schema: objectSchema, resolveLink: Self.resolver(source))
        #expect(json.contains(#""tags":["a","b","名前"]"#), "\(json)")
        #expect(json.contains(#""attrs":{"":"empty","color":"red","quote\"d":"x,y"}"#), "\(json)")
        #expect(json.contains(#""pets":{"dog":"rex","none":null}"#), "\(json)")
        #expect(json.contains(#""friends":["rex","tom"]"#), "\(json)")
        let csv = try CSVExport.table(rows, schema: objectSchema, resolveLink: Self.resolver(source))
        for (name, groups) in [
            ("json", try ImportDocument.groups(fromJSON: Data(json.utf8), className: "Item", schema: Self.schema)),
            ("csv", try ImportDocument.groups(fromCSV: Data(csv.utf8), className: "Item", schema: Self.schema)),
        ] {
            let target = try Self.memory()
            try target.write {
                try target.create("Pet", ["name": .string("rex")])
                try target.create("Pet", ["name": .string("tom")])
                _ = try DataImport(realm: target).run(groups)
            }
            let imported = try target.objects("Item").sorted(byKeyPath: "id").map { try $0.values() }
            #expect(
                Value.identical(imported.flatMap { $0 }, rows.flatMap { $0 }),
                "\(name) round trip changed a value: \(imported)")
        }
    }

    @Test func badDictionariesAndSetsInImportAreErrors() throws {
        let cases: [(String, String)] = [
            (#"[{"id": 1, "attrs": {"a.b": "x"}}]"#, "'.'"),
            (#"[{"id": 1, "attrs": {"$a": "x"}}]"#, "'$'"),
            (#"[{"id": 1, "attrs": {"a": 5}}]"#, "attrs['a']"),
            (#"[{"id": 1, "attrs": {"a": null}}]"#, "attrs['a']"),
            (#"[{"id": 1, "attrs": ["x"]}]"#, "JSON object"),
            (#"[{"id": 1, "attrs": {"a": "x", "a": "y"}}]"#, "twice"),
            (#"[{"id": 1, "tags": {"a": "x"}}]"#, "JSON array"),
            (#"[{"id": 1, "pets": {"d": "nobody"}}]"#, "nobody"),
        ]
        for (json, word) in cases {
            let realm = try Self.memory()
            do {
                let groups = try ImportDocument.groups(
                    fromJSON: Data(json.utf8), className: "Item", schema: Self.schema)
                try realm.write { _ = try DataImport(realm: realm).run(groups) }
                Issue.record("no error for \(json)")
            } catch let error as RealmError {
                #expect(error.description.contains(word), "\(json): \(error)")
            }
            #expect(try realm.objects("Item").count == 0)
        }
    }

    @Test func valueSyntaxReadsSetsAndDictionaries() throws {
        let tags = try #require(Self.schema["Item"]?["tags"])
        #expect(
            try Value.parse(#"["b","a","b"]"#, for: tags, className: "Item")
                == .list([.string("b"), .string("a"), .string("b")]))
        let counts = try #require(Self.schema["Item"]?["counts"])
        #expect(
            try Value.parse(#"{"x": 1, "y": null}"#, for: counts, className: "Item")
                == .map(["x": .int(1), "y": .null]))
        #expect(throws: RealmError.self) { try Value.parse(#"{"x": "one"}"#, for: counts, className: "Item") }
    }
}
