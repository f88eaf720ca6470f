import Foundation
import Testing

/// Embedded classes through `create --schema`, `schema --json` and `migrate` (to and from
/// embedded, by Realm's rules).
@Suite("CLI embedded schema", .tags(.multiProcess))
struct EmbeddedSchemaCommandTests {
    /// `Person` with an address; `Address` embedded when `embedded`, else a class of its own.
    static func schema(embedded: Bool) -> String {
        #"[{"name": "Person", "primaryKey": "name", "properties": {"name": "string", "address": "Address"}},"#
            + #" {"name": "Address", "embedded": \#(embedded), "properties": {"city": "string"}}]"#
    }

    @Test func createAndSchemaJSONKeepEmbedded() throws {
        let s = try Scratch()
        let db = try s.createRealm("e.realm", schema: try s.write("schema.json", Self.schema(embedded: true)))
        let described = try CLI.run(["schema", db, "--json"])
        try #require(described.status == 0, "\(described.stderr)")
        #expect(described.stdout.contains(#""name": "Address",\#n      "embedded": true,"#), "\(described.stdout)")
        #expect(!described.stdout.contains(#""name": "Person",\#n      "embedded""#), "\(described.stdout)")
        // What `schema --json` prints is what `create --schema` reads.
        let document = try #require(parseJSON(described.stdout) as? [String: Any])
        let schemaArray = try JSONSerialization.data(withJSONObject: try #require(document["schema"]))
        let copy = try s.createRealm(
            "copy.realm", schema: try s.write("again.json", String(decoding: schemaArray, as: UTF8.self)))
        let again = try CLI.run(["schema", copy, "--json"])
        #expect(again.stdout.contains(#""name": "Address",\#n      "embedded": true,"#), "\(again.stdout)")
    }

    @Test func schemaShowsAnEmbeddedClassAndWhereItsObjectsLive() throws {
        let s = try Scratch()
        let db = try s.createRealm("e.realm", schema: try s.write("schema.json", Self.schema(embedded: true)))
        let imported = try CLI.run(
            ["import", db, "-"], stdin: #"{"Person": [{"name": "Ada", "address": {"city": "Oslo"}}, {"name": "Bo"}]}"#)
        try #require(imported.status == 0, "\(imported.stderr)")
        let described = try CLI.run(["schema", db])
        #expect(described.status == 0, "\(described.stderr)")
        #expect(described.stdout.contains("Person (2 objects), primary key name\n"), "\(described.stdout)")
        #expect(described.stdout.contains("Address (1 object), embedded in Person.address\n"), "\(described.stdout)")
        let json = try CLI.run(["schema", db, "--json"])
        let counts = try #require(
            (parseJSON(json.stdout) as? [String: Any])?["counts"] as? [String: Int], "\(json.stdout)")
        #expect(counts == ["Person": 2, "Address": 1])
    }

    @Test func createRefusesAnEmbeddedClassWithAPrimaryKey() throws {
        let s = try Scratch()
        let schema = try s.write(
            "bad.json", #"[{"name": "Address", "embedded": true, "primaryKey": "id", "properties": {"id": "int"}}]"#)
        let r = try CLI.run(["create", s.path("bad.realm"), "--schema", schema])
        expectFailure(r, contains: "embedded class 'Address' cannot have a primary key")
        #expect(!s.exists("bad.realm"))
    }

    @Test func migratesToAndFromEmbedded() throws {
        let s = try Scratch()
        let db = try s.createRealm("m.realm", schema: try s.write("top.json", Self.schema(embedded: false)))
        let data =
            #"{"Address": [{"city": "Oslo"}, {"city": "Bergen"}], "Person": [{"name": "Ada", "address": {"$ref": "Address", "$index": 0}}]}"#
        let imported = try CLI.run(["import", db, "-"], stdin: data)
        try #require(imported.status == 0, "\(imported.stderr)")
        let embedded = try s.write("embedded.json", Self.schema(embedded: true))
        // Bergen has no parent: Realm refuses to make Address embedded, naming the orphan.
        try expectUnchanged(db) {
            let orphan = try CLI.run(["migrate", db, "--schema", embedded, "--version", "1"])
            #expect(orphan.status != 0)
            #expect(orphan.stderr.contains("Address"), "\(orphan.stderr)")
        }
        let cleared = try CLI.run(["delete", db, "Address", "city == 'Bergen'"])
        try #require(cleared.status == 0, "\(cleared.stderr)")
        let migrated = try CLI.run(["migrate", db, "--schema", embedded, "--version", "1"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let count = try CLI.run(["query", db, "Person", "address.city == 'Oslo'", "--format", "count"])
        #expect(count.stdout == "1\n", "\(count.stderr)")
        #expect(try CLI.run(["schema", db, "--json"]).stdout.contains(#""embedded": true"#))
        #expect(try CLI.run(["check", db]).status == 0)
        // And back: the objects become a class of their own again.
        let back = try CLI.run([
            "migrate", db, "--schema", try s.write("back.json", Self.schema(embedded: false)), "--version", "2",
        ])
        #expect(back.status == 0, "\(back.stderr)")
        let addresses = try CLI.run(["query", db, "Address", "city == 'Oslo'", "--format", "count"])
        #expect(addresses.stdout == "1\n", "\(addresses.stderr)")
        #expect(!(try CLI.run(["schema", db, "--json"]).stdout.contains("embedded")))
    }
}
