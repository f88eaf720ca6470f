import Foundation
import Testing

/// Every bad file, given to every command that opens a file: one `error:` line, exit 1, the
/// file byte-for-byte unchanged, nothing created (no database, no lock file left behind).
@Suite("CLI bad files", .tags(.multiProcess))
struct BadFileTests {
    /// Makes each kind of bad file in `s`; returns name → path.
    static func badFiles(_ s: Scratch) throws -> [(String, String)] {
        var files: [(String, String)] = []
        try s.write("empty.realm", "")
        files.append(("empty", s.path("empty.realm")))
        let good = try s.database("good.realm")
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try goodBytes.prefix(3000).write(to: URL(fileURLWithPath: s.path("truncated.realm")))
        files.append(("truncated", s.path("truncated.realm")))
        // Cut inside the data: the header is whole, the nodes it points at are not.
        try goodBytes.prefix(4096 + 100).write(to: URL(fileURLWithPath: s.path("cut.realm")))
        files.append(("cut in the data", s.path("cut.realm")))
        var sqlite = Data("SQLite format 3\0".utf8)
        sqlite.append(Data([0x10, 0x00, 0x01, 0x01]))
        sqlite.append(Data(count: 8192 - sqlite.count))
        try sqlite.write(to: URL(fileURLWithPath: s.path("foreign.realm")))
        files.append(("sqlite", s.path("foreign.realm")))
        var rng = SystemRandomNumberGenerator()
        try Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &rng) }).write(
            to: URL(fileURLWithPath: s.path("random.realm")))
        files.append(("random", s.path("random.realm")))
        try goodBytes.write(to: URL(fileURLWithPath: s.path("newer.realm")))
        try setFormat(of: s.path("newer.realm"), read: 99, write: 99)
        files.append(("newer format", s.path("newer.realm")))
        try FileManager.default.createDirectory(atPath: s.path("folder.realm"), withIntermediateDirectories: false)
        files.append(("directory", s.path("folder.realm")))
        files.append(("missing", s.path("missing.realm")))
        files.append(("too-long name", s.path(String(repeating: "n", count: 300) + ".realm")))
        return files
    }

    static func commands(_ file: String, _ s: Scratch) -> [[String]] {
        [
            ["query", file, "Dog"],
            ["query", file, "Dog", "--format", "count"],
            ["schema", file],
            ["schema", file, "--json"],
            ["export", file],
            ["import", file, s.path("data.json")],
            ["update", file, "Dog", "TRUEPREDICATE", "--set", "age=1"],
            ["delete", file, "Dog", "--all"],
            ["check", file],
            ["compact", file],
            ["copy", file, s.path("copy.realm")],
        ]
    }

    @Test func everyCommandRefusesEveryBadFile() throws {
        let s = try Scratch()
        try s.write("data.json", #"{"Dog": [{"name": "Rex"}]}"#)
        for (kind, file) in try BadFileTests.badFiles(s) {
            for args in BadFileTests.commands(file, s) {
                let existed = FileManager.default.fileExists(atPath: file)
                try expectUnchanged(file) {
                    let r = try CLI.run(args)
                    expectFailure(r)
                    #expect(r.stdout.isEmpty, "\(kind) \(args[0]): \(r.stdout)")
                    #expect(r.stderr.utf8.count < 400, "\(kind) \(args[0]): a short message")
                }
                #expect(FileManager.default.fileExists(atPath: file) == existed, "\(kind) \(args[0]) created the file")
                if kind != "directory" {
                    #expect(
                        !FileManager.default.fileExists(atPath: file + ".lock"), "\(kind) \(args[0]) left a lock file")
                }
                #expect(!s.exists("copy.realm"), "\(kind) \(args[0]) left a copy")
            }
        }
    }

    @Test func messagesSayWhatIsWrong() throws {
        let s = try Scratch()
        let expected = [
            "empty": "empty", "truncated": "too short", "sqlite": "SQLite", "random": "no realmtui or Realm header",
            "newer format": "newer", "directory": "directory", "missing": "no such file", "too-long name": "too long",
        ]
        for (kind, file) in try BadFileTests.badFiles(s) {
            guard let text = expected[kind] else { continue }
            expectFailure(try CLI.run(["query", file, "Dog"]), contains: text)
        }
    }

    @Test func aNewerWriteFormatOpensReadOnly() throws {
        let s = try Scratch()
        let db = try s.database()
        try setFormat(of: db, read: nil, write: 99)
        let q = try CLI.run(["query", db, "Dog", "--format", "count"])
        #expect(q.status == 0, "\(q.stderr)")
        #expect(q.stdout == "2\n")
        try expectUnchanged(db) {
            expectFailure(try CLI.run(["import", db, "-"], stdin: #"{"Dog": [{"name": "Rex"}]}"#))
        }
    }
}

/// A `.realm` file written by Realm itself (Realm Core's "T-DB" header) is read as one: with no
/// top ref it is an empty Realm file, and a top ref past its end is a damaged one (an error
/// naming the offset), never an unknown signature.
@Suite(.tags(.multiProcess)) struct RealmCoreHeaderTests {
    static func header(topRef: UInt64) -> Data {
        // Realm Core's 24-byte header: two top refs, "T-DB", file formats 0 and 24, flags 1
        // (the second slot is the current one).
        var header = Data(count: 8)
        withUnsafeBytes(of: topRef.littleEndian) { header.append(contentsOf: $0) }
        header.append(Data("T-DB".utf8))
        header.append(Data([0x00, 0x18, 0x00, 0x01]))
        header.append(Data(count: 4096 - header.count))
        return header
    }

    @Test func aRealmFileWithNoTopRefIsAnEmptyRealmFile() throws {
        let s = try Scratch()
        let file = s.path("app.realm")
        try Self.header(topRef: 0).write(to: URL(fileURLWithPath: file))
        let result = try CLI.run(["schema", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("a Realm file (format 24)"), "\(result.stdout)")
    }

    @Test func aTopRefPastTheEndIsADamagedRealmFile() throws {
        let s = try Scratch()
        let file = s.path("app.realm")
        try Self.header(topRef: 1 << 20).write(to: URL(fileURLWithPath: file))
        let result = try CLI.run(["schema", file])
        expectFailure(result, contains: "1048576")
        #expect(result.stderr.hasSuffix("[corrupt-file]\n"), "\(result.stderr)")
    }
}
