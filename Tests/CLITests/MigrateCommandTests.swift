import Foundation
import Testing

@Suite("CLI migrate", .tags(.multiProcess))
struct MigrateCommandTests {
    static let newSchema = """
        [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "fullName": "string", "email": "string?", "dogs": "Dog[]"}},
         {"name": "Dog", "properties": {"name": {"type": "string", "indexed": true}, "age": "int?", "born": "date?",
            "tags": "string[]", "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}}]
        """

    @Test func addsRemovesAndRenamesProperties() throws {
        let s = try Scratch()
        let db = try s.database()
        let schema = try s.write("new.json", MigrateCommandTests.newSchema)
        let r = try CLI.run(["migrate", db, "--schema", schema, "--version", "1", "--rename", "Person.name=fullName"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("schema version 1"))
        let people = try CLI.run(["query", db, "Person", "fullName == '张三' AND email == nil", "--format", "count"])
        #expect(people.stdout == "1\n", "\(people.stderr)")
        let dogs = try CLI.run(["query", db, "Dog", "ANY owners.fullName == '李四'", "--format", "count"])
        #expect(dogs.stdout == "1\n", "\(dogs.stderr)")
        #expect(try CLI.run(["check", db]).status == 0)
    }

    @Test func refusesWithoutAHigherVersionAndLeavesTheFile() throws {
        let s = try Scratch()
        let db = try s.database()
        let schema = try s.write("new.json", MigrateCommandTests.newSchema)
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["migrate", db, "--schema", schema, "--version", "0"]), contains: "differs")
        }
        try expectUnchanged(db) {
            expectFailure(
                try CLI.run(["migrate", db, "--schema", schema, "--version", "2", "--rename", "Person.nope=fullName"]),
                contains: "nope")
        }
        expectFailure(
            try CLI.run(["migrate", db, "--schema", schema, "--version", "1", "--rename", "bad"]), status: 64)
    }

    /// A database of `Item {id, code: string}` holding `codes`, and a schema making `code` an int.
    static func items(_ s: Scratch, codes: [String]) throws -> (db: String, schema: String) {
        let old = try s.write(
            "old.json", #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "code": "string"}}]"#)
        let db = try s.createRealm("items.realm", schema: old)
        let rows = codes.enumerated().map { #"{"id": \#($0.offset + 1), "code": "\#($0.element)"}"# }
        let imported = try CLI.run(["import", db, "-"], stdin: #"{"Item": [\#(rows.joined(separator: ", "))]}"#)
        try #require(imported.status == 0, "\(imported.stderr)")
        let new = try s.write(
            "new.json", #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "code": "int"}}]"#)
        return (db, new)
    }

    /// Before, every value of a property whose type changed became the default (0), exit 0.
    @Test func aChangedTypeConvertsEachValue() throws {
        let s = try Scratch()
        let (db, schema) = try MigrateCommandTests.items(s, codes: ["42", "-7"])
        let r = try CLI.run(["migrate", db, "--schema", schema, "--version", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("default"), "\(r.stdout)")
        let q = try CLI.run(["query", db, "Item", "code == 42 OR code == -7", "--format", "count"])
        #expect(q.stdout == "2\n", "\(q.stderr)")
    }

    @Test func aValueThatDoesNotConvertRefusesTheMigrationUnlessLossy() throws {
        let s = try Scratch()
        let (db, schema) = try MigrateCommandTests.items(s, codes: ["42", "4x", "", "9"])
        try expectUnchanged(db) {
            let r = try CLI.run(["migrate", db, "--schema", schema, "--version", "1"])
            expectFailure(
                r, contains: #"Item with primary key 2, property code: the string "4x" does not convert to int"#)
            #expect(r.stderr.contains("2 values") && r.stderr.contains("--lossy"), "\(r.stderr)")
        }
        let lossy = try CLI.run(["migrate", db, "--schema", schema, "--version", "1", "--lossy"])
        #expect(lossy.status == 0, "\(lossy.stderr)")
        #expect(lossy.stdout.contains("2 values did not convert and were set to the default"), "\(lossy.stdout)")
        let zeros = try CLI.run(["query", db, "Item", "code == 0", "--format", "count"])
        #expect(zeros.stdout == "2\n", "\(zeros.stderr)")
        let kept = try CLI.run(["query", db, "Item", "code == 42 OR code == 9", "--format", "count"])
        #expect(kept.stdout == "2\n", "\(kept.stderr)")
    }
}
