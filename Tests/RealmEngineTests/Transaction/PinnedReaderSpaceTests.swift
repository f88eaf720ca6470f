import Foundation
import Testing
@testable import RealmEngine

/// Counts the bytes a file is written (nodes and slots; not growth, which writes no data).
private final class WrittenBytes: WriteRecorder {
    var bytes = 0
    func wrote(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) { self.bytes += bytes.count }
    func resized(from old: UInt64, to new: UInt64) {}
    func barrierStarts() {}
    func barrierReturned() {}
}

/// Space under a long reader (issue 30): a reader holding an old version keeps only what that
/// version reaches. Space freed by later versions that no reader holds is reused, so the file
/// does not grow with every commit while the reader stays, and a small commit writes the same
/// few kilobytes however many versions the reader holds.
@Suite struct PinnedReaderSpaceTests {
    static let objects = 4000
    static let commits = 1000

    /// The writer, and a frozen instance of another `Realm` on the version after the fill
    /// (in memory: the same free-space manager without a barrier per commit, so CI can afford
    /// thousands of commits).
    private func filled(pinned: Bool) throws -> (writer: Realm, frozen: Realm?) {
        let id = "pinned-space-\(UUID())"
        let writer = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
        try writer.write {
            for i in 0..<Self.objects {
                try writer.create("Person", ["id": .int(Int64(i)), "name": .string("person \(i)"), "age": .int(0)])
            }
        }
        let frozen = pinned ? try Realm(configuration: .init(inMemoryIdentifier: id)).freeze() : nil
        return (writer, frozen)
    }

    /// One-object update commits on pseudo-random objects (the same ones each run).
    private func update(_ writer: Realm, commits: ClosedRange<Int>) throws {
        var x = UInt64(0x9E37_79B9) &+ UInt64(commits.lowerBound)
        for round in commits {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let id = Int64((x >> 33) % UInt64(Self.objects))
            try writer.write {
                try writer.object(ofType: "Person", forPrimaryKey: .int(id))?.setValue(
                    .int(Int64(round)), forKey: "age")
            }
        }
    }

    /// The file's logical size after the workload.
    private func workload(pinned: Bool) throws -> UInt64 {
        let (writer, frozen) = try filled(pinned: pinned)
        try update(writer, commits: 1...Self.commits)
        if let frozen {
            // The pinned version is still whole: every object as it was before the updates.
            #expect(try frozen.objects("Person").filter("age != 0").checkedCount() == 0)
            #expect(try frozen.objects("Person").checkedCount() == Self.objects)
        }
        let report = try writer.checkIntegrity()
        #expect(report.objects["Person"] == Self.objects)
        return try writer.shared.slots()[0].slot.logicalSize
    }

    @Test func aPinnedOldVersionDoesNotMakeTheFileGrowWithEveryCommit() throws {
        let free = try workload(pinned: false)
        let held = try workload(pinned: true)
        #expect(held <= 2 * free, "file size \(held) with a pinned reader, \(free) without")
    }

    @Test func aSmallCommitWritesLittleWhateverAReaderHolds() throws {
        let (writer, frozen) = try filled(pinned: true)
        try update(writer, commits: 1...1000)
        let counter = WrittenBytes()
        writer.shared.file.recorder = counter
        defer { writer.shared.file.recorder = nil }
        try update(writer, commits: 1001...1100)
        let perCommit = counter.bytes / 100
        // The reader holds 1,100 versions: their change records alone are ~60 KB.
        #expect(perCommit <= 32 << 10, "\(perCommit) bytes per one-object commit")
        #expect(try frozen?.objects("Person").filter("age != 0").checkedCount() == 0)
    }

    @Test func aReaderFarBehindGetsEveryRecordFromTheChunks() throws {
        let (writer, _) = try filled(pinned: false)
        let reader = try Realm(configuration: .init(inMemoryIdentifier: writer.configuration.inMemoryIdentifier))
        let start = try reader.snapshot.version
        try update(writer, commits: 1...600)  // ~34 KB of records: several sealed chunks
        reader.refresh()
        let summaries = try #require(try reader.commitSummaries(after: start))
        #expect(summaries.map(\.version) == Array(start + 1...start + 600))
        #expect(summaries.allSatisfy { $0.classes.map(\.modified) == [1] })
        let root = try #require(try writer.shared.snapshot(version: try reader.snapshot.version))
        #expect(try ChangeLog.chunkRefs(root.bytes, ref: root.changeLogRef).count >= 3)
        _ = try writer.checkIntegrity()
        // Once no reader needs them, the chunks are freed with the records.
        reader.invalidate()
        try update(writer, commits: 601...601)
        let newest = try #require(try writer.shared.snapshot(version: try writer.snapshot.version))
        #expect(try ChangeLog.chunkRefs(newest.bytes, ref: newest.changeLogRef).isEmpty)
        _ = try writer.checkIntegrity()
    }
}
