import Foundation
import Testing

/// Sets and dictionaries through the command line: `create --schema` with realm-js's `"X<>"`
/// and `"X{}"`, `import`, `schema` (text and `--json`), `query` with Realm's set and dictionary
/// operators, `update --set` of a whole set or dictionary, and `export` → `import`
/// byte-identical.
@Suite(.tags(.multiProcess)) struct SetMapCommandTests {
    static let schema =
        #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "tags": "string<>", "attrs": "string{}", "counts": "int?{}", "pets": "Pet{}"}}, {"name": "Pet", "primaryKey": "name", "properties": {"name": "string"}}]"#
    static let data =
        #"{"Pet": [{"name": "rex"}], "Item": [{"id": 1, "tags": ["b", "a", "b"], "attrs": {"color": "red"}, "counts": {"x": 1, "y": null}, "pets": {"dog": "rex"}}, {"id": 2, "tags": [], "attrs": {}, "counts": {}, "pets": {}}]}"#

    func database(_ scratch: Scratch) throws -> String {
        let file = try scratch.createRealm("s.realm", schema: try scratch.write("schema.json", Self.schema))
        let imported = try CLI.run(["import", file, "-"], stdin: Self.data)
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }

    @Test func schemaQueryAndUpdate() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let schema = try CLI.run(["schema", file])
        #expect(
            schema.stdout.contains("string<>") && schema.stdout.contains("int?{}") && schema.stdout.contains("Pet{}"),
            "\(schema.stdout)")
        let json = try CLI.run(["schema", file, "--json"])
        #expect(
            json.stdout.contains(#""tags": "string<>""#) && json.stdout.contains(#""pets": "Pet{}""#), "\(json.stdout)")
        for (query, ids) in [
            ("ANY tags == 'a'", "1"), ("tags.@count == 2", "1"), ("attrs['color'] == 'red'", "1"),
            ("attrs.@count == 0", "2"), ("counts.@keys == 'y'", "1"), ("pets['dog'].name == 'rex'", "1"),
        ] {
            let result = try CLI.run(["query", file, "Item", query, "--format", "json"])
            #expect(result.status == 0, "\(query): \(result.stderr)")
            #expect(
                result.stdout.contains(#""id":\#(ids)"#)
                    && !result.stdout.contains(#""id":\#(ids == "1" ? "2" : "1")"#), "\(query): \(result.stdout)")
        }
        let updated = try CLI.run([
            "update", file, "Item", "id == 2", "--set", #"attrs={"k": "v"}"#, "--set", #"tags=["z", "z"]"#,
        ])
        #expect(updated.status == 0, "\(updated.stderr)")
        let after = try CLI.run(["query", file, "Item", "id == 2", "--format", "json"])
        #expect(
            after.stdout.contains(#""tags":["z"]"#) && after.stdout.contains(#""attrs":{"k":"v"}"#), "\(after.stdout)")
        expectFailure(
            try CLI.run(["update", file, "Item", "id == 2", "--set", #"attrs={"a.b": "v"}"#]), contains: "'.'")
    }

    @Test func exportImportsBackByteIdentical() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let exported = try CLI.run(["export", file])
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(
            exported.stdout.contains(#""tags":["a","b"]"#) && exported.stdout.contains(#""counts":{"x":1,"y":null}"#),
            "\(exported.stdout)")
        let copy = try scratch.createRealm("copy.realm", schema: scratch.path("schema.json"))
        let imported = try CLI.run(["import", copy, try scratch.write("export.json", exported.stdout)])
        #expect(imported.status == 0, "\(imported.stderr)")
        let again = try CLI.run(["export", copy])
        #expect(again.stdout == exported.stdout)
        let csv = try CLI.run(["export", file, "--class", "Item", "--format", "csv"])
        try #require(csv.status == 0, "\(csv.stderr)")
        let copy2 = try scratch.createRealm("copy2.realm", schema: scratch.path("schema.json"))
        _ = try CLI.run(["import", copy2, "-"], stdin: #"{"Pet": [{"name": "rex"}]}"#)
        let fromCSV = try CLI.run(["import", copy2, "--class", "Item", try scratch.write("items.csv", csv.stdout)])
        #expect(fromCSV.status == 0, "\(fromCSV.stderr)")
        #expect(try CLI.run(["export", copy2]).stdout == exported.stdout)
    }
}
