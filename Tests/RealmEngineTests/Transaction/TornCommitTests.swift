import Foundation
import Testing
@testable import RealmEngine

/// One barrier per commit: a machine crash may leave the newest slot on disk without some of its
/// nodes. The first opener must then fall back to the previous version, whole.
@Suite(.tags(.integrity)) struct TornCommitTests {
    /// Damages one node listed in the newest slot's commit record, as a lost write would.
    static func loseAWrite(_ path: String) throws -> UInt64 {
        let (data, newest) = try FileDamage.newestSlot(path)
        #expect(newest.commitRef != 0)
        let firstListed = data.withUnsafeBytes { raw in
            UInt64(
                littleEndian: raw.loadUnaligned(
                    fromByteOffset: Int(newest.commitRef) + Node.headerSize + 8, as: UInt64.self))
        }
        try FileDamage.flipPayloadByte(path, nodeAt: firstListed)
        return newest.version
    }

    @Test func aCommitWithALostNodeIsRolledBackToThePreviousVersion() throws {
        let dir = TempDir()
        let path = dir.path("torn.realm")
        var lostVersion: UInt64 = 0
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write {
                for i in 0..<300 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
            }
            try realm.write {
                for i in 300..<310 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("late\(i)")]) }
            }
        }
        lostVersion = try Self.loseAWrite(path)
        // A read-only opener ignores the torn commit without touching the file.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let ro = try Realm(path: path, readOnly: true)
            #expect(ro.version == lostVersion - 1)
            #expect(try ro.objects("Person").count == 300)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // A writer erases it, and the file goes on from the previous version.
        let realm = try Realm(path: path)
        #expect(realm.version == lostVersion - 1)
        #expect(try realm.objects("Person").count == 300)
        _ = try realm.checkIntegrity()
        try realm.write { try realm.create("Person", ["id": .int(999), "name": .string("after")]) }
        #expect(try realm.objects("Person").count == 301)
        _ = try realm.checkIntegrity()
    }

    /// Issue 11, defect 5: a read-only first opener cannot erase the torn commit; a writer that
    /// opens while it is still open must not build on it.
    @Test func aWriterAfterAReadOnlyFirstOpenerFallsBackToo() throws {
        let dir = TempDir()
        let path = dir.path("torn-ro.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write {
                for i in 0..<300 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
            }
            try realm.write {
                for i in 300..<310 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("late\(i)")]) }
            }
        }
        let lost = try Self.loseAWrite(path)
        let watcher = try Realm(path: path, readOnly: true)
        #expect(watcher.version == lost - 1)
        do {
            let writer = try Realm(path: path)
            #expect(try writer.objects("Person").count == 300)
            try writer.write { try writer.create("Person", ["id": .int(999), "name": .string("after")]) }
            #expect(try writer.objects("Person").count == 301)
            _ = try writer.checkIntegrity()
            #expect(writer.recoveredFromDamagedCommit == lost)
        }
        // A later reader sees the writer's version, whole.
        let later = try Realm(path: path, readOnly: true)
        #expect(try later.objects("Person").count == 301)
        _ = try later.checkIntegrity()
        #expect(watcher.refresh())
        #expect(try watcher.objects("Person").count == 301)
    }

    /// Issue 11, defect 7: damage in the newest commit is never a silent fallback.
    @Test func aDamagedNewestCommitIsReportedByCheckAndTheRealm() throws {
        let dir = TempDir()
        let path = dir.path("rot.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("one")]) }
            try realm.write { try realm.create("Person", ["id": .int(2), "name": .string("two")]) }
            #expect(realm.recoveredFromDamagedCommit == nil)
        }
        let lost = try Self.loseAWrite(path)
        // Set aside, not lost (issue 29, item 2): check reads the version before it and warns.
        let report = try Realm.check(path: path)
        #expect(report.version == lost - 1)
        #expect(
            report.warnings.contains { $0.contains("version \(lost)") && $0.contains("set aside") },
            "\(report.warnings)")
        let realm = try Realm(path: path)
        #expect(realm.recoveredFromDamagedCommit == lost)
        #expect(try realm.objects("Person").count == 1)
    }
}
