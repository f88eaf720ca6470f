import Foundation
import RealmEngine
import Testing

@Suite("CLI update, delete, copy, compact, check and demo", .tags(.multiProcess))
struct WriteCommandTests {
    @Test func updateSetsPropertiesAndPrintsTheCount() throws {
        let s = try Scratch()
        let db = try s.database()
        let r = try CLI.run(["update", db, "Dog", "name == '小白'", "--set", "age=4", "--set", #"tags=["x","y"]"#])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "updated 1 object\n")
        let dog =
            (parseJSON(try CLI.run(["query", db, "Dog", "age == 4", "--format", "json"]).stdout) as? [[String: Any]])?
            .first
        #expect(dog?["tags"] as? [String] == ["x", "y"])
        let all = try CLI.run(["update", db, "Person", "TRUEPREDICATE", "--set", "age=null", "--set", #"name="某人""#])
        #expect(all.stdout == "updated 2 objects\n")
        #expect(
            try CLI.run(["query", db, "Person", "age == nil AND name == '某人'", "--format", "count"]).stdout == "2\n")
        let args = try CLI.run(["update", db, "Person", "id == $0", "--arg", "2", "--set", "age=7"])
        #expect(args.stdout == "updated 1 object\n")
    }

    @Test func updateFailuresLeaveTheFileUnchanged() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            expectFailure(
                try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", #"age="old""#]), contains: "Dog.age")
            expectFailure(
                try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", "age=old"]), contains: "Dog.age expects int"
            )
            expectFailure(try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", "weight=1"]), contains: "weight")
            expectFailure(try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", "age"]), contains: "prop=VALUE")
            expectFailure(
                try CLI.run(["update", db, "Person", "TRUEPREDICATE", "--set", "name=null"]), contains: "required")
            expectFailure(
                try CLI.run(["update", db, "Person", "TRUEPREDICATE", "--set", "id=9"]), contains: "primary key")
            expectFailure(try CLI.run(["update", db, "Cat", "TRUEPREDICATE", "--set", "age=1"]), contains: "Cat")
            expectFailure(try CLI.run(["update", db, "Dog", "age <", "--set", "age=1"]), contains: "column")
            expectFailure(try CLI.run(["update", db, "Dog", "TRUEPREDICATE"]), status: 64, contains: "--set")
            let dry = try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", "age=1", "--dry-run"])
            #expect(dry.stdout == "would update 2 objects\n")
        }
    }

    @Test func deleteByPredicateAndAll() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            #expect(try CLI.run(["delete", db, "Dog", "--all", "--dry-run"]).stdout == "would delete 2 objects\n")
            expectFailure(try CLI.run(["delete", db, "Cat", "--all"]), contains: "Cat")
            expectFailure(try CLI.run(["delete", db, "Dog", "age <"]), contains: "column")
        }
        let r = try CLI.run(["delete", db, "Dog", "age == 3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "deleted 1 object\n")
        let person =
            (parseJSON(try CLI.run(["query", db, "Person", "id == 2", "--format", "json"]).stdout) as? [[String: Any]])?
            .first
        #expect((person?["dogs"] as? [Any])?.isEmpty == true, "a deleted object leaves every list")
        #expect(try CLI.run(["delete", db, "Person", "--all"]).stdout == "deleted 2 objects\n")
        #expect(try CLI.run(["query", db, "Person", "--format", "count"]).stdout == "0\n")
        #expect(try CLI.run(["check", db]).status == 0)
    }

    @Test func copyWritesAReadableCompactedCopy() throws {
        let s = try Scratch()
        let db = try s.database()
        let r = try CLI.run(["copy", db, s.path("copy.realm")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.run(["export", s.path("copy.realm")]).stdout == (try CLI.run(["export", db]).stdout))
        #expect(try CLI.run(["check", s.path("copy.realm")]).status == 0)
        try expectUnchanged(s.path("copy.realm")) {
            expectFailure(try CLI.run(["copy", db, s.path("copy.realm")]), contains: "exists")
        }
        expectFailure(try CLI.run(["copy", s.path("missing.realm"), s.path("c2.realm")]), contains: "no such file")
        #expect(!s.exists("c2.realm") && !s.exists("missing.realm"))
    }

    @Test func compactPrintsSizesAndKeepsTheData() throws {
        let s = try Scratch()
        let db = try s.database()
        for i in 0..<20 {
            _ = try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", "age=\(i)"])
        }
        let before = try CLI.run(["export", db]).stdout
        let r = try CLI.run(["compact", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("compacted "))
        #expect(r.stdout.contains("bytes"))
        #expect(try CLI.run(["export", db]).stdout == before)
        #expect(try CLI.run(["check", db]).status == 0)
    }

    @Test func compactRefusesWhileAnotherProcessHasTheFileOpen() throws {
        let s = try Scratch()
        let db = try s.database()
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: db), readOnly: true, createIfMissing: false))
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["compact", db]), contains: "open")
        }
        _ = realm
    }

    @Test func checkPassesAGoodFileAndFailsACorruptOne() throws {
        let s = try Scratch()
        let db = try s.database()
        let ok = try CLI.run(["check", db])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.hasPrefix("ok: "))
        #expect(ok.stdout.contains("Person: 2"))
        // Flip bytes all over the file after page 0; the check must name a problem, not crash.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: db)))
        for i in stride(from: 4096 + 17, to: bytes.count, by: 61) { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: db))
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["check", db]))
        }
    }

    @Test func demoIsDeterministic() throws {
        let s = try Scratch()
        let r = try CLI.run(["demo", s.path("a.realm"), "--objects", "40"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("40 books"))
        #expect(try CLI.run(["demo", s.path("b.realm"), "--objects", "40"]).status == 0)
        let a = try CLI.run(["export", s.path("a.realm")]).stdout
        #expect(a == (try CLI.run(["export", s.path("b.realm")]).stdout))
        #expect(a.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "CJK names")
        #expect(try CLI.run(["query", s.path("a.realm"), "Review", "--format", "count"]).stdout == "80\n")
        #expect(
            try CLI.run([
                "query", s.path("a.realm"), "Book", "reviews.@count > 0 AND authors.@count > 0",
                "--format", "count",
            ]).status == 0)
        #expect(try CLI.run(["check", s.path("a.realm")]).status == 0)
        try expectUnchanged(s.path("a.realm")) {
            expectFailure(try CLI.run(["demo", s.path("a.realm")]), contains: "already exists")
        }
        expectFailure(try CLI.run(["demo", s.path("c.realm"), "--objects", "-3"]), status: 64)
        #expect(!s.exists("c.realm"))
    }
}
