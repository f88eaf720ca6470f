import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Inputs at the edges that were answered wrongly or silently (issue 29, item 11): each is now
/// a clear `error:` (or works), never a misleading message or a value quietly changed.
@Suite("CLI edge inputs", .tags(.multiProcess))
struct EdgeInputTests {
    @Test func aNegativeLimitIsNamedAsSuch() throws {
        let s = try Scratch()
        let db = try s.database()
        // "-1" was read as an option, and the error said the value was missing.
        expectFailure(
            try CLI.run(["query", db, "Dog", "--limit", "-1"]), status: 64,
            contains: "--limit must be 0 or more, got -1")
        expectFailure(
            try CLI.run(["watch", db, "Dog", "--limit", "-1"]), status: 64,
            contains: "--limit must be 0 or more, got -1")
    }

    @Test func theKeyFileMayBeAPipeOrAFIFO() throws {
        let s = try Scratch()
        let key = String(repeating: "0123456789abcdef", count: 8)
        let schema = try s.write("schema.json", Scratch.schemaJSON)
        let file = s.path("enc.realm")
        let created = try CLI.run(["create", file, "--schema", schema, "--key", key])
        try #require(created.status == 0, "\(created.stderr)")
        // A pipe, as the shell's <(…) gives: /dev/stdin is one here.
        let piped = try CLI.run(
            ["query", file, "Dog", "--format", "count", "--key-file", "/dev/stdin"], stdin: key + "\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == "0\n")
        // A FIFO with a writer.
        let fifo = s.path("key.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            _ = Array((key + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let fromFIFO = try CLI.run(["query", file, "Dog", "--format", "count", "--key-file", fifo])
        #expect(fromFIFO.status == 0, "\(fromFIFO.stderr)")
        #expect(fromFIFO.stdout == "0\n")
    }

    @Test func duplicateKeysInAJSONObjectAreAnError() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            let r = try CLI.run(["import", db, "-"], stdin: #"{"Dog": [{"name": "Rex", "age": 1, "age": 2}]}"#)
            expectFailure(r, contains: "property 'age' is given twice")
            // In an object created inline through a link too.
            let nested = try CLI.run(
                ["import", db, "-"],
                stdin: #"{"Person": [{"id": 5, "name": "a", "dogs": [{"name": "x", "name": "y"}]}]}"#)
            expectFailure(nested, contains: "property 'name' is given twice")
            // A class may still have several groups at the top level.
            let groups = try CLI.run(
                ["import", db, "-", "--dry-run"],
                stdin: #"{"Dog": [{"name": "A"}], "Person": [], "Dog": [{"name": "B"}]}"#)
            #expect(groups.status == 0, "\(groups.stderr)")
        }
    }

    @Test func dateFractionsPastNanosecondsAreAnError() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            let r = try CLI.run(
                ["import", db, "-"], stdin: #"{"Dog": [{"name": "Rex", "born": "2020-01-02T03:04:05.1234567891Z"}]}"#)
            expectFailure(r, contains: "2020-01-02T03:04:05.1234567891Z")
            expectFailure(
                try CLI.run(["update", db, "Dog", "TRUEPREDICATE", "--set", "born=2020-01-02T03:04:05.1234567891Z"]))
        }
        // Nine digits are kept, and zeros past them lose nothing.
        let ok = try CLI.run(
            ["import", db, "-"], stdin: #"{"Dog": [{"name": "Nano", "born": "2020-01-02T03:04:05.1234567890Z"}]}"#)
        #expect(ok.status == 0, "\(ok.stderr)")
        let shown = try CLI.run(["query", db, "Dog", "name == 'Nano'", "--format", "json"])
        #expect(shown.stdout.contains("2020-01-02T03:04:05.123456789Z"), "\(shown.stdout)")
    }

    @Test func aCutEncryptedFileIsNotCalledEmpty() throws {
        let s = try Scratch()
        let key = String(repeating: "0123456789abcdef", count: 8)
        let schema = try s.write("schema.json", Scratch.schemaJSON)
        let file = s.path("enc.realm")
        try #require(try CLI.run(["create", file, "--schema", schema, "--key", key]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for length in [100, 3000] {
            let cut = s.path("cut-\(length).realm")
            try bytes.prefix(length).write(to: URL(fileURLWithPath: cut))
            let r = try CLI.run(["query", cut, "Dog", "--key", key])
            expectFailure(r)
            #expect(!r.stderr.contains("empty"), "a \(length)-byte file is not empty: \(r.stderr)")
            #expect(
                r.stderr.contains("\(length) bytes") || r.stderr.contains("truncated")
                    || r.stderr.contains("too short"), "\(r.stderr)")
        }
    }
}
