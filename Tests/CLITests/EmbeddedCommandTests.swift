import Foundation
import Testing

/// Embedded objects on the command line: `export` and `import` nest them inside their parents
/// (and round-trip byte-identical), `query` reaches them through key paths and shows them
/// readably in every format, and a command naming an embedded class as a class of its own is
/// told where its objects live.
@Suite("CLI embedded objects", .tags(.multiProcess))
struct EmbeddedCommandTests {
    static let schema = #"""
        [{"name": "Person", "primaryKey": "name", "properties": {"name": "string", "address": "Address", "previous": "Address[]", "places": "Address{}"}},
         {"name": "Address", "embedded": true, "properties": {"city": "string", "street": "string?", "geo": "Geo"}},
         {"name": "Geo", "embedded": true, "properties": {"lat": "double"}}]
        """#

    static let data = #"""
        {"Person": [
          {"name": "Ada", "address": {"city": "Oslo", "street": "Karl Johans gate", "geo": {"lat": 59.9}},
           "previous": [{"city": "Bergen"}, {"city": "Tromsø", "geo": {"lat": 69.6}}], "places": {"work": {"city": "Trondheim"}}},
          {"name": "Bo"}]}
        """#

    func database(_ s: Scratch) throws -> String {
        let db = try s.createRealm("people.realm", schema: try s.write("schema.json", Self.schema))
        let imported = try CLI.run(["import", db, "-"], stdin: Self.data)
        try #require(imported.status == 0, "\(imported.stderr)")
        return db
    }

    @Test func exportNestsEmbeddedObjectsAndImportsBackByteIdentical() throws {
        let s = try Scratch()
        let db = try database(s)
        let exported = try CLI.run(["export", db])
        try #require(exported.status == 0, "\(exported.stderr)")
        let document = try #require(parseJSON(exported.stdout) as? [String: Any], "\(exported.stdout)")
        #expect(
            Array(document.keys) == ["Person"],
            "embedded classes are no top-level class of the export: \(exported.stdout)")
        #expect(
            exported.stdout.contains(#""address":{"city":"Oslo","street":"Karl Johans gate","geo":{"lat":59.9}}"#),
            "\(exported.stdout)")
        #expect(
            exported.stdout.contains(#""places":{"work":{"city":"Trondheim","street":null,"geo":null}}"#),
            "\(exported.stdout)")
        let copy = try s.createRealm("copy.realm", schema: s.path("schema.json"))
        let imported = try CLI.run(["import", copy, try s.write("export.json", exported.stdout)])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try CLI.run(["export", copy]).stdout == exported.stdout)

        let csv = try CLI.run(["export", db, "--class", "Person", "--format", "csv"])
        try #require(csv.status == 0, "\(csv.stderr)")
        let fromCSV = try s.createRealm("csv.realm", schema: s.path("schema.json"))
        let csvImported = try CLI.run(["import", fromCSV, "--class", "Person", try s.write("people.csv", csv.stdout)])
        #expect(csvImported.status == 0, "\(csvImported.stderr)")
        #expect(try CLI.run(["export", fromCSV]).stdout == exported.stdout)
        let check = try CLI.run(["check", fromCSV])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("  Address: 4\n") && check.stdout.contains("  Geo: 2\n"), "\(check.stdout)")
    }

    @Test func importChecksNestedObjectsAsStrictlyAsTopLevelOnes() throws {
        let s = try Scratch()
        let db = try s.createRealm("people.realm", schema: try s.write("schema.json", Self.schema))
        let data = #"{"Person": [{"name": "Ada", "address": {"city": "Oslo", "geo": {"lat": 1, "alt": 2}}}]}"#
        try expectUnchanged(db) {
            expectFailure(
                try CLI.run(["import", db, "-"], stdin: data),
                contains: "Person[0] (name \"Ada\"): Address.geo: unknown property 'alt'; Geo has lat")
            expectFailure(
                try CLI.run(["import", db, "-"], stdin: #"{"Person": [{"name": "Ada", "address": {"street": "x"}}]}"#),
                contains: "city")
        }
        let ignored = try CLI.run(["import", db, "-", "--ignore-unknown"], stdin: data)
        #expect(ignored.status == 0, "\(ignored.stderr)")
        #expect(ignored.stderr.contains("warning: skipped 1 unknown property"), "\(ignored.stderr)")
        #expect(try CLI.run(["query", db, "Person", "address.geo.lat == 1", "--format", "count"]).stdout == "1\n")
    }

    @Test func anEmbeddedClassOnItsOwnIsToldWhereItsObjectsLive() throws {
        let s = try Scratch()
        let db = try database(s)
        let places = "Address is embedded: its objects live in Person.address, Person.previous, Person.places"
        expectFailure(
            try CLI.run(["query", db, "Address", "city == 'Oslo'"]),
            contains: places + "; query Person with address.city == …")
        expectFailure(
            try CLI.run(["query", db, "Geo", "--format", "count"]),
            contains: "Geo is embedded: its objects live in Address.geo; query Person with address.geo.lat == …")
        expectFailure(try CLI.run(["export", db, "--class", "Address"]), contains: places + "; export Person")
        expectFailure(
            try CLI.run(["watch", db, "Address", "--count-events", "1"]),
            contains: places + "; query Person with address.city == …")
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["delete", db, "Address", "--all"]), contains: places)
            expectFailure(try CLI.run(["update", db, "Address", "TRUEPREDICATE", "--set", "city=x"]), contains: places)
            expectFailure(
                try CLI.run(["import", db, "--class", "Address", "-"], stdin: #"[{"city": "Oslo"}]"#), contains: places)
            expectFailure(
                try CLI.run(["import", db, "-"], stdin: #"{"Address": [{"city": "Oslo"}]}"#), contains: places)
        }
    }

    @Test func queriesReachEmbeddedObjectsThroughKeyPaths() throws {
        let s = try Scratch()
        let db = try database(s)
        for (predicate, expected) in [
            ("address.city == 'Oslo'", "1"), ("address.geo.lat > 59", "1"), ("ANY previous.city == 'Bergen'", "1"),
            ("places['work'].city == 'Trondheim'", "1"), ("address == nil", "1"), ("previous.@count == 2", "1"),
        ] {
            let r = try CLI.run(["query", db, "Person", predicate, "--format", "count"])
            #expect(r.stdout == expected + "\n", "\(predicate): \(r.stdout) \(r.stderr)")
        }
        let json = try CLI.run(["query", db, "Person", "address.city == 'Oslo'", "--format", "json"])
        #expect(
            json.stdout.contains(
                #""previous":[{"city":"Bergen","street":null,"geo":null},{"city":"Tromsø","street":null,"geo":{"lat":69.6}}]"#
            ),
            "\(json.stdout) \(json.stderr)")
    }

    @Test func tablesAndLinesShowEmbeddedObjectsReadably() throws {
        let s = try Scratch()
        let db = try database(s)
        let lines = try CLI.run(["query", db, "Person", "--sort", "name", "--format", "line"])
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(
            lines.stdout.contains(#"address = Address{city: "Oslo", street: "Karl Johans gate", geo: Geo{lat: 59.9}}"#),
            "\(lines.stdout)")
        #expect(
            lines.stdout.contains(
                #"previous = [Address{city: "Bergen", street: null, geo: null}, Address{city: "Tromsø", street: null, geo: Geo{lat: 69.6}}]"#
            ),
            "\(lines.stdout)")
        #expect(
            lines.stdout.contains(#"  places = {"work": Address{city: "Trondheim", street: null, geo: null}}"#),
            "\(lines.stdout)")
        #expect(
            lines.stdout.hasSuffix("    name = Bo\n address = null\nprevious = []\n  places = {}\n"), "\(lines.stdout)")
        let table = try CLI.run(
            ["query", db, "Person", "--sort", "name", "--columns", "name,address"], environment: ["COLUMNS": "200"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout.contains(#"Address{city: "Oslo", street: "Karl Johans gate", geo: Geo{lat: 59.9}}"#),
            "\(table.stdout)")
        #expect(table.stdout.hasSuffix("(2 objects)\n"), "\(table.stdout)")
    }

    @Test func updateSetsAPropertyInsideAnEmbeddedObject() throws {
        let s = try Scratch()
        let db = try database(s)
        let r = try CLI.run([
            "update", db, "Person", "name == 'Ada'", "--set", "address.city=Bergen", "--set", "address.geo.lat=60.5",
            "--set", "address.street=null", "--set", "places.home={\"city\": \"Lund\"}",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let count = try CLI.run([
            "query", db, "Person",
            "address.city == 'Bergen' AND address.geo.lat == 60.5 AND address.street == nil "
                + "AND places['home'].city == 'Lund'", "--format", "count",
        ])
        #expect(count.stdout == "1\n", "\(count.stderr)")
        // Changed in place: the same objects, one more for the new dictionary entry.
        let check = try CLI.run(["check", db])
        #expect(check.stdout.contains("  Address: 5\n") && check.stdout.contains("  Geo: 2\n"), "\(check.stdout)")
        try expectUnchanged(db) {
            expectFailure(
                try CLI.run(["update", db, "Person", "TRUEPREDICATE", "--set", "address.city=Lund"]),
                contains:
                    #"Person.address is null in the Person with name "Bo": set a whole Address first, e.g. address={"city": …}"#
            )
            expectFailure(
                try CLI.run(["update", db, "Person", "name == 'Ada'", "--set", "address.town=Lund"]), contains: "town")
            expectFailure(
                try CLI.run(["update", db, "Person", "name == 'Ada'", "--set", "address.geo.lat=north"]),
                contains: "lat")
            // Only a to-one link's object is reached this way; a list's or dictionary's are set whole.
            expectFailure(
                try CLI.run(["update", db, "Person", "name == 'Ada'", "--set", "previous[0].geo.lat=1"]),
                contains: "no property 'previous[0]'")
            expectFailure(
                try CLI.run(["update", db, "Person", "name == 'Ada'", "--set", "places.work.city=Lund"]),
                contains: "the dictionary key 'work.city' contains '.'")
        }
    }

    @Test func updateSetsAWholeEmbeddedObject() throws {
        let s = try Scratch()
        let db = try database(s)
        let r = try CLI.run(["update", db, "Person", "name == 'Bo'", "--set", #"address={"city": "Lund"}"#])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.run(["query", db, "Person", "address.city == 'Lund'", "--format", "count"]).stdout == "1\n")
        let replaced = try CLI.run(["update", db, "Person", "name == 'Ada'", "--set", #"address={"city": "Malmö"}"#])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let check = try CLI.run(["check", db])
        #expect(
            check.stdout.contains("  Address: 5\n") && check.stdout.contains("  Geo: 1\n"),
            "the old address and its geo went: \(check.stdout)")
    }
}
