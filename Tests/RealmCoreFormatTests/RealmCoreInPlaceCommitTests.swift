import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// The in-place (copy-on-write) commit of an edit session: new values of existing objects are
/// written into the Realm file as Realm Core commits (changed nodes, free lists, top, header
/// slot flip), and Realm Core's own checks hold after it: `verify` (the used nodes and the free
/// space tile the file exactly), `write-test`, and a `dump` that differs from the original's by
/// exactly the edit. Structural changes and encrypted files take the whole-file rewrite.
@Suite struct RealmCoreInPlaceCommitTests {
    /// A fixture copied into a fresh folder (`/tmp/s24-inplace-…`).
    static func copy(_ name: String, _ dir: TempDir) throws -> String {
        let path = dir.path(name)
        let source = CoreFixtures.sharedFixture(name) ?? CoreFixtures.url(name)
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        return path
    }

    static func dump(_ tool: URL, _ path: String, key: String? = nil) throws -> [String: Any] {
        let result = try CoreProcess.run(tool, ["dump", path] + (key.map { ["--key", $0] } ?? []))
        return try #require(
            try CoreJSONCompare.parse(result.stdout) as? [String: Any], "dump \(path): \(result.stderr)")
    }

    /// `dump` with `fields[column] = value` set on object `key` of `table`.
    static func edited(_ dump: [String: Any], _ edits: [(table: String, key: Int64, column: String, value: Any)])
        -> [String: Any]
    {
        var out = dump
        var tables = dump["tables"] as? [[String: Any]] ?? []
        for edit in edits {
            guard let t = tables.firstIndex(where: { $0["name"] as? String == edit.table }) else { continue }
            var objects = tables[t]["objects"] as? [[String: Any]] ?? []
            guard let o = objects.firstIndex(where: { ($0["_key"] as? NSNumber)?.int64Value == edit.key }) else {
                continue
            }
            var fields = objects[o]["fields"] as? [String: Any] ?? [:]
            fields[edit.column] = edit.value
            objects[o]["fields"] = fields
            tables[t]["objects"] = objects
        }
        out["tables"] = tables
        return out
    }

    static func tablesText(_ dump: [String: Any]) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: dump["tables"] ?? [], options: [.sortedKeys]),
            as: UTF8.self)
    }

    /// Realm Core's verify and write-test pass (each throws with Realm Core's message otherwise).
    static func expectSound(
        _ tool: URL, _ path: String, key: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for command in ["verify", "write-test"] {
            let result = try CoreProcess.run(tool, [command, path] + (key.map { ["--key", $0] } ?? []))
            #expect(
                String(decoding: result.stdout, as: UTF8.self).contains("\"result\": \"ok\""),
                "\(command): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
    }

    /// One session commit of `body`'s changes; returns how it was written.
    static func commit(_ session: RealmCoreEditSession, _ realm: Realm, _ body: () throws -> Void) throws
        -> RealmCoreEditSession.CommitKind?
    {
        try realm.write {
            try body()
            try session.commit(realm)
        }
        return session.lastCommit
    }

    static func isInPlace(_ kind: RealmCoreEditSession.CommitKind?) -> Bool {
        if case .inPlace = kind { return true }
        return false
    }

    /// Dogs (in-Realm history, version 2), Item of `history` (free lists and both header slots in
    /// use after 50 commits) and the every-type file (wide int leaves, long strings, floats,
    /// dates, binaries): each edit is committed in place and Realm Core sees exactly it.
    @Test(
        arguments: [
            ("generated-dogs.realm", "Dog", Int64(5), [("age", Value.int(-70000)), ("color", .string("teal"))]),
            (
                "generated-history.realm", "Item", Int64(7),
                [("name", .string("renamed in place")), ("value", .double(2.5))]
            ),
            (
                "generated-alltypes.realm", "Leaves", Int64(3),
                [("w8", .int(Int64.max)), ("strLong", .string(String(repeating: "long ", count: 40)))]
            ),
            (
                "generated-alltypes.realm", "AllTypes", Int64(1),
                [
                    ("floatCol", .float(1.5)), ("binaryCol", .data(Data([1, 2, 3]))),
                    ("optStringCol", .null),
                ]
            ),
        ] as [(String, String, Int64, [(String, Value)])])
    func anUpdateIsCommittedInPlace(_ fixture: String, _ className: String, _ key: Int64, _ edits: [(String, Value)])
        throws
    {
        let tool = try CoreFixtures.requireTool()
        let dir = TempDir("s24-inplace-update")
        let path = try Self.copy(fixture, dir)
        let before = try Self.dump(tool, path)
        let session = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        defer { session.close() }
        let realm = try session.makeRealm()
        let object = try #require(try realm.object(ofType: className, key: ObjectKey(key)))
        let kind = try Self.commit(session, realm) {
            for (name, value) in edits { try object.setValue(value, forKey: name) }
        }
        #expect(Self.isInPlace(kind), "\(String(describing: kind))")
        try Self.expectSound(tool, path)
        let after = try Self.dump(tool, path)
        #expect(after["version"] as? Int == (before["version"] as? Int ?? 0) + 1)
        // The edits as Realm Core's dump prints them.
        let expectedEdits = edits.map { name, value -> (table: String, key: Int64, column: String, value: Any) in
            let shown: Any =
                switch value {
                case .int(let i): NSNumber(value: i)
                case .double(let d): NSNumber(value: d)
                case .float(let f): NSNumber(value: Double(f))
                case .string(let s): s
                case .data(let d): d.base64EncodedString()
                default: NSNull()
                }
            return ("class_" + className, key, name, shown)
        }
        let expected = Self.edited(before, expectedEdits)
        let differences = CoreJSONCompare.differences(expected["tables"] ?? [], after["tables"] ?? [])
        #expect(differences.isEmpty, "\(differences)")
    }

    /// Ten commits in a row on one file: each in place, each verified, and the file does not
    /// grow (the space the previous versions' nodes occupied is reused).
    @Test func tenCommitsInARowReuseFreeSpace() throws {
        let tool = try CoreFixtures.requireTool()
        let dir = TempDir("s24-inplace-ten")
        let path = try Self.copy("generated-dogs.realm", dir)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let session = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        defer { session.close() }
        let realm = try session.makeRealm()
        var written = 0
        let keys = try realm.objects("Dog").keys()
        try #require(keys.count == 750)
        for i in 0..<10 {
            let object = try #require(try realm.object(ofType: "Dog", key: keys[i * 70]))
            let kind = try Self.commit(session, realm) {
                try object.setValue(.string("name \(i)"), forKey: "name")
                try object.setValue(.int(Int64(1000 + i)), forKey: "age")
            }
            guard case .inPlace(_, let bytes) = kind else {
                Issue.record("commit \(i): \(String(describing: kind))")
                return
            }
            written += bytes
            try Self.expectSound(tool, path)
        }
        let grown = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) - size
        #expect(grown <= written, "grew by \(grown) bytes for \(written) written")
        #expect(grown == 0, "the 98,304-byte file has free space for every commit: grew by \(grown)")
        let dump = try Self.dump(tool, path)
        let dogs = try #require((dump["tables"] as? [[String: Any]])?.first { $0["name"] as? String == "class_Dog" })
        let objects = dogs["objects"] as? [[String: Any]] ?? []
        for i in 0..<10 {
            let fields =
                objects.first { ($0["_key"] as? NSNumber)?.int64Value == keys[i * 70].rawValue }?["fields"]
                as? [String: Any]
            #expect(
                fields?["name"] as? String == "name \(i)" && fields?["age"] as? Int == 1000 + i,
                "\(String(describing: fields))")
        }
    }

    /// A crash after the new nodes and top are written but before the header's select bit flips
    /// leaves the old version: Realm Core verifies and dumps the original, this reader reads the
    /// old value, and the next commit goes through.
    @Test func aCrashBeforeTheFlipLeavesTheOldVersion() throws {
        let tool = try CoreFixtures.requireTool()
        let dir = TempDir("s24-inplace-crash")
        let path = try Self.copy("generated-history.realm", dir)
        let before = try Self.dump(tool, path)
        let lock = try RealmCoreEditLock(path: path)
        let result = try RealmCoreInPlaceCommit.commit(
            path: path, changes: [.init(table: "class_Item", key: 7, column: "name", value: .string("lost"))],
            flip: false)
        guard case .committed = result else {
            Issue.record("not written in place: \(result)")
            return
        }
        lock.release()
        try Self.expectSound(tool, path)
        let after = try Self.dump(tool, path)
        #expect(try Self.tablesText(after) == Self.tablesText(before))
        #expect(after["version"] as? Int == before["version"] as? Int)
        let file = try RealmCoreFile(image: RealmCoreFileAccess.open(path: path).image, name: path)
        let item = try #require(try file.table(named: "class_Item")?.object(key: 7))
        #expect(!item.values.contains(.string("lost")))
        // The next commit writes over what the lost one left in free space.
        let session = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        defer { session.close() }
        let realm = try session.makeRealm()
        let object = try #require(try realm.object(ofType: "Item", key: ObjectKey(7)))
        let kind = try Self.commit(session, realm) { try object.setValue(.string("kept"), forKey: "name") }
        #expect(Self.isInPlace(kind), "\(String(describing: kind))")
        try Self.expectSound(tool, path)
        let expected = Self.edited(before, [("class_Item", 7, "name", "kept")])
        #expect(
            CoreJSONCompare.differences(expected["tables"] ?? [], try Self.dump(tool, path)["tables"] ?? []).isEmpty)
    }

    /// Deleting and creating objects, changing an indexed property or a link take the
    /// whole-file rewrite, after in-place commits too; Realm Core sees each change.
    @Test func structuralChangesRewriteTheWholeFile() throws {
        let tool = try CoreFixtures.requireTool()
        let dir = TempDir("s24-inplace-structural")
        let path = try Self.copy("generated-dogs.realm", dir)
        let session = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        defer { session.close() }
        let realm = try session.makeRealm()
        let dog = try #require(try realm.object(ofType: "Dog", key: ObjectKey(1)))
        #expect(Self.isInPlace(try Self.commit(session, realm) { try dog.setValue(.int(99), forKey: "age") }))
        let deleted = try Self.commit(session, realm) {
            try realm.delete(try #require(try realm.object(ofType: "Dog", key: ObjectKey(2))))
        }
        guard case .wholeFile(let reason) = deleted else {
            Issue.record("a delete was written in place")
            return
        }
        #expect(reason.contains("created or deleted"), "\(reason)")
        try Self.expectSound(tool, path)
        #expect(Self.isInPlace(try Self.commit(session, realm) { try dog.setValue(.int(98), forKey: "age") }))
        let created = try Self.commit(session, realm) {
            _ = try realm.create("Dog", ["name": .string("New"), "age": .int(1)])
        }
        #expect(!Self.isInPlace(created))
        let person = try #require(try realm.objects("Person").first)
        let link = try Self.commit(session, realm) { try person.setValue(.link(ObjectKey(1)), forKey: "bestFriend") }
        #expect(!Self.isInPlace(link))
        try Self.expectSound(tool, path)
        let dump = try Self.dump(tool, path)
        let dogs = try #require((dump["tables"] as? [[String: Any]])?.first { $0["name"] as? String == "class_Dog" })
        let objects = dogs["objects"] as? [[String: Any]] ?? []
        #expect(objects.count == 750)
        #expect(!objects.contains { ($0["_key"] as? Int) == 2 })
        #expect((objects.first { ($0["_key"] as? Int) == 1 }?["fields"] as? [String: Any])?["age"] as? Int == 98)
        #expect(objects.contains { ($0["fields"] as? [String: Any])?["name"] as? String == "New" })
    }

    /// A transaction that changed nothing (an update matching no object) leaves the file byte
    /// for byte (it was rewritten whole before).
    @Test func aTransactionThatChangedNothingWritesNothing() throws {
        let dir = TempDir("s24-inplace-nothing")
        let path = try Self.copy("generated-dogs.realm", dir)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let session = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        defer { session.close() }
        let realm = try session.makeRealm()
        let kind = try Self.commit(session, realm) {
            try realm.objects("Dog").filter("age == -5").setValue(.value(.int(1)), forKey: "age")
        }
        #expect(kind == .nothingChanged, "\(String(describing: kind))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    /// An encrypted file is rewritten whole (its pages are re-encrypted), with its key.
    @Test func anEncryptedFileTakesTheWholeFileRewrite() throws {
        let tool = try CoreFixtures.requireTool()
        let dir = TempDir("s24-inplace-encrypted")
        let path = try Self.copy("generated-encrypted.realm", dir)
        let hex = try String(contentsOf: CoreFixtures.url("generated-encrypted.key"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let key = try #require(EncryptionKeyText.bytes(hex))
        let session = try RealmCoreEditSession(path: path, key: key, upgradeFormat: false)
        defer { session.close() }
        let realm = try session.makeRealm()
        let dog = try #require(try realm.object(ofType: "Dog", key: ObjectKey(4)))
        let kind = try Self.commit(session, realm) { try dog.setValue(.int(77), forKey: "age") }
        guard case .wholeFile(let reason) = kind else {
            Issue.record("an encrypted file was written in place")
            return
        }
        #expect(reason.contains("encrypted"))
        try Self.expectSound(tool, path, key: hex)
        let dump = try Self.dump(tool, path, key: hex)
        let dogs = try #require((dump["tables"] as? [[String: Any]])?.first { $0["name"] as? String == "class_Dog" })
        #expect(
            ((dogs["objects"] as? [[String: Any]])?.first { ($0["_key"] as? Int) == 4 }?["fields"] as? [String: Any])?[
                "age"] as? Int == 77)
    }
}

/// A key file's hex text as bytes (nil for anything but 128 hex digits).
enum EncryptionKeyText {
    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 128 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: 128, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }
}
