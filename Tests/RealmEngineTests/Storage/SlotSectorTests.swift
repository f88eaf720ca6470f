import Foundation
import Testing
@testable import RealmEngine

/// Issue 11, defect 8: in the paired layout each slot's 512-byte sector identifies the file by
/// itself (magic, header size, slot with its checksum), so losing either sector loses at most
/// that slot, never the file.
@Suite struct SlotSectorTests {
    /// Zeroes `[offset, offset + 512)` of the file.
    static func zeroSector(_ path: String, at offset: Int) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(offset..<offset + 512, with: Data(count: 512))
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// A file whose newest commit is in slot `newestIn` (0 or 1); returns the versions of slots 0 and 1.
    static func make(_ path: String, newestIn: Int) throws -> [Int: UInt64] {
        let realm = try Realm(path: path, schema: Fixtures.people)
        var i = 0
        repeat {
            try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
            i += 1
        } while try realm.shared.slots().first?.index != newestIn || i < 3
        return Dictionary(uniqueKeysWithValues: try realm.shared.slots().map { ($0.index, $0.slot.version) })
    }

    /// Either sector alone opens the file, and the loss is reported (issue 11, defect 7): the lost
    /// sector may have held the newest commit, so opening names the version that slot would hold
    /// (the kept one + 1) and `check` fails naming it, until a commit writes the sector again.
    @Test func eitherSlotSectorAloneOpensTheFileAndTheLossIsReported() throws {
        for (lostSector, newestIn) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let dir = TempDir()
            let path = dir.path("sector.realm")
            let versions = try Self.make(path, newestIn: newestIn)
            try Self.zeroSector(path, at: Int(FileHeader.Layout.paired.headerPages[lostSector].lowerBound))
            let kept = try #require(versions[1 - lostSector])
            let context = "sector \(lostSector) lost, newest in \(newestIn)"
            Self.expectCheckFails(path, naming: kept + 1, context)
            let realm = try Realm(path: path)
            #expect(realm.version == kept, "\(context)")
            #expect(realm.recoveredFromDamagedCommit == kept + 1, "\(context)")
            #expect(realm.recoveredFromDamagedHeaderSlot, "\(context)")
            #expect(realm.recoveryWarning?.contains("version \(kept + 1)") == true, "\(context)")
            #expect(realm.recoveryWarning?.contains("header slot") == true, "\(context)")
            _ = try realm.checkIntegrity()
            // The next commits write the lost sector again, whole.
            try realm.write { try realm.create("Person", ["id": .int(1000), "name": .string("after")]) }
            try realm.write { try realm.create("Person", ["id": .int(1001), "name": .string("after")]) }
            _ = try realm.checkIntegrity()
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(Array(bytes[0..<8]) == FileHeader.magic)
        }
    }

    /// A slot whose bytes were changed (not zeroed: a flipped bit) fails its checksum; a crash
    /// cannot do that in the paired layout (each slot lies in one sector, written whole or not at
    /// all), so it is damage, reported like a lost sector.
    @Test func aFlippedBitInTheNewestSlotIsReported() throws {
        let dir = TempDir()
        let path = dir.path("flip.realm")
        let versions = try Self.make(path, newestIn: 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[FileHeader.Layout.paired.slotOffsets[1] + 9] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: path))
        let kept = try #require(versions[0])
        Self.expectCheckFails(path, naming: kept + 1, "bit flipped in slot 1")
        let realm = try Realm(path: path, readOnly: true)
        #expect(realm.version == kept)
        #expect(realm.recoveredFromDamagedCommit == kept + 1)
    }

    /// A slot erased after a torn commit (its 64 bytes zeroed, the sector's identity kept) is
    /// not damage: the file opens without a warning.
    @Test func anErasedSlotIsNotDamage() throws {
        let dir = TempDir()
        let path = dir.path("erased.realm")
        let versions = try Self.make(path, newestIn: 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let offset = FileHeader.Layout.paired.slotOffsets[0]
        bytes.replaceSubrange(offset..<offset + FileHeader.slotSize, with: Data(count: FileHeader.slotSize))
        try bytes.write(to: URL(fileURLWithPath: path))
        _ = try Realm.check(path: path)
        let realm = try Realm(path: path)
        #expect(realm.version == versions[1])
        #expect(realm.recoveredFromDamagedCommit == nil)
        #expect(realm.recoveryWarning == nil)
    }

    static func expectCheckFails(_ path: String, naming version: UInt64, _ context: String) {
        #expect(Comment(rawValue: context)) {
            _ = try Realm.check(path: path)
        } throws: { error in
            guard case RealmError.corruptFile(_, _, let reason) = error else { return false }
            return reason.contains("version \(version)") && reason.contains("header slot")
        }
    }

    @Test func aNewFileIsSelfIdentifyingFromItsFirstVersion() throws {
        let dir = TempDir()
        let path = dir.path("new.realm")
        do { _ = try Realm(path: path, schema: Fixtures.people) }
        try Self.zeroSector(path, at: 0)
        // Slot 0 held the only version: the file is damaged, and says so rather than "not a database".
        #expect {
            _ = try Realm(path: path)
        } throws: { error in
            if case RealmError.corruptFile = error { return true }
            return false
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(512) == Data(count: 512))
    }
}
