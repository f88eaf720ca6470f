import Foundation
import Testing
@testable import RealmEngine

/// Embedded objects in JSON and CSV: written nested inside their parent (a to-one link as an
/// object, a list as an array of objects, a dictionary's values as objects, at any depth),
/// imported through the parent, never a class of their own; export → import → export
/// byte-identical.
@Suite struct EmbeddedInterchangeTests {
    static let schemaJSON = #"""
        [{"name": "Person", "primaryKey": "name", "properties": {"name": "string", "address": "Address", "previous": "Address[]", "places": "Address{}"}},
         {"name": "Address", "embedded": true, "properties": {"city": "string", "geo": "Geo", "visits": "Geo[]", "note": "Note", "friend": "Person"}},
         {"name": "Geo", "embedded": true, "properties": {"lat": "double"}},
         {"name": "Note", "properties": {"text": "string"}}]
        """#

    /// People in export's own form: nested objects inside nested objects, a link from an
    /// embedded object to an object without a primary key (by position) and to one with.
    static let document = #"""
        [
        {"name":"Ada","address":{"city":"Oslo","geo":{"lat":59.9},"visits":[{"lat":1.5},{"lat":2.5}],"note":{"$ref":"Note","$index":1},"friend":"Bo"},"previous":[{"city":"Bergen","geo":null,"visits":[],"note":null,"friend":null},{"city":"Tromsø","geo":{"lat":69.6},"visits":[],"note":null,"friend":null}],"places":{"none":null,"work":{"city":"Trondheim","geo":null,"visits":[],"note":{"$ref":"Note","$index":0},"friend":"Ada"}}},
        {"name":"Bo","address":null,"previous":[],"places":{}}
        ]
        """#

    static func schema() throws -> Schema { try Schema(realmJSJSON: Data(schemaJSON.utf8)) }

    static func memory() throws -> Realm {
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "embedded-\(UUID().uuidString)", schema: try schema()))
        try realm.write {
            for text in ["first", "second"] { try realm.create("Note", ["text": .string(text)]) }
        }
        return realm
    }

    @discardableResult
    static func importPeople(
        _ text: String, into realm: Realm, csv: Bool = false, options: DataImport.Options = .init()
    ) throws -> DataImport.Summary {
        try realm.write {
            let groups =
                csv
                ? try ImportDocument.groups(fromCSV: Data(text.utf8), className: "Person", schema: realm.schema)
                : try ImportDocument.groups(fromJSON: Data(text.utf8), className: "Person", schema: realm.schema)
            return try DataImport(realm: realm, options: options).run(groups)
        }
    }

    static func export(_ realm: Realm, csv: Bool = false) throws -> String {
        let objectSchema = try #require(realm.schema["Person"])
        let rows = try realm.objects("Person").sorted(byKeyPath: "name").map { try $0.values() }
        return csv
            ? try CSVExport.table(rows, schema: objectSchema, resolveLink: realm.exportLinkResolver())
            : try JSONExport.array(rows, schema: objectSchema, resolveLink: realm.exportLinkResolver())
    }

    @Test func nestedObjectsImportThroughTheirParentAndExportByteIdentical() throws {
        let realm = try Self.memory()
        try Self.importPeople(Self.document, into: realm)
        #expect(try realm.storedObjectCount("Address") == 4)
        #expect(try realm.storedObjectCount("Geo") == 4)
        let ada = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada")))
        let home = try #require(try ada.linkedObject(forKey: "address"))
        #expect(try home.value(forKey: "city") == .string("Oslo"))
        #expect(try home.linkedObject(forKey: "geo")?.value(forKey: "lat") == .double(59.9))
        #expect(try home.linkedObject(forKey: "note")?.value(forKey: "text") == .string("second"))
        #expect(try home.linkedObject(forKey: "friend")?.value(forKey: "name") == .string("Bo"))
        #expect(try ada.map(forKey: "places").keys() == ["none", "work"])
        let exported = try Self.export(realm)
        #expect(exported == Self.document + "\n", "\(exported)")
        _ = try realm.checkIntegrity()
    }

    @Test func csvCellsHoldTheNestedObjectsAsJSON() throws {
        let realm = try Self.memory()
        try Self.importPeople(Self.document, into: realm)
        let csv = try Self.export(realm, csv: true)
        #expect(
            csv.hasPrefix(
                "name,address,previous,places\r\nAda,\"{\"\"city\"\":\"\"Oslo\"\",\"\"geo\"\":{\"\"lat\"\":59.9}"),
            "\(csv)")
        #expect(csv.contains("\r\nBo,,[],{}\r\n"), "\(csv)")
        let copy = try Self.memory()
        try Self.importPeople(csv, into: copy, csv: true)
        #expect(try Self.export(copy) == Self.document + "\n")
        #expect(try Self.export(copy, csv: true) == csv)
    }

    @Test func importingTheSameObjectsAgainLeavesThemUnchanged() throws {
        let realm = try Self.memory()
        try Self.importPeople(Self.document, into: realm)
        let again = try Self.importPeople(Self.document, into: realm)
        #expect(again.unchanged == 2 && again.updated == 0 && again.created == 0, "\(again)")
        // The old nested objects were replaced, not kept beside the new ones.
        #expect(try realm.storedObjectCount("Address") == 4)
        #expect(try realm.storedObjectCount("Geo") == 4)
        let changed = try Self.importPeople(
            #"[{"name": "Ada", "address": {"city": "Oslo", "geo": {"lat": 60}}}]"#, into: realm)
        #expect(changed.updated == 1 && changed.unchanged == 0, "\(changed)")
        #expect(try Self.export(realm) != Self.document + "\n")
    }

    @Test func anAssignmentReachesInsideEmbeddedObjects() throws {
        let realm = try Self.memory()
        try Self.importPeople(Self.document, into: realm)
        let person = try #require(realm.schema["Person"])
        let ada = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada")))
        let home = try #require(try ada.linkedObject(forKey: "address"))
        try realm.write {
            for text in ["address.visits+={\"lat\": 3.5}", "address.geo.lat=1", "address.friend=Ada"] {
                try Assignment.parse(text, objectSchema: person, schema: realm.schema).apply(to: ada)
            }
        }
        #expect(try ada.linkedObject(forKey: "address") == home, "changed in place, not replaced")
        #expect(try home.list(forKey: "visits").elements().count == 3)
        #expect(try home.list(forKey: "visits").object(at: 2).value(forKey: "lat") == .double(3.5))
        #expect(try home.linkedObject(forKey: "geo")?.value(forKey: "lat") == .double(1))
        #expect(try home.linkedObject(forKey: "friend") == ada)
        let inner = try Assignment.parse("address.geo.lat=2", objectSchema: person, schema: realm.schema)
        #expect(inner.property.name == "address")
        guard case .inside(let geo) = inner.operation, case .inside(let lat) = geo.operation else {
            Issue.record("\(inner.operation)")
            return
        }
        #expect(lat.operation == .assign(.value(.double(2))))
    }

    /// Realm never lets a Mixed value link to an embedded object: it would be a second parent
    /// (and an export could not name it).
    @Test func aMixedValueCannotLinkToAnEmbeddedObject() throws {
        let schema = try Schema(
            realmJSJSON: Data(
                #"""
                [{"name": "Box", "properties": {"any": "mixed", "part": "Part"}},
                 {"name": "Part", "embedded": true, "properties": {"n": "int"}}]
                """#.utf8))
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "embedded-mixed-\(UUID().uuidString)", schema: schema))
        let box = try realm.write {
            try realm.create("Box", value: .dictionary(["part": .dictionary(["n": .value(.int(1))])]))
        }
        let part = try #require(try box.linkedObject(forKey: "part"))
        #expect {
            try realm.write { try box.setValue(.typedLink(TypedLink(className: "Part", key: part.key)), forKey: "any") }
        } throws: { error in
            "\(error)".contains("Box.any") && "\(error)".contains("Part is an embedded class")
        }
        #expect(try box.value(forKey: "any") == .null)
        #expect {
            try realm.write {
                let groups = try ImportDocument.groups(
                    fromJSON: Data(#"[{"any": {"$link": {"class": "Part", "index": 0}}}]"#.utf8),
                    className: "Box", schema: schema)
                _ = try DataImport(realm: realm).run(groups)
            }
        } throws: { error in
            "\(error)".contains("Part is an embedded class")
        }
    }

    @Test func anEmbeddedClassIsNoTopLevelClassOfAnImport() throws {
        let realm = try Self.memory()
        for document in [#"{"Address": [{"city": "Oslo"}]}"#, #"{"Person": [], "Geo": [{"lat": 1}]}"#] {
            #expect {
                try realm.write {
                    _ = try DataImport(realm: realm).run(
                        try ImportDocument.groups(fromJSON: Data(document.utf8), className: nil, schema: realm.schema))
                }
            } throws: { error in
                let text = "\(error)"
                return document.contains("Address")
                    ? text.contains(
                        "Address is embedded: its objects live in Person.address, Person.previous, Person.places")
                    : text.contains("Geo is embedded: its objects live in Address.geo, Address.visits")
            }
        }
        #expect(throws: RealmError.self) {
            try realm.write {
                _ = try DataImport(realm: realm).run(
                    try ImportDocument.groups(
                        fromCSV: Data("city\r\nOslo\r\n".utf8), className: "Address", schema: realm.schema))
            }
        }
        #expect(try realm.storedObjectCount("Address") == 0)
    }

    @Test func anEmbeddedObjectIsGivenNotNamed() throws {
        let realm = try Self.memory()
        for (document, words) in [
            (
                #"[{"name": "Ada", "address": {"$ref": "Address", "$index": 0}}]"#,
                ["Person[0] (name \"Ada\")", "address", "embedded", "inside"]
            ),
            (
                #"[{"name": "Ada", "previous": [{"$ref": "Address", "$index": 0}]}]"#,
                ["previous[0]", "embedded", "inside"]
            ),
            (#"[{"name": "Ada", "address": "Oslo"}]"#, ["address", "Address"]),
            (#"[{"name": "Ada", "address": {"town": "Oslo"}}]"#, ["address", "unknown property 'town'", "city"]),
        ] {
            #expect {
                try Self.importPeople(document, into: realm)
            } throws: { error in
                words.allSatisfy { "\(error)".contains($0) }
            }
        }
        #expect(try realm.objects("Person").checkedCount() == 0)
    }
}
