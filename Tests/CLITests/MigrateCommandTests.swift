import Foundation
import Testing

@Suite("CLI migrate")
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
            expectFailure(try CLI.run(["migrate", db, "--schema", schema, "--version", "2", "--rename", "Person.nope=fullName"]),
                          contains: "nope")
        }
        expectFailure(try CLI.run(["migrate", db, "--schema", schema, "--version", "1", "--rename", "bad"]), status: 64)
    }
}
