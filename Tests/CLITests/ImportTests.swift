import Foundation
import Testing

/// `import`: links resolved after every object of the file exists, honest errors and counts,
/// the bare-array and CSV forms, pipes.
@Suite(.tags(.multiProcess)) struct ImportTests {
    static let schema = """
        [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string?", "dogs": "Dog[]", "best": "Dog?"}},
         {"name": "Dog", "primaryKey": "id", "properties": {"id": "int", "age": "int?", "buddy": "Dog?"}},
         {"name": "Note", "properties": {"text": "string?", "dog": "Dog?", "next": "Note?"}}]
        """

    func empty(_ scratch: Scratch, _ name: String = "db.realm") throws -> String {
        let schema = try scratch.write("schema.json", Self.schema)
        let file = scratch.path(name)
        let r = try CLI.run(["create", file, "--schema", schema])
        try #require(r.status == 0, "\(r.stderr)")
        return file
    }

    @Test func linksToObjectsLaterInTheFileResolve() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let data = """
            {"Person": [{"id": 1, "dogs": [89, 90], "best": 90}],
             "Dog": [{"id": 89, "age": 3, "buddy": 90}, {"id": 90, "buddy": 89}]}
            """
        let r = try CLI.run(["import", file, "-"], stdin: data)
        #expect(r.status == 0, "\(r.stderr)")
        let q = try CLI.run([
            "query", file, "Person", "ANY dogs.id == 89 AND best.id == 90 AND best.buddy.id == 89", "--format", "count",
        ])
        #expect(q.stdout == "1\n", "\(q.stderr)")
    }

    @Test func aMissingLinkTargetNamesThePositionAndKey() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        try expectUnchanged(file) {
            let r = try CLI.run(["import", file, "-"], stdin: #"{"Dog": [{"id": 1}, {"id": 7, "buddy": 99}]}"#)
            expectFailure(r, contains: "Dog[1] (id 7)")
            #expect(r.stderr.contains("99"), "\(r.stderr)")
        }
    }

    @Test func unknownPropertyIsAnErrorUnlessIgnored() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let data = #"{"Dog": [{"id": 1, "agee": 3}, {"id": 2, "colour": "red"}]}"#
        try expectUnchanged(file) {
            let r = try CLI.run(["import", file, "-"], stdin: data)
            expectFailure(r, contains: "agee")
            #expect(r.stderr.contains("Dog[0] (id 1)") && r.stderr.contains("id, age, buddy"), "\(r.stderr)")
        }
        let r = try CLI.run(["import", file, "-", "--ignore-unknown"], stdin: data)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("2 unknown properties"), "\(r.stderr)")
        let q = try CLI.run(["query", file, "Dog", "--format", "count"])
        #expect(q.stdout == "2\n")
    }

    @Test func duplicatePrimaryKeysAreAnErrorNamingBothPositions() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let data = #"{"Dog": [{"id": 1, "age": 1}, {"id": 2}, {"id": 1, "age": 5}]}"#
        try expectUnchanged(file) {
            let r = try CLI.run(["import", file, "-"], stdin: data)
            expectFailure(r, contains: "Dog[0]")
            #expect(r.stderr.contains("Dog[2]"), "\(r.stderr)")
        }
        let r = try CLI.run(["import", file, "-", "--upsert-duplicates"], stdin: data)
        #expect(r.status == 0, "\(r.stderr)")
        let q = try CLI.run(["query", file, "Dog", "id == 1 AND age == 5", "--format", "count"])
        #expect(q.stdout == "1\n")
    }

    @Test func theSummaryCountsCreatedUpdatedAndUnchanged() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let first = try CLI.run(["import", file, "-"], stdin: #"{"Dog": [{"id": 1, "age": 1}, {"id": 2, "age": 2}]}"#)
        #expect(first.stdout.contains("2 created, 0 updated, 0 unchanged"), "\(first.stdout)")
        let second = try CLI.run(
            ["import", file, "-"], stdin: #"{"Dog": [{"id": 1, "age": 1}, {"id": 2, "age": 3}, {"id": 3}]}"#)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("1 created, 1 updated, 1 unchanged"), "\(second.stdout)")
    }

    @Test func aBareArrayImportsWithClass() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let r = try CLI.run(["import", file, "-", "--class", "Dog"], stdin: #"[{"id": 1}, {"id": 2, "buddy": 1}]"#)
        #expect(r.status == 0, "\(r.stderr)")
        let q = try CLI.run(["query", file, "Dog", "buddy.id == 1", "--format", "count"])
        #expect(q.stdout == "1\n")
        let bad = try CLI.run(["import", file, "-"], stdin: #"[{"id": 5}]"#)
        expectFailure(bad, contains: "--class")
    }

    @Test func linksToClassesWithoutPrimaryKeyRoundTrip() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let data =
            #"{"Note": [{"text": "a", "next": {"$ref": "Note", "$index": 1}}, {"text": "b", "dog": 4}], "Dog": [{"id": 4}]}"#
        let r = try CLI.run(["import", file, "-"], stdin: data)
        #expect(r.status == 0, "\(r.stderr)")
        let q = try CLI.run(["query", file, "Note", "next.text == 'b' AND next.dog.id == 4", "--format", "count"])
        #expect(q.stdout == "1\n", "\(q.stderr)")
        let exported = try CLI.run(["export", file])
        #expect(exported.stdout.contains(#""next":{"$ref":"Note","$index":1}"#), "\(exported.stdout)")
        let copy = try empty(scratch, "copy.realm")
        let back = try CLI.run(["import", copy, "-"], stdin: exported.stdout)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try CLI.run(["export", copy]).stdout == exported.stdout)
    }

    /// A link to an object whose optional primary key is nil: export names it by position
    /// (`{"$ref": "Person", "$index": 1}`; `null` would read as no link), and import links the
    /// same object again, for the whole file and class by class.
    @Test func linksToAnObjectWithANilPrimaryKeyRoundTrip() throws {
        let scratch = try Scratch()
        let schema = try scratch.write(
            "nil-pk.json",
            """
            [{"name": "Person", "primaryKey": "id", "properties": {"id": "int?", "name": "string"}},
             {"name": "Dog", "properties": {"name": "string", "owner": "Person?", "friends": "Person[]"}}]
            """)
        func create(_ name: String) throws -> String { try scratch.createRealm(name, schema: schema) }
        let source = try create("source.realm")
        let data =
            #"{"Person": [{"id": 1, "name": "one"}, {"id": null, "name": "nobody"}], "#
            + #""Dog": [{"name": "Rex", "owner": {"$ref": "Person", "$index": 1}, "friends": [{"$ref": "Person", "$index": 1}, 1]}]}"#
        let r = try CLI.run(["import", source, "-"], stdin: data)
        try #require(r.status == 0, "\(r.stderr)")
        let exported = try CLI.run(["export", source])
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains(#""owner":{"$ref":"Person","$index":1}"#), "\(exported.stdout)")
        func expectLinks(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            for query in [
                "owner.name == 'nobody' AND owner.id == nil",
                "friends.@count == 2 AND ANY friends.name == 'nobody' AND ANY friends.id == 1",
            ] {
                let q = try CLI.run(["query", file, "Dog", query, "--format", "count"])
                #expect(q.stdout == "1\n", "\(query): \(q.stdout) \(q.stderr)", sourceLocation: sourceLocation)
            }
        }
        try expectLinks(source)
        let whole = try create("whole.realm")
        let imported = try CLI.run(["import", whole, "-"], stdin: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        try expectLinks(whole)
        #expect(try CLI.run(["export", whole]).stdout == exported.stdout)
        let perClass = try create("per-class.realm")
        for className in ["Person", "Dog"] {
            let part = try CLI.run(["export", source, "--class", className])
            try #require(part.status == 0, "\(part.stderr)")
            let back = try CLI.run(["import", perClass, "-", "--class", className], stdin: part.stdout)
            #expect(back.status == 0, "\(className): \(back.stderr)")
        }
        try expectLinks(perClass)
        #expect(try CLI.run(["export", perClass]).stdout == exported.stdout)
    }
}
