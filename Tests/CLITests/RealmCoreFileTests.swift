import Foundation
import Testing

/// The command line on Realm's own files (written by Realm Core, format 24): every reading
/// command works through a converted copy (the writing ones: `RealmCoreEditCommandTests`), `copy` converts
/// (refusing to lose what it cannot hold unless asked), and the file and its folder are never
/// changed.
@Suite(.tags(.multiProcess)) struct RealmCoreFileTests {
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RealmCoreFormatTests/Fixtures/\(name)")
    }

    /// A scratch copy of a fixture, and the folder's listing and the file's bytes to compare.
    static func copy(_ name: String, into scratch: Scratch) throws -> (path: String, bytes: Data, listing: [String]) {
        let path = scratch.path(name)
        try FileManager.default.copyItem(atPath: fixture(name).path, toPath: path)
        return (
            path, try Data(contentsOf: URL(fileURLWithPath: path)),
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        )
    }

    @Test func readingCommandsWorkAndNothingChanges() throws {
        let scratch = try Scratch()
        let (path, bytes, listing) = try Self.copy("generated-dogs.realm", into: scratch)
        let schema = try CLI.run(["schema", path])
        #expect(schema.status == 0, "\(schema.stderr)")
        // Editable by the write commands (no app holds its lock), not "read-only".
        #expect(
            schema.stdout.contains(
                "a Realm file (format 24), version 2, schema version 0; "
                    + "editable by the write commands while no Realm app holds its lock"), "\(schema.stdout)")
        #expect(!schema.stdout.contains("read-only"), "\(schema.stdout)")
        #expect(schema.stdout.contains("Person (250 objects), primary key _id"))
        // The summary is a line of its own (it was joined with a newline shown as ␊).
        #expect(
            schema.stdout.split(separator: "\n").contains("Realm file, format 24, written by Realm Core 14 or later"),
            "\(schema.stdout)")
        #expect(!schema.stdout.contains("␊"))
        let count = try CLI.run(["query", path, "Dog", "age > 5", "--format", "count"])
        #expect(count.status == 0, "\(count.stderr)")
        #expect(Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 > 0)
        let json = try CLI.run(["query", path, "Person", "_id == 3", "--format", "json"])
        #expect(json.stdout.contains("\"_id\": 3") || json.stdout.contains("\"_id\":3"), "\(json.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == listing)
    }

    /// An encrypted Realm file (a Realm app's `encryptionKey`): read with its key by every
    /// reading command; without it, or with a wrong one, a clear error; never written by them.
    @Test func anEncryptedRealmFileIsReadWithItsKey() throws {
        let scratch = try Scratch()
        let (path, bytes, listing) = try Self.copy("generated-encrypted.realm", into: scratch)
        let key = Self.fixture("generated-encrypted.key").path
        let schema = try CLI.run(["schema", path, "--key-file", key])
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout.contains("Dog (750 objects)"), "\(schema.stdout)")
        let count = try CLI.run(["query", path, "Person", "TRUEPREDICATE", "--format", "count", "--key-file", key])
        #expect(
            count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "250", "\(count.stdout) \(count.stderr)")
        let check = try CLI.run(["check", path, "--key-file", key])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("1000 objects in 2 classes, every one read"), "\(check.stdout)")

        let withoutKey = try CLI.run(["schema", path])
        #expect(withoutKey.status == 1)
        // Its first IV table has Realm's layout, so it is said to be encrypted, not "maybe".
        #expect(
            withoutKey.stderr.contains("the file is encrypted: give its key with --key HEX or --key-file PATH"),
            "\(withoutKey.stderr)")
        var wrong = try Data(contentsOf: URL(fileURLWithPath: key))
        wrong[100] = wrong[100] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")  // the HMAC half
        let wrongKey = scratch.path("wrong.key")
        try wrong.write(to: URL(fileURLWithPath: wrongKey))
        let refused = try CLI.run(["query", path, "Dog", "--key-file", wrongKey])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("wrong key"), "\(refused.stderr)")
        let plainWithKey = try CLI.run(["schema", Self.fixture("generated-dogs.realm").path, "--key-file", key])
        #expect(plainWithKey.stderr.contains("not encrypted"), "\(plainWithKey.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == (listing + ["wrong.key"]).sorted())
    }

    /// Whole 4 KiB pages without a header and without an IV table's layout (random bytes) may be
    /// anything: the message says both, and the explorer does not ask for a key.
    @Test func pagesOfRandomBytesAreNotSaidToBeEncrypted() throws {
        let scratch = try Scratch()
        var generator = SystemRandomNumberGenerator()
        let path = try scratch.write("noise.realm", "")
        try Data((0..<(3 * 4096)).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
            to: URL(fileURLWithPath: path))
        let schema = try CLI.run(["schema", path])
        #expect(schema.status == 1)
        #expect(
            schema.stderr.contains("an encrypted Realm file (give its 64-byte key")
                && schema.stderr.contains("or not a database"),
            "\(schema.stderr)")
    }

    /// The explorer asks for the key of an encrypted Realm file, as for realmtui's own.
    @Test(
        .tags(.tmux),
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func theExplorerAsksForTheKeyOfAnEncryptedRealmFile() throws {
        let scratch = try Scratch()
        let (path, bytes, _) = try Self.copy("generated-encrypted.realm", into: scratch)
        let key = try String(contentsOf: Self.fixture("generated-encrypted.key"), encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let tmux = try TmuxSession(script: ExplorerEntryTests.script([path]), width: 120, height: 30)
        defer { tmux.close() }
        _ = try tmux.waitFor("is encrypted. Key")
        try tmux.type(key)
        try tmux.sendKeys("Enter")
        let screen = try tmux.waitFor("a Realm file (format")
        #expect(screen.contains("Dog") && screen.contains("750"), "\(screen)")
        #expect(!screen.contains(key), "the key was echoed")
        try tmux.sendKeys("q")
        _ = try tmux.waitFor("script done")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// A realmtui file whose sector 0 was zeroed has no header there, like an encrypted Realm
    /// file: it must still reach the engine, which opens it from slot 1's sector, and never be
    /// taken for an encrypted Realm file.
    @Test func aRealmtuiFileWithoutSectorZeroIsNotTakenForAnEncryptedRealmFile() throws {
        let scratch = try Scratch()
        let path = try scratch.database()
        for _ in 0..<2 {
            _ = try CLI.run(["import", path, scratch.write("more.json", #"{"Dog": [{"name": "Rex"}]}"#)])
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(0..<512, with: Data(count: 512))
        // Whole 4 KiB pages, as an encrypted Realm file has (the space past the logical end is free).
        bytes.append(Data(count: (4096 - bytes.count % 4096) % 4096))
        try bytes.write(to: URL(fileURLWithPath: path))
        let schema = try CLI.run(["schema", path])
        #expect(!schema.stderr.contains("encrypted Realm file"), "\(schema.stderr)")
        #expect(schema.status == 0, "\(schema.stderr)")
    }

    /// `export` streams a Realm file (one cluster leaf at a time, never the whole file in
    /// memory) and writes exactly what the converted file gives (`query --format json` goes
    /// through the conversion): links by primary key or position, every value.
    @Test(arguments: ["generated-dogs.realm", "generated-alltypes.realm", "realm-studio_asset_file.realm"])
    func exportStreamsTheSameTextAsTheConversion(name: String) throws {
        let path = Self.fixture(name).path
        let schema = try CLI.run(["schema", path, "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [String: Any])
        let classes = try #require(document["schema"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(!classes.isEmpty)
        // Embedded objects are written inside their parents: alltypes' Embedded and EmbeddedChild
        // are not exported as classes of their own, and AllTypes holds them nested.
        let embedded: Set<String> = name == "generated-alltypes.realm" ? ["Embedded", "EmbeddedChild"] : []
        for className in classes {
            let streamed = try CLI.run(["export", path, "--class", className])
            if embedded.contains(className) {
                #expect(
                    streamed.status == 1 && streamed.stderr.contains("\(className) is embedded"), "\(streamed.stderr)")
                continue
            }
            #expect(streamed.status == 0 && streamed.stderr.isEmpty, "\(streamed.stderr)")
            let converted = try CLI.run(["query", path, className, "--format", "json"])
            if className == "AllTypes", !embedded.isEmpty {
                let objects = try #require(
                    try JSONSerialization.jsonObject(with: Data(streamed.stdout.utf8)) as? [[String: Any]])
                #expect(objects.count == 5 && objects.contains { $0["embeddedObj"] is [String: Any] })
                #expect(objects.contains { ($0["embeddedList"] as? [[String: Any]])?.isEmpty == false })
            }
            #expect(streamed.stdout == converted.stdout, "\(name) \(className)")
        }
        let whole = try CLI.run(["export", path])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: [Any]])
        #expect(Set(parsed.keys) == Set(classes).subtracting(embedded))
    }

    @Test func checkReadsEveryObject() throws {
        let scratch = try Scratch()
        let (path, bytes, listing) = try Self.copy("generated-alltypes.realm", into: scratch)
        let check = try CLI.run(["check", path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout.contains("a Realm file (format 24), version 2, 325 objects in 5 classes, every one read"),
            "\(check.stdout)")
        #expect(check.stdout.contains("  Embedded: 11"))
        // A damaged Realm file: check names the problem (cut in the middle of its nodes).
        let cut = scratch.path("cut.realm")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let damaged = try CLI.run(["check", cut])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.hasPrefix("error: "), "\(damaged.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == (listing + ["cut.realm"]).sorted())
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
        // While the app holds the lock, the write commands refuse the file: schema says so.
        #expect(
            schema.stdout.contains("; read-only while a Realm app holds its lock (generated-dogs.realm.lock)"),
            "\(schema.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try String(contentsOfFile: lockPath, encoding: .utf8) == "the app's own lock")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == listing)
    }

    /// alltypes holds every type Realm has, embedded objects included: copy converts it whole.
    /// (Which omissions make copy refuse without --leave-out-unsupported: RealmCoreEmbeddedCLITests.)
    @Test func copyConvertsOnlyWhatItCanHoldUnlessAsked() throws {
        let scratch = try Scratch()
        let (path, bytes, _) = try Self.copy("generated-alltypes.realm", into: scratch)
        let copied = try CLI.run(["copy", path, scratch.path("out.realm")])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(!copied.stderr.contains("not shown"), "\(copied.stderr)")
        let check = try CLI.run(["check", scratch.path("out.realm")])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("AllTypes: 5"), "\(check.stdout)")
        #expect(check.stdout.contains("Embedded: 11") && check.stdout.contains("EmbeddedChild: 5"), "\(check.stdout)")
        // The copy is ours to edit.
        let update = try CLI.run(["update", scratch.path("out.realm"), "AllTypes", "_id == 1", "--set", "intCol=7"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
