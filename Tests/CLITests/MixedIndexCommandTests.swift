import Foundation
import Testing

/// `create` takes `"indexed": true` on a mixed property, `schema` shows the index, and queries
/// through it find equal numbers of every kind (1, 1.0 and decimal 1) but not the string "1".
@Suite(.tags(.multiProcess)) struct MixedIndexCommandTests {
    @Test func createImportAndQueryAnIndexedMixedProperty() throws {
        let s = try Scratch()
        let schema = try s.write(
            "schema.json", #"[{"name": "M", "properties": {"any": {"type": "mixed", "indexed": true}, "n": "int"}}]"#)
        let db = try s.createRealm("m.realm", schema: schema)
        let data = try s.write(
            "data.json",
            #"""
            [{"any": 1, "n": 0}, {"any": 1.0, "n": 1}, {"any": {"$decimal": "1"}, "n": 2}, {"any": "1", "n": 3},
             {"any": 1.5, "n": 4}, {"any": null, "n": 5}, {"any": {"$binary": "MQ=="}, "n": 6}]
            """#)
        let imported = try CLI.run(["import", db, data, "--class", "M"])
        try #require(imported.status == 0, "\(imported.stderr)")
        let text = try CLI.run(["schema", db])
        #expect(text.stdout.contains("any  mixed  indexed"), "\(text.stdout)\(text.stderr)")
        func ns(_ predicate: String) throws -> String {
            let r = try CLI.run(["query", db, "M", predicate, "--format", "json", "--sort", "n"])
            #expect(r.status == 0, "\(r.stderr)")
            let objects = parseJSON(r.stdout) as? [[String: Any]] ?? []
            return objects.compactMap { ($0["n"] as? Int).map(String.init) }.joined(separator: ",")
        }
        #expect(try ns("any == 1") == "0,1,2")
        #expect(try ns("any == '1'") == "3")
        #expect(try ns("any IN {1.5, nil}") == "4,5")
        #expect(try CLI.run(["check", db]).status == 0)
    }
}
