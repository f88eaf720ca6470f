import Foundation
import Testing

/// The command line on Realm's own files (written by Realm Core, format 24): every reading
/// command works through a converted copy, writing commands are refused, `copy` converts
/// (refusing to lose what it cannot hold unless asked), and the file and its folder are never
/// changed.
@Suite struct RealmCoreFileTests {
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RealmCoreFormatTests/Fixtures/\(name)")
    }

    /// A scratch copy of a fixture, and the folder's listing and the file's bytes to compare.
    static func copy(_ name: String, into scratch: Scratch) throws -> (path: String, bytes: Data, listing: [String]) {
        let path = scratch.path(name)
        try FileManager.default.copyItem(atPath: fixture(name).path, toPath: path)
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)), try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted())
    }

    @Test func readingCommandsWorkAndNothingChanges() throws {
        let scratch = try Scratch()
        let (path, bytes, listing) = try Self.copy("generated-dogs.realm", into: scratch)
        let schema = try CLI.run(["schema", path])
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout.contains("a Realm file (format 24), version 2, schema version 0; read-only"), "\(schema.stdout)")
        #expect(schema.stdout.contains("Person (250 objects), primary key _id"))
        let count = try CLI.run(["query", path, "Dog", "age > 5", "--format", "count"])
        #expect(count.status == 0, "\(count.stderr)")
        #expect(Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 > 0)
        let json = try CLI.run(["query", path, "Person", "_id == 3", "--format", "json"])
        #expect(json.stdout.contains("\"_id\": 3") || json.stdout.contains("\"_id\":3"), "\(json.stdout)")
        let update = try CLI.run(["update", path, "Dog", "age == 1", "--set", "age=2"])
        #expect(update.status == 1)
        #expect(update.stderr.contains("realmtui reads it but never changes it"), "\(update.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == listing)
    }

    @Test func checkReadsEveryObjectAndWatchSaysItCannotFollow() throws {
        let scratch = try Scratch()
        let (path, bytes, listing) = try Self.copy("generated-alltypes.realm", into: scratch)
        let check = try CLI.run(["check", path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("a Realm file (format 24), version 2, 325 objects in 5 classes, every one read"), "\(check.stdout)")
        #expect(check.stdout.contains("  Embedded: 11"))
        let watch = try CLI.run(["watch", path, "AllTypes"])
        #expect(watch.status == 1)
        #expect(watch.stderr.contains("watch does not follow Realm files yet"), "\(watch.stderr)")
        // A damaged Realm file: check names the problem (cut in the middle of its nodes).
        let cut = scratch.path("cut.realm")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let damaged = try CLI.run(["check", cut])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.hasPrefix("error: "), "\(damaged.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == (listing + ["cut.realm"]).sorted())
    }

    @Test func aFileInUseByARealmAppIsReadFromACopy() throws {
        let scratch = try Scratch()
        let (path, bytes, _) = try Self.copy("generated-dogs.realm", into: scratch)
        // A Realm app holds its lock file (a shared flock, as a reader does).
        let lockPath = path + ".lock"
        #expect(FileManager.default.createFile(atPath: lockPath, contents: Data("the app's own lock".utf8)))
        let lock = open(lockPath, O_RDONLY)
        try #require(lock >= 0)
        defer { close(lock) }
        try #require(flock(lock, LOCK_SH) == 0)
        let listing = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        let schema = try CLI.run(["schema", path])
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stderr.contains("is in use by a Realm app: read from a copy taken at"), "\(schema.stderr)")
        #expect(schema.stdout.contains("Person (250 objects)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try String(contentsOfFile: lockPath, encoding: .utf8) == "the app's own lock")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == listing)
    }

    @Test func copyConvertsOnlyWhatItCanHoldUnlessAsked() throws {
        let scratch = try Scratch()
        let (path, bytes, _) = try Self.copy("generated-alltypes.realm", into: scratch)
        let refused = try CLI.run(["copy", path, scratch.path("out.realm")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("AllTypes.mixedCol"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.realm")))
        let copied = try CLI.run(["copy", path, scratch.path("out.realm"), "--leave-out-unsupported"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stderr.contains("not shown, this version cannot hold them yet"))
        let check = try CLI.run(["check", scratch.path("out.realm")])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("AllTypes: 5"), "\(check.stdout)")
        // The copy is ours to edit.
        let update = try CLI.run(["update", scratch.path("out.realm"), "AllTypes", "_id == 1", "--set", "intCol=7"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
