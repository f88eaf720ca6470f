import Foundation
import Testing
@testable import RealmEngine

/// A file that went back to an older version than its last commit — the page of its newest
/// header slot put back to an older copy (plain), or the newer copy of that page failing its
/// HMAC so the older copy is used (encrypted) — opens loudly: the version set aside is reported
/// like a rejected newest commit (`recoveredFromDamagedCommit`, the warning, `check`), never
/// read silently as if nothing was lost. The lock file remembers the last version.
@Suite(.tags(.integrity)) struct RolledBackVersionTests {
    static func person(_ i: Int) -> [String: Value] { ["id": .int(Int64(i)), "name": .string("p\(i)")] }

    /// Commits until the newest slot is slot 0 (so its page is also where the file identifies
    /// itself), runs `beforeLastTwo` with that newest version, then commits twice more (the
    /// second into the same slot). Every instance is closed on return. Returns the versions
    /// (older copy's, the one before the newest, the newest).
    static func commitAroundASlot(_ configuration: Realm.Configuration, _ beforeLastTwo: (Realm, UInt64) throws -> Void)
        throws -> (UInt64, UInt64, UInt64)
    {
        let realm = try Realm(configuration: configuration)
        var i = 0
        repeat {
            try realm.write { try realm.create("Person", Self.person(i)) }
            i += 1
        } while try realm.shared.slots().first?.index != 0 || i < 3
        let older = realm.version
        try beforeLastTwo(realm, older)
        try realm.write { try realm.create("Person", Self.person(100)) }
        try realm.write { try realm.create("Person", Self.person(101)) }
        #expect(try realm.shared.slots().first?.index == 0)
        return (older, older + 1, realm.version)
    }

    /// Opens the file afresh (first opener) and checks that it says version `lost` was set aside.
    static func expectLoudFallback(
        _ configuration: Realm.Configuration, lost: UInt64, now: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for _ in 0..<2 {  // and again in the next session: said until a commit replaces it
            let realm = try Realm(configuration: configuration)
            #expect(realm.version == now, sourceLocation: sourceLocation)
            #expect(realm.recoveredFromDamagedCommit == lost, sourceLocation: sourceLocation)
            let warning = realm.recoveryWarning ?? ""
            #expect(warning.contains("version \(lost)"), "\(warning)", sourceLocation: sourceLocation)
            do {
                _ = try Realm.check(path: realm.path, encryptionKey: configuration.encryptionKey)
                Issue.record("check passed a file that went back from version \(lost)", sourceLocation: sourceLocation)
            } catch let RealmError.corruptFile(_, _, reason) {
                #expect(reason.contains("version \(lost)"), "\(reason)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func anOlderCopyOfTheNewestSlotsPageIsReported() throws {
        let dir = TempDir()
        let path = dir.path("db.realm")
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people)
        var saved = Data()
        let page = FileHeader.Layout.paired.headerPages[0]
        let (_, previous, newest) = try Self.commitAroundASlot(configuration) { _, _ in
            saved = try Data(contentsOf: URL(fileURLWithPath: path))[Int(page.lowerBound)..<Int(page.upperBound)]
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: page.lowerBound)
        handle.write(saved)
        try handle.close()
        try Self.expectLoudFallback(configuration, lost: newest, now: previous)
    }

    @Test func aFlippedBitInTheNewerCopyOfAnEncryptedSlotPageIsReported() throws {
        let dir = TempDir()
        let path = dir.path("db.realm")
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), schema: Fixtures.people,
            encryptionKey: EncryptionTests.key)
        let (_, previous, newest) = try Self.commitAroundASlot(configuration) { _, _ in }
        // The newer copy of logical page 0 (the higher counter in its metadata entry).
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: EncryptedFile.metaOffset(0))
        let entries = try #require(try handle.read(upToCount: 2 * PageEntry.size))
        let counters = entries.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: PageEntry.size, as: UInt64.self)
            )
        }
        let newer = counters.0 > counters.1 ? 0 : 1
        let offset = EncryptedFile.dataOffset(0, copy: newer) + 100
        try handle.seek(toOffset: offset)
        let old = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: offset)
        handle.write(Data([old ^ 0x10]))
        try handle.close()
        try Self.expectLoudFallback(configuration, lost: newest, now: previous)
    }

    /// Normal operation stays quiet: a fresh session on an intact file, a file made anew at a
    /// path whose lock file outlived the old one, and a compacted file.
    @Test func anIntactFileOpensQuietly() throws {
        let dir = TempDir()
        let path = dir.path("db.realm")
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people)
        _ = try Self.commitAroundASlot(configuration) { _, _ in }
        do {
            let realm = try Realm(configuration: configuration)
            #expect(realm.recoveredFromDamagedCommit == nil)
            _ = try Realm.check(path: path)
        }
        _ = try Realm.compact(path: path)
        do {
            let realm = try Realm(configuration: configuration)
            #expect(realm.recoveredFromDamagedCommit == nil)
        }
        try FileManager.default.removeItem(atPath: path)
        #expect(FileManager.default.fileExists(atPath: LockFile.path(forRealmAt: path)))
        let realm = try Realm(configuration: configuration)
        #expect(realm.recoveredFromDamagedCommit == nil)
        #expect(try realm.objects("Person").count == 0)
    }
}
