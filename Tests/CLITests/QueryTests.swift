import Foundation
import RealmEngine
import RealmTUI
import Testing

@Suite("CLI query, export and schema", .tags(.multiProcess))
struct QueryTests {
    @Test func jsonHasEveryStoredPropertyWithLinksDatesAndLists() throws {
        let s = try Scratch()
        let db = try s.database()
        let people =
            parseJSON(
                try CLI.run(["query", db, "Person", "TRUEPREDICATE", "--sort", "-id", "--format", "json"]).stdout)
            as? [[String: Any]]
        #expect(people?.map { $0["id"] as? Int } == [2, 1])
        #expect(Set(people?.first?.keys.map { $0 } ?? []) == ["id", "name", "age", "dogs"])
        // Dogs have no primary key: links are {"$ref": "Dog", "$index": position}.
        let dogLink = (people?.last?["dogs"] as? [[String: Any]])?.first
        #expect(dogLink?["$ref"] as? String == "Dog")
        #expect(dogLink?["$index"] as? Int == 0)
        let dogs =
            parseJSON(try CLI.run(["query", db, "Dog", "age < 2", "--format", "json"]).stdout) as? [[String: Any]]
        #expect(dogs?.first?["born"] as? String == "2020-01-02T03:04:05.25Z")
        #expect(dogs?.first?["tags"] as? [String] == ["a", "b"])
        #expect(dogs?.first?["owners"] == nil, "linking objects are computed, not stored")
    }

    @Test func countSortDistinctLimitAndArguments() throws {
        let s = try Scratch()
        let db = try s.database()
        try s.write(
            "more.json", #"{"Dog": [{"name": "A", "age": 3}, {"name": "B", "age": 3}, {"name": "C", "age": 9}]}"#)
        #expect(try CLI.run(["import", db, s.path("more.json")]).status == 0)
        #expect(try CLI.run(["query", db, "Dog", "ANY owners.name == '李四'", "--format", "count"]).stdout == "1\n")
        #expect(try CLI.run(["query", db, "Dog", "age == $0", "--arg", "3", "--format", "count"]).stdout == "3\n")
        #expect(
            try CLI.run(["query", db, "Dog", "name IN $0", "--arg", #"["A","C"]"#, "--format", "count"]).stdout == "2\n"
        )
        #expect(
            try CLI.run([
                "query", db, "Dog", "age > $0 AND name == $1", "--arg", "-1", "--arg", #""C""#,
                "--format", "count",
            ]).stdout == "1\n")
        #expect(try CLI.run(["query", db, "Dog", "--distinct", "age", "--format", "count"]).stdout == "3\n")
        #expect(try CLI.run(["query", db, "Dog", "--limit", "2", "--format", "count"]).stdout == "2\n")
        let sorted =
            parseJSON(
                try CLI.run(["query", db, "Dog", "age != nil", "--sort", "-age,name", "--format", "json"]).stdout)
            as? [[String: Any]]
        #expect(sorted?.map { $0["name"] as? String } == ["C", "A", "B", "小白", "大黄"])
        #expect(
            try CLI.run(["query", db, "Dog", "TRUEPREDICATE SORT(age DESC) LIMIT(1)", "--format", "csv"]).stdout
                == "name,age,born,tags\r\nC,9,,[]\r\n")
    }

    @Test func tableFitsTheWidthAndCountsCJKAsTwoColumns() throws {
        let s = try Scratch()
        let db = try s.database()
        try s.write("long.json", #"{"Person": [{"id": 3, "name": "\#(String(repeating: "长名字", count: 40))"}]}"#)
        #expect(try CLI.run(["import", db, s.path("long.json")]).status == 0)
        for width in [40, 80, 120] {
            let r = try CLI.run(["query", db, "Person", "--sort", "id"], environment: ["COLUMNS": String(width)])
            #expect(r.status == 0, "\(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("id") == true)
            #expect(lines.last == "(3 objects)")
            for line in lines { #expect(displayWidth(line) <= width, "\(line)") }
            #expect(lines.contains { $0.contains("张三") })
        }
        let wide = try CLI.run(["query", db, "Person"])
        for line in wide.stdout.split(separator: "\n") { #expect(displayWidth(String(line)) <= 120) }
    }

    @Test func queryErrors() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["query", db, "Dog", "age <"]), contains: "column")
            expectFailure(try CLI.run(["query", db, "Cat"]), contains: "no class named 'Cat'")
            expectFailure(try CLI.run(["query", db, "Dog", "weight > 1"]))
            expectFailure(try CLI.run(["query", db, "Dog", "age > $0"]))
            expectFailure(try CLI.run(["query", db, "Dog", "age > $0", "--arg", "old"]), contains: "cannot compare")
            expectFailure(try CLI.run(["query", db, "Dog", "--sort", "weight"]))
            expectFailure(try CLI.run(["query", db, "Dog", "--limit", "-1"]), status: 64)
            expectFailure(try CLI.run(["query", db, "Dog", "--format", "xml"]), status: 64)
            expectFailure(try CLI.run(["query", db]), status: 64)
            expectFailure(try CLI.run(["query", db, "Dog", "--sort", ","]), status: 64)
        }
    }

    /// A sort or distinct key that is a link or list is an error, also when one object matches
    /// (before, a single object was printed unsorted, as if the sort had been fine).
    @Test func sortingByALinkOrListFailsWhateverTheCount() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            for predicate in ["TRUEPREDICATE", "id == 1", "id == 9"] {
                expectFailure(
                    try CLI.run(["query", db, "Person", predicate, "--sort", "dogs"]), contains: "cannot sort by 'dogs'"
                )
                expectFailure(
                    try CLI.run(["query", db, "Person", predicate, "--distinct", "dogs", "--format", "count"]),
                    contains: "cannot find distinct values by 'dogs'")
            }
            expectFailure(
                try CLI.run(["query", db, "Dog", "name == '大黄'", "--sort", "owners"]),
                contains: "cannot sort by 'owners'")
        }
    }

    @Test func exportJSONRoundTripsThroughImport() throws {
        let s = try Scratch()
        let db = try s.database()
        let export = try CLI.run(["export", db])
        #expect(export.status == 0, "\(export.stderr)")
        let document = parseJSON(export.stdout) as? [String: [Any]]
        #expect(document?["Person"]?.count == 2)
        #expect(document?["Dog"]?.count == 2)
        // Round-trip the Dog class (no links) into a copy of the schema, wrapped as a whole file.
        // JSONParser keeps member order (JSONSerialization does not, and order is the schema's).
        let schema = try JSONParser.parse(try CLI.run(["schema", db, "--json"]).stdout)
        try s.write("schema2.json", try #require(schema.member("schema")).jsonText())
        #expect(try CLI.run(["create", s.path("copy.realm"), "--schema", s.path("schema2.json")]).status == 0)
        let dogs = try CLI.run(["export", db, "--class", "Dog"])
        try s.write("dogs.json", #"{"Dog": "# + dogs.stdout + "}")
        let r = try CLI.run(["import", s.path("copy.realm"), s.path("dogs.json")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.run(["export", s.path("copy.realm"), "--class", "Dog"]).stdout == dogs.stdout)
    }

    @Test func exportCSVNeedsAClass() throws {
        let s = try Scratch()
        let db = try s.database()
        let csv = try CLI.run(["export", db, "--class", "Person", "--format", "csv"])
        #expect(csv.stdout.hasPrefix("id,name,age,dogs\r\n1,张三,30,"))
        expectFailure(try CLI.run(["export", db, "--format", "csv"]), status: 64, contains: "--class")
        expectFailure(try CLI.run(["export", db, "--class", "Cat"]), contains: "Cat")
    }

    @Test func schemaTextAndJSON() throws {
        let s = try Scratch()
        let db = try s.database()
        let text = try CLI.run(["schema", db])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Person (2 objects), primary key id"))
        #expect(text.stdout.contains("indexed"))
        #expect(text.stdout.contains("format 3 (read) / 3 (write)"))
        let json = parseJSON(try CLI.run(["schema", db, "--json"]).stdout) as? [String: Any]
        #expect((json?["counts"] as? [String: Int]) == ["Person": 2, "Dog": 2])
        #expect((json?["schema"] as? [Any])?.count == 2)
        #expect(json?["readFormat"] as? Int == 3)  // read format 3: node checksums bound to their place
        #expect(json?["writeFormat"] as? Int == 3)  // write format 3: the chunked change log
        #expect(json?["schemaVersion"] as? Int == 0)
        #expect((json?["fileSize"] as? Int ?? 0) > 4096)
        #expect((json?["version"] as? Int ?? 0) >= 2)
    }
}
