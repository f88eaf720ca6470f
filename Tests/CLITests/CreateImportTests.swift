import Foundation
import Testing

@Suite("CLI create and import", .tags(.multiProcess))
struct CreateImportTests {
    @Test func createMakesAnEmptyDatabaseWithTheSchema() throws {
        let s = try Scratch()
        let schema = try s.write("s.json", Scratch.schemaJSON)
        let r = try CLI.run(["create", s.path("new.realm"), "--schema", schema])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2 classes"))
        let count = try CLI.run(["query", s.path("new.realm"), "Dog", "--format", "count"])
        #expect(count.stdout == "0\n")
    }

    @Test func oneClassIsCountedInTheSingular() throws {
        let s = try Scratch()
        let schema = try s.write("one.json", #"[{"name": "Thing", "properties": {"n": "int"}}]"#)
        let created = try CLI.run(["create", s.path("one.realm"), "--schema", schema])
        #expect(created.stdout == "created \(s.path("one.realm")): 1 class\n", "\(created.stdout)")
        let checked = try CLI.run(["check", s.path("one.realm")])
        #expect(checked.stdout.contains("0 objects in 1 class\n"), "\(checked.stdout)")
    }

    @Test func createFillsAnEmptyFileButRefusesANonEmptyOne() throws {
        let s = try Scratch()
        let schema = try s.write("s.json", Scratch.schemaJSON)
        try s.write("empty.realm", "")
        #expect(try CLI.run(["create", s.path("empty.realm"), "--schema", schema]).status == 0)
        let file = try s.write("notes.txt", "my notes")
        try expectUnchanged(file) {
            expectFailure(try CLI.run(["create", file, "--schema", schema]), contains: "not empty")
        }
        let db = try s.database()
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["create", db, "--schema", schema]), contains: "already exists")
        }
    }

    @Test func createWithABadSchemaLeavesNoFile() throws {
        let s = try Scratch()
        let cases = [
            "not json",
            #"[{"name": "A", "properties": {"x": "frob"}}]"#,
            #"[{"name": "\#(String(repeating: "A", count: 64))", "properties": {"x": "int"}}]"#,
            #"[{"name": "A", "properties": {"\#(String(repeating: "p", count: 64))": "int"}}]"#,
            #"{"name": "A"}"#,
        ]
        for text in cases {
            let schema = try s.write("bad.json", text)
            expectFailure(try CLI.run(["create", s.path("x.realm"), "--schema", schema]))
            #expect(!s.exists("x.realm"), "created a file for \(text)")
            #expect(!s.exists("x.realm.lock"))
        }
        expectFailure(
            try CLI.run(["create", s.path("x.realm"), "--schema", s.path("missing.json")]), contains: "no such")
        #expect(!s.exists("x.realm"))
    }

    @Test func importReadsDictionaryArrayAndNestedFormsFromStdinAndFiles() throws {
        let s = try Scratch()
        let db = try s.database()
        #expect(try CLI.run(["query", db, "Person", "--format", "count"]).stdout == "2\n")
        #expect(try CLI.run(["query", db, "Dog", "--format", "count"]).stdout == "2\n")
        let more = try s.write("more.json", #"{"Dog": [{"name": "阿黄", "age": 2}, ["Rex", 5, null, ["x"]]]}"#)
        let r = try CLI.run(["import", db, more])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("imported 2 objects"))
        #expect(r.stderr.isEmpty, "no progress output when stderr is not a terminal")
        #expect(try CLI.run(["query", db, "Dog", "--format", "count"]).stdout == "4\n")
    }

    @Test func importUpsertsByPrimaryKey() throws {
        let s = try Scratch()
        let db = try s.database()
        let r = try CLI.run(
            ["import", db, "-"], stdin: #"{"Person": [{"id": 1, "age": 31}, {"id": 3, "name": "王五"}]}"#)
        #expect(r.status == 0, "\(r.stderr)")
        let rows =
            parseJSON(try CLI.run(["query", db, "Person", "--sort", "id", "--format", "json"]).stdout)
            as? [[String: Any]]
        #expect(rows?.count == 3)
        #expect(rows?.first?["age"] as? Int == 31)
        #expect(rows?.first?["name"] as? String == "张三", "properties not given keep their values")
    }

    @Test func importIsAllOrNothing() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            let r = try CLI.run(["import", db, "-"], stdin: #"{"Person": [{"id": 7, "name": "ok"}, {"id": 8}]}"#)
            expectFailure(r, contains: "Person[1] (id 8)")
        }
        #expect(try CLI.run(["query", db, "Person", "id == 7", "--format", "count"]).stdout == "0\n")
    }

    @Test func importDryRunWritesNothing() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            let r = try CLI.run(["import", db, "-", "--dry-run"], stdin: #"{"Dog": [{"name": "Rex"}]}"#)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("would import 1 object ("), "\(r.stdout)")
        }
    }

    @Test func importRejectsBadInputWithoutChangingTheFile() throws {
        let s = try Scratch()
        let db = try s.database()
        let big = String(repeating: "x", count: 17 * 1024 * 1024)
        let cases: [(String, String)] = [
            (#"{"Person": [{"id": 5, "name": 5}]}"#, "expects string"),
            (#"{"Person": [{"id": 5, "name": null}]}"#, "required"),
            (#"{"Person": [{"id": 5}]}"#, "required"),
            (#"{"Dog": [{"name": "\#(big)"}]}"#, "exceeds the limit"),
            (#"{"Person": [{"id": 5,"#, "JSON"),
            ("", "JSON"),
            (#"[1, 2]"#, "--class"),
            ("7", "import file"),
            (#"{"Cat": []}"#, "no class named 'Cat'"),
            (#"{"Dog": [{"name": "a", "age": "old"}]}"#, "Dog.age"),
            (#"{"Dog": [{"name": "a", "born": "yesterday"}]}"#, "Dog.born"),
            (#"{"Person": [{"id": 1.5, "name": "x"}]}"#, "Person.id"),
        ]
        for (input, message) in cases {
            try expectUnchanged(db) {
                expectFailure(try CLI.run(["import", db, "-"], stdin: input), contains: message)
            }
        }
        expectFailure(try CLI.run(["import", db, s.path("nothing.json")]), contains: "no such")
    }
}
