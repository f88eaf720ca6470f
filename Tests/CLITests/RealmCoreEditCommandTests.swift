import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// The writing commands on a Realm file (Realm Core's format): `update`, `delete`, `import` and
/// `migrate` read it, change the converted Realm and commit: new values of existing objects in
/// place (copy-on-write, as Realm Core commits), anything else by writing the whole file anew in
/// format 24 beside it, renamed over it — proved by Realm Core itself (`realm-core-tool verify`,
/// `write-test`, `query`, `dump`). Refused, changing nothing: while a Realm process holds the
/// lock file, an older format without `--upgrade-format`; a failed write leaves the original.
@Suite(.tags(.multiProcess)) struct RealmCoreEditCommandTests {
    static let needsTool = "needs ../shared/realm-core/tools/realm-core-tool"

    /// `realm-core-tool ARGS…`.
    static func tool(_ arguments: [String]) throws -> CLI.Result {
        let tool = try #require(RealmCoreWriteCommandTests.tool)
        return try CLI.run([], executable: tool.path, arguments: arguments)
    }

    /// Realm Core verifies the file and writes to it (creates, modifies, deletes, looks every
    /// object up by primary key).
    static func expectSound(_ path: String, key: String? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        for command in ["verify", "write-test"] {
            let result = try tool([command, path] + (key.map { ["--key", $0] } ?? []))
            #expect(
                result.status == 0 && result.stdout.contains("\"result\": \"ok\""),
                "realm-core-tool \(command): \(result.stdout.suffix(400)) \(result.stderr)",
                sourceLocation: sourceLocation)
        }
    }

    /// What Realm Core counts for `query` on `className`.
    static func count(_ path: String, _ className: String, _ query: String, key: String? = nil) throws -> Int? {
        let result = try tool(["query", path, className, query] + (key.map { ["--key", $0] } ?? []))
        guard result.status == 0, let json = parseJSON(result.stdout) as? [String: Any] else {
            Issue.record("realm-core-tool query \(className) \(query): \(result.stderr)")
            return nil
        }
        return json["count"] as? Int
    }

    /// The `info` fields `file_format_version` and `schema_version`.
    static func formatAndSchemaVersion(_ path: String) throws -> (Int?, Int?) {
        let result = try tool(["info", path])
        let json = parseJSON(result.stdout) as? [String: Any]
        return (json?["file_format_version"] as? Int, json?["schema_version"] as? Int)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test(.enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func updateEditsTheFileInPlace() throws {
        let scratch = try Scratch()
        let (path, original, listing) = try RealmCoreFileTests.copy("generated-dogs.realm", into: scratch)
        // A lock file Realm left: its content is Realm's and stays as it is.
        #expect(FileManager.default.createFile(atPath: path + ".lock", contents: Data("Realm's lock file".utf8)))
        let ones = try #require(try Self.count(path, "Dog", "age == 1"))
        #expect(ones > 0)
        let dryRun = try CLI.run(["update", path, "Dog", "age == 1", "--set", "age=42", "--dry-run"])
        #expect(dryRun.stdout == "would update \(ones) objects\n", "\(dryRun.stdout) \(dryRun.stderr)")
        #expect(try Self.bytes(path) == original)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        let update = try CLI.run(["update", path, "Dog", "age == 1", "--set", "age=42", "--set", "color=teal"])
        #expect(update.status == 0, "\(update.stderr)")
        // Committed in place (copy-on-write, as Realm Core commits): the same file, not a new one renamed over it.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
        #expect(update.stdout == "updated \(ones) objects\n", "\(update.stdout)")
        #expect(try Self.count(path, "Dog", "age == 42 AND color == 'teal'") == ones)
        #expect(try Self.count(path, "Dog", "age == 1") == 0)
        #expect(try Self.count(path, "Dog", "TRUEPREDICATE") == 750)
        #expect(try Self.formatAndSchemaVersion(path) == (24, 0))
        try Self.expectSound(path)
        // Nothing left beside it but the lock file, untouched.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == (listing + ["generated-dogs.realm.lock"]).sorted())
        #expect(try String(contentsOfFile: path + ".lock", encoding: .utf8) == "Realm's lock file")
        // realmtui reads its own edit back.
        let again = try CLI.run(["query", path, "Dog", "age == 42", "--format", "count"])
        #expect(again.stdout == "\(ones)\n", "\(again.stdout) \(again.stderr)")
    }

    @Test(.enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func deleteAndImportRewriteTheFile() throws {
        let scratch = try Scratch()
        let (path, _, _) = try RealmCoreFileTests.copy("generated-dogs.realm", into: scratch)
        let deleted = try CLI.run(["delete", path, "Person", "_id == 3"])
        #expect(deleted.stdout == "deleted 1 object\n", "\(deleted.stdout) \(deleted.stderr)")
        #expect(try Self.count(path, "Person", "_id == 3") == 0)
        #expect(try Self.count(path, "Person", "TRUEPREDICATE") == 249)
        try Self.expectSound(path)
        let imported = try CLI.run(
            ["import", path, "-"],
            stdin: #"{"Person": [{"_id": 9999, "name": "Zed", "age": 33}, {"_id": 4, "name": "Renamed"}]}"#)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("1 created, 1 updated"), "\(imported.stdout)")
        #expect(try Self.count(path, "Person", "_id == 9999 AND name == 'Zed' AND age == 33") == 1)
        #expect(try Self.count(path, "Person", "_id == 4 AND name == 'Renamed'") == 1)
        #expect(try Self.count(path, "Person", "TRUEPREDICATE") == 250)
        // write-test looks every object up through the primary-key index: the new one included.
        try Self.expectSound(path)
    }

    @Test(.enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func migrateRewritesTheFileWithTheNewSchemaAndVersion() throws {
        let scratch = try Scratch()
        let (path, original, _) = try RealmCoreFileTests.copy("generated-dogs.realm", into: scratch)
        let schema = try scratch.write(
            "new.json",
            """
            [{"name": "Dog", "properties": {"name": "string", "age": "int", "color": "string?", "nickname": "string?"}}]
            """)
        let notHigher = try CLI.run(["migrate", path, "--schema", schema, "--version", "0"])
        expectFailure(notHigher, contains: "must be higher than the file's (0)")
        #expect(try Self.bytes(path) == original)
        let migrated = try CLI.run(["migrate", path, "--schema", schema, "--version", "3"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try Self.formatAndSchemaVersion(path) == (24, 3))
        let dump = try Self.tool(["dump", path])
        #expect(dump.stdout.contains("\"name\": \"nickname\""), "\(dump.stdout.prefix(600))")
        #expect(try Self.count(path, "Dog", "nickname == nil") == 750)
        #expect(try Self.count(path, "Person", "TRUEPREDICATE") == 250)
        try Self.expectSound(path)
    }

    /// A Realm app holds the lock file (a shared flock, as every Realm process does): every
    /// writing command is refused, naming the file, and nothing changes.
    @Test func aFileARealmAppHasOpenIsNotWritten() throws {
        let scratch = try Scratch()
        let (path, original, _) = try RealmCoreFileTests.copy("generated-dogs.realm", into: scratch)
        let lockPath = path + ".lock"
        #expect(FileManager.default.createFile(atPath: lockPath, contents: Data("the app's own lock".utf8)))
        let lock = open(lockPath, O_RDONLY)
        try #require(lock >= 0)
        defer { close(lock) }
        try #require(flock(lock, LOCK_SH) == 0)
        let schema = try scratch.write("s.json", #"[{"name": "Dog", "properties": {"name": "string", "age": "int"}}]"#)
        let listing = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        for arguments in [
            ["update", path, "Dog", "age == 1", "--set", "age=2"], ["delete", path, "Dog", "--all"],
            ["import", path, "-"], ["migrate", path, "--schema", schema, "--version", "9"],
        ] {
            let refused = try CLI.run(arguments, stdin: #"{"Dog": [{"name": "Rex", "age": 1}]}"#)
            expectFailure(refused, contains: "generated-dogs.realm is open in a Realm process")
            #expect(refused.stderr.contains("close the app and try again"), "\(refused.stderr)")
        }
        #expect(try Self.bytes(path) == original)
        #expect(try String(contentsOfFile: lockPath, encoding: .utf8) == "the app's own lock")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == listing)
        // Once the app lets go, the same command writes.
        flock(lock, LOCK_UN)
        let written = try CLI.run(["update", path, "Dog", "age == 1", "--set", "age=2"])
        #expect(written.status == 0, "\(written.stderr)")
    }

    /// Format 20 (Realm Core 10): written back as 24 only with --upgrade-format; the schema
    /// version (5) and the embedded objects stay.
    @Test(.enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func anOlderFormatIsWrittenOnlyWithUpgradeFormat() throws {
        let scratch = try Scratch()
        let (path, original, _) = try RealmCoreFileTests.copy("realm-swift_migration_default-v5.realm", into: scratch)
        // schema says what the write commands will do with it.
        let schema = try CLI.run(["schema", path])
        #expect(
            schema.stdout.contains(
                "; read-only for the write commands unless given --upgrade-format (they write format 24)"),
            "\(schema.stdout)")
        let refused = try CLI.run(["update", path, "Person", "TRUEPREDICATE", "--set", "fullName=Zoë"])
        expectFailure(refused, contains: "--upgrade-format")
        #expect(
            refused.stderr.contains("format 20") && refused.stderr.contains("an app on an older Realm SDK"),
            "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix(" [unsupported-format]\n"), "\(refused.stderr)")
        #expect(try Self.bytes(path) == original)
        let upgraded = try CLI.run([
            "update", path, "Person", "TRUEPREDICATE", "--set", "fullName=Zoë", "--upgrade-format",
        ])
        #expect(upgraded.stdout == "updated 3 objects\n", "\(upgraded.stdout) \(upgraded.stderr)")
        #expect(try Self.formatAndSchemaVersion(path) == (24, 5))
        #expect(try Self.count(path, "Person", "fullName == 'Zoë'") == 3)
        #expect(try Self.count(path, "Person", "address.city != nil") == 1)
        try Self.expectSound(path)
    }

    /// An encrypted Realm file edited with its key stays encrypted with that key.
    @Test(.enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func anEncryptedFileIsWrittenBackWithItsKey() throws {
        let scratch = try Scratch()
        let (path, original, _) = try RealmCoreFileTests.copy("generated-encrypted.realm", into: scratch)
        let keyFile = RealmCoreFileTests.fixture("generated-encrypted.key").path
        let key = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let withoutKey = try CLI.run(["update", path, "Dog", "age == 1", "--set", "age=77"])
        expectFailure(withoutKey, contains: "--key")
        #expect(try Self.bytes(path) == original)
        let ones = try #require(try Self.count(path, "Dog", "age == 1", key: key))
        let update = try CLI.run(["update", path, "Dog", "age == 1", "--set", "age=77", "--key-file", keyFile])
        #expect(update.stdout == "updated \(ones) objects\n", "\(update.stdout) \(update.stderr)")
        #expect(try Self.count(path, "Dog", "age == 77", key: key) == ones)
        try Self.expectSound(path, key: key)
        let plain = try Self.tool(["verify", path])
        #expect(plain.status != 0, "Realm Core opened the edited file without its key")
    }

    /// The writer refuses the edited data (a set of Mixed holding a float 0.1 and a decimal 0.1,
    /// one element to Realm Core): the file and its folder stay as they were.
    @Test func aCommitTheWriterRefusesLeavesTheOriginal() throws {
        let scratch = try Scratch()
        let (path, original, listing) = try RealmCoreFileTests.copy("generated-alltypes.realm", into: scratch)
        let refused = try CLI.run([
            "update", path, "AllTypes", "TRUEPREDICATE", "--set", #"mixedSet=[{"$float": 0.1}, {"$decimal": "0.1"}]"#,
        ])
        expectFailure(refused, contains: "AllTypes.mixedSet")
        #expect(try Self.bytes(path) == original)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == (listing + ["generated-alltypes.realm.lock"]).sorted())
    }

    /// Whether this machine lets a test mount a small tmpfs in a mount namespace of its own
    /// (root, or a user namespace): the way to fill a disk without filling the machine's.
    static let canMountTmpfs: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
            let result = try? CLI.run(
                [], executable: "/usr/bin/unshare",
                arguments: ["-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"])
        else { return false }
        return result.status == 0
    }()

    /// A full disk while the new file is written: the error says so, the original is byte for
    /// byte as it was and the temporary file is removed. (A 100 KiB tmpfs holds the 96 KiB
    /// original, not the 43 KiB new file beside it. A delete, because it rewrites the whole
    /// file; an update of values is committed in place, into the file's free space.)
    @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs in a mount namespace (unshare -m, as root)"))
    func aFullDiskLeavesTheOriginalAndNoTemporaryFile() throws {
        let scratch = try Scratch()
        let disk = scratch.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let fixture = RealmCoreFileTests.fixture("generated-dogs.realm").path
        // Inside the namespace (the mount goes with it): copy, edit, then show the file's
        // checksum and the folder's listing.
        let script = """
            set -e
            mount -t tmpfs -o size=100k tmpfs "$1"
            cat "$2" > "$1/seed.realm"   # every byte stored (cp may leave holes)
            "$3" delete "$1/seed.realm" Dog "age == 1" && echo "status=0" || echo "status=$?"
            echo "sum=$(cksum < "$1/seed.realm")"
            echo "listing=$(ls -A "$1" | tr '\\n' ' ')"
            """
        let result = try CLI.run(
            [], executable: "/usr/bin/unshare",
            arguments: ["-m", "sh", "-c", script, "sh", disk, fixture, CLI.executable.path])
        let expectedSum = try CLI.run([], executable: "/bin/sh", arguments: ["-c", "cksum < \"$0\"", fixture]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.stdout.contains("status=1"), "\(result.stdout) \(result.stderr)")
        #expect(
            result.stderr.contains("error: ") && result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(result.stdout.contains("sum=\(expectedSum)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("listing=seed.realm seed.realm.lock \n"), "\(result.stdout)")
    }
}
