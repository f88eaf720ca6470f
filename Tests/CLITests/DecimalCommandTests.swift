import Foundation
import Testing

/// A decimal128 property through the command line: `create --schema` with realm-js's
/// `"decimal128"`, `import`, `query` (exact decimal literals, JSON/CSV/table output),
/// `update --set`, `schema --json`, and `export` → `import` byte-identical.
@Suite(.tags(.multiProcess)) struct DecimalCommandTests {
    static let schema =
        #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "price": "decimal128", "discount": "decimal128?", "history": "decimal128[]"}}]"#
    static let data =
        #"{"Item": [{"id": 1, "price": "10.50", "discount": null, "history": ["0.1", "0.2"]}, {"id": 2, "price": 0.1, "discount": "NaN", "history": []}, {"id": 3, "price": "+9999999999999999999999999999999999E+6111", "discount": "-1E-6143", "history": ["-Inf"]}]}"#

    func database(_ scratch: Scratch) throws -> String {
        let file = try scratch.createRealm("d.realm", schema: try scratch.write("schema.json", Self.schema))
        let imported = try CLI.run(["import", file, "-"], stdin: Self.data)
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }

    @Test func queryUpdateAndSchemaSeeExactDecimals() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let schema = try CLI.run(["schema", file, "--json"])
        #expect(
            schema.stdout.contains(#""price": "decimal128""#) && schema.stdout.contains(#""history": "decimal128[]""#),
            "\(schema.stdout)")
        let above = try CLI.run(["query", file, "Item", "price > 10.49999999999999999999999999", "--format", "json"])
        #expect(above.status == 0, "\(above.stderr)")
        #expect(above.stdout.contains(#""price":"10.50""#))
        #expect(above.stdout.contains(#""id":3"#))
        #expect(!above.stdout.contains(#""id":2"#))
        let sum = try CLI.run(["query", file, "Item", "history.@sum == 0.3", "--format", "count"])
        #expect(sum.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(sum.stdout) \(sum.stderr)")
        let table = try CLI.run(["query", file, "Item", "id == 2"])
        #expect(table.stdout.contains("1E-1") && table.stdout.contains("NaN"), "\(table.stdout)")
        let updated = try CLI.run([
            "update", file, "Item", "id == 2", "--set", "price=0.30000000000000000000000000000001",
        ])
        #expect(updated.status == 0, "\(updated.stderr)")
        let after = try CLI.run([
            "query", file, "Item", "price == 0.30000000000000000000000000000001", "--format", "csv",
        ])
        // A coefficient past 64 bits prints as Realm Core prints it (Intel's form).
        #expect(after.stdout.contains("2,+30000000000000000000000000000001E-32,NaN,[]"), "\(after.stdout)")
        expectFailure(try CLI.run(["update", file, "Item", "id == 2", "--set", "price=ten"]), contains: "price")
    }

    @Test func exportImportsBackByteIdentical() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let exported = try CLI.run(["export", file])
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains(#""+9999999999999999999999999999999999E+6111""#))
        let copy = try scratch.createRealm("copy.realm", schema: scratch.path("schema.json"))
        let imported = try CLI.run(["import", copy, try scratch.write("export.json", exported.stdout)])
        #expect(imported.status == 0, "\(imported.stderr)")
        let again = try CLI.run(["export", copy])
        #expect(again.stdout == exported.stdout)
    }
}
