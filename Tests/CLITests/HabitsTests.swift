import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// What a new user types: SQL-style sort words, Cocoa's collection operators, typos, `delete`
/// without a predicate, `help` of a missing subcommand.
@Suite(.tags(.multiProcess)) struct HabitsTests {
    @Test func sortTakesAscAndDescWords() throws {
        let s = try Scratch()
        let db = try s.database()
        let words = try CLI.run(["query", db, "Person", "--sort", "id DESC", "--format", "json"])
        let dash = try CLI.run(["query", db, "Person", "--sort", "-id", "--format", "json"])
        #expect(words.status == 0, "\(words.stderr)")
        #expect(words.stdout == dash.stdout)
        #expect((parseJSON(words.stdout) as? [[String: Any]])?.map { $0["id"] as? Int } == [2, 1])
        let two = try CLI.run(["query", db, "Dog", "--sort", "age asc, name DESC", "--format", "count"])
        #expect(two.status == 0, "\(two.stderr)")
        expectFailure(try CLI.run(["query", db, "Person", "--sort", "id DOWN"]), status: 64, contains: "ASC or DESC")
    }

    @Test func cocoaCollectionOperatorsWork() throws {
        let s = try Scratch()
        let db = try s.database()
        let r = try CLI.run(["query", db, "Person", "dogs.@max.age == 3", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect((parseJSON(r.stdout) as? [[String: Any]])?.map { $0["id"] as? Int } == [2])
        for op in ["@min", "@sum", "@avg"] {
            let cocoa = try CLI.run(["query", db, "Person", "dogs.\(op).age >= 1", "--format", "count"])
            let postfix = try CLI.run(["query", db, "Person", "dogs.age.\(op) >= 1", "--format", "count"])
            #expect(cocoa.status == 0 && cocoa.stdout == postfix.stdout, "\(op): \(cocoa.stderr)")
        }
    }

    @Test func typosSuggestTheNearestName() throws {
        let s = try Scratch()
        let db = try s.database()
        expectFailure(try CLI.run(["qeury", db, "Dog"]), status: 64, contains: "did you mean 'query'?")
        expectFailure(try CLI.run(["query", db, "Dgo"]), contains: "did you mean 'Dog'?")
        expectFailure(try CLI.run(["watch", db, "Dgo"]), contains: "did you mean 'Dog'?")
        expectFailure(try CLI.run(["export", db, "--class", "Dgo"]), contains: "did you mean 'Dog'?")
        expectFailure(try CLI.run(["query", db, "Dog", "agee > 1"]), contains: "did you mean 'age'?")
        expectFailure(
            try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", "agee=1"]), contains: "did you mean 'age'?")
        expectFailure(try CLI.run([s.path("missing.realm")]), status: 1, contains: "no such file")
        // A file that exists is the explorer's: a bad option is named as one, not the file as a
        // subcommand.
        let badOption = try CLI.run([db, "--wirte"])
        expectFailure(badOption, status: 64, contains: "--wirte")
        #expect(!badOption.stderr.contains("subcommand"), "\(badOption.stderr)")
        let contradiction = try CLI.run([db, "--read-only", "--write"])
        expectFailure(contradiction, status: 64, contains: "--read-only and --write contradict each other")
        expectFailure(try CLI.run(["help", "nosuch"]), status: 64, contains: "no subcommand 'nosuch'")
        #expect(try CLI.run(["help", "query"]).status == 0)
    }

    @Test func deleteWithoutAPredicateNeedsAll() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["delete", db, "Dog"]), status: 64, contains: "--all")
            expectFailure(try CLI.run(["delete", db, "Dog", "age > 1", "--all"]), status: 64, contains: "not both")
        }
        let r = try CLI.run(["delete", db, "Dog", "--all"])
        #expect(r.stdout == "deleted 2 objects\n", "\(r.stderr)")
    }
}

/// A write command on a file it may not write.
@Suite(.tags(.multiProcess)) struct ReadOnlyFileTests {
    @Test func aWriteCommandDoesNotSuggestReadOnly() throws {
        let s = try Scratch()
        let db = try s.database()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: s.url.path)
        let args = ["update", db, "Dog", "TRUEPREDICATE", "--set", "age=1"]
        let r: CLI.Result
        if getuid() == 0 {
            // root may write any file: run as nobody, for whom the file is read-only.
            r = try CLI.run(
                [], executable: "/usr/bin/setpriv",
                arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.executable.path] + args)
        } else {
            r = try CLI.run(args)
        }
        expectFailure(r, contains: "needs write permission")
        #expect(!r.stderr.contains("--read-only"), "\(r.stderr)")
    }
}
