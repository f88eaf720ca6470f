import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// The writer's encrypted output (`RealmCoreEncryption`): Realm Core opens it with the key and
/// finds it consistent, refuses a wrong key, and this package's reader reads it back equal.
@Suite(.tags(.multiProcess)) struct CoreWriterEncryptionTests {
    static let key = (0..<64).map { UInt8(($0 * 37 + 11) & 0xFF) }
    static var hexKey: String { key.map { String(format: "%02x", $0) }.joined() }

    /// 90 objects with 4 KiB binaries: more than 64 pages, so two IV tables.
    static func tables() -> [RealmCoreWriterTable] {
        let columns: [RealmCoreWriterTable.Column] = [
            .init(name: "n", type: .int, nullable: false),
            .init(name: "s", type: .string, nullable: true),
            .init(name: "blob", type: .binary, nullable: false),
        ]
        let objects = (0..<90).map { (i: Int) -> RealmCoreWriterTable.Object in
            let blob = Data((0..<4100).map { (b: Int) -> UInt8 in UInt8((b + i) & 0xFF) })
            let name: CoreValue = i % 4 == 0 ? .null : .string("item \(i) ✓")
            return RealmCoreWriterTable.Object(key: Int64(i), values: [.int(Int64(i) * 7 - 300), name, .binary(blob)])
        }
        return [RealmCoreWriterTable(name: "class_Item", columns: columns, objects: objects)]
    }

    /// Every object of `table` as read from `file`, by key.
    static func contents(_ file: RealmCoreFile, _ table: String) throws -> [Int64: [CoreValue]] {
        let read = try #require(file.table(named: table))
        var out: [Int64: [CoreValue]] = [:]
        try read.forEachObject { o in
            out[o.key] = o.values
            return true
        }
        return out
    }

    @Test func encryptedFileReadsBackEqual() throws {
        let dir = TempDir("core-writer-encrypted")
        let plainPath = dir.path("plain.realm")
        let path = dir.path("encrypted.realm")
        try RealmCoreWriter.write(tables: Self.tables(), schemaVersion: 3, toFile: plainPath)
        try RealmCoreWriter.write(tables: Self.tables(), schemaVersion: 3, toFile: path, encryptionKey: Data(Self.key))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let plainSize = try #require(try FileManager.default.attributesOfItem(atPath: plainPath)[.size] as? Int)
        let pages = (plainSize + 4095) / 4096
        #expect(pages > 64)
        #expect(size == (pages + (pages + 63) / 64) * 4096)
        // No plaintext left: the table name appears in the plain file, not in the encrypted one.
        let stored = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: plainPath)).range(of: Data("class_Item".utf8)) != nil)
        #expect(stored.range(of: Data("class_Item".utf8)) == nil)
        stored.withUnsafeBytes { #expect(RealmCoreDecryption.looksEncrypted(start: $0, fileSize: size)) }

        let access = try RealmCoreFileAccess.open(path: path, key: Self.key)
        let file = try RealmCoreFile(image: access.image, name: path)
        let plain = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: plainPath))), name: plainPath)
        #expect(try file.schemaVersion() == 3)
        let read = try Self.contents(file, "class_Item")
        #expect(read.count == 90)
        #expect(read == (try Self.contents(plain, "class_Item")))

        var wrong = Self.key
        wrong[40] ^= 1
        #expect(throws: RealmError.self) { _ = try RealmCoreFileAccess.open(path: path, key: wrong) }
    }

    /// Fresh IVs for every file: the same image under the same key gives other ciphertext.
    @Test func everyFileGetsFreshIVs() throws {
        let dir = TempDir("core-writer-encrypted-iv")
        let a = dir.path("a.realm")
        let b = dir.path("b.realm")
        try RealmCoreWriter.write(tables: Self.tables(), schemaVersion: 1, toFile: a, encryptionKey: Data(Self.key))
        try RealmCoreWriter.write(tables: Self.tables(), schemaVersion: 1, toFile: b, encryptionKey: Data(Self.key))
        let first = try Data(contentsOf: URL(fileURLWithPath: a))
        let second = try Data(contentsOf: URL(fileURLWithPath: b))
        #expect(first.count == second.count)
        #expect(first.prefix(4) != second.prefix(4), "page 0's IV repeated")
        #expect(first[4096..<8192] != second[4096..<8192], "page 0's ciphertext repeated")
    }

    @Test func aKeyOfAnotherLengthIsRefused() throws {
        let dir = TempDir("core-writer-encrypted-bad-key")
        let path = dir.path("out.realm")
        #expect {
            try RealmCoreWriter.write(
                tables: Self.tables(), schemaVersion: 1, toFile: path, encryptionKey: Data(Self.key.prefix(32)))
        } throws: { error in
            guard case RealmError.encryption(_, let reason) = error else { return false }
            return reason.contains("64 bytes")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Realm Core opens the file with the key: verify, write-test (it rewrites pages, reopens and
    /// checks) and a dump equal to the plain file's; a wrong key fails.
    @Test(.enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"))
    func realmCoreOpensTheEncryptedFile() throws {
        let tool = try #require(CoreFixtures.tool())
        let dir = TempDir("core-writer-encrypted-core")
        let plainPath = dir.path("plain.realm")
        let path = dir.path("encrypted.realm")
        try RealmCoreWriter.write(tables: Self.tables(), schemaVersion: 3, toFile: plainPath)
        try RealmCoreWriter.write(tables: Self.tables(), schemaVersion: 3, toFile: path, encryptionKey: Data(Self.key))
        for command in ["verify", "write-test"] {
            let result = try CoreProcess.run(tool, [command, path, "--key", Self.hexKey])
            #expect(result.status == 0, "realm-core-tool \(command): \(result.stderr)")
            #expect(
                String(decoding: result.stdout, as: UTF8.self).contains("\"result\": \"ok\""),
                "\(command): \(result.stderr)")
        }
        let dump = try CoreProcess.run(tool, ["dump", path, "--key", Self.hexKey])
        #expect(dump.status == 0, "realm-core-tool dump: \(dump.stderr)")
        let plainDump = try CoreProcess.run(tool, ["dump", plainPath])
        var encrypted = try #require(try CoreJSONCompare.parse(dump.stdout) as? [String: Any], "\(dump.stderr)")
        var plain = try #require(try CoreJSONCompare.parse(plainDump.stdout) as? [String: Any], "\(plainDump.stderr)")
        encrypted["file"] = nil
        plain["file"] = nil
        let diffs = CoreJSONCompare.differences(plain, encrypted, limit: 10)
        #expect(diffs.isEmpty, "the encrypted file's dump differs:\n\(diffs.joined(separator: "\n"))")

        var wrong = Self.key
        wrong[40] ^= 1
        // `CoreProcess.run` throws for a nonzero exit, with Realm Core's message.
        #expect {
            _ = try CoreProcess.run(tool, ["verify", path, "--key", wrong.map { String(format: "%02x", $0) }.joined()])
        } throws: { "\($0)".contains("wrong encryption key") || "\($0)".contains("decryption failed") }
        #expect(throws: CoreProcess.Failure.self) { _ = try CoreProcess.run(tool, ["verify", path]) }
    }
}
