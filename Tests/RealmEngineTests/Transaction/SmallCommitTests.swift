import Foundation
import Testing
@testable import RealmEngine

/// Many small durable commits: space is reused, the file stays small and whole, and a commit
/// that cannot grow the file leaves it as it was.
@Suite struct SmallCommitTests {
    @Test func smallCommitsReuseSpace() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("small.realm"), schema: Fixtures.people)
        for i in 0..<50 {
            try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        let before = try realm.checkIntegrity()
        for i in 50..<350 {
            try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        let after = try realm.checkIntegrity()
        #expect(after.objects["Person"] == 350)
        // Each commit rewrites a few KB; had none of it been reused, 300 commits would have added
        // over a megabyte.
        #expect(after.fileBytes - before.fileBytes < 160 << 10)
        #expect(after.freeBytes < after.fileBytes / 2 + (64 << 10))
    }

    @Test func aReaderPinningAnOldVersionKeepsItsNodes() throws {
        let dir = TempDir()
        let path = dir.path("pinned.realm")
        let writer = try Realm(path: path, schema: Fixtures.people)
        try writer.write { try writer.create("Person", ["id": .int(0), "name": .string("first")]) }
        let reader = try Realm(path: path)
        #expect(try reader.objects("Person").count == 1)
        for i in 1..<200 {
            try writer.write { try writer.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        // The reader still sees its version, whole, while the writer reused everything newer.
        #expect(try reader.objects("Person").count == 1)
        #expect(try reader.object(ofType: "Person", forPrimaryKey: .int(0))?["name"] == .string("first"))
        #expect(reader.refresh())
        #expect(try reader.objects("Person").count == 200)
        _ = try writer.checkIntegrity()
    }

    @Test func failedGrowthLeavesTheFileAsItWas() throws {
        let dir = TempDir()
        let path = dir.path("grow.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("kept")]) }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var sawGrowthFail = false
        for n in 1...64 where !sawGrowthFail {
            try realm.beginWrite()
            realm.shared.file.failAfter = n
            do {
                for i in 2..<300 {
                    try realm.create(
                        "Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "y", count: 20_000))])
                }
                try realm.commitWrite()
            } catch RealmError.io(_, let operation, _, _) {
                sawGrowthFail = operation == "grow"
            }
            realm.shared.file.failAfter = nil
            if realm.isInWriteTransaction { realm.cancelWrite() }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        }
        #expect(sawGrowthFail)
        let reopened = try Realm(path: path)
        #expect(try reopened.objects("Person").count == 1)
        _ = try reopened.checkIntegrity()
    }
}

/// The chunked free list in real files: only changed chunks are rewritten, a big fragmented list
/// survives commits whole, and a file of write format 1 converts on its first commit.
@Suite struct FreeListChunkTests {
    /// Builds a file whose free list spans many windows: many objects with big values, then
    /// every other one deleted. `readFormat`: a file of that read format (an older program's).
    private func fragmented(_ path: String, readFormat: UInt16? = nil) throws -> Realm {
        if let readFormat {
            let shared = try SharedFile.open(path: path, readOnly: false, create: true)
            try Realm.initialize(shared, schema: Fixtures.people, schemaVersion: 0, readFormat: readFormat)
        }
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write {
            for i in 0..<3000 {
                try realm.create(
                    "Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "n", count: 1500 + i % 300))])
            }
        }
        for round in 0..<3 {
            try realm.write {
                for i in stride(from: round, to: 3000, by: 7) {
                    if let p = try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i))) {
                        try p.setValue(Value.string("x\(i)"), forKey: "name")
                    }
                }
            }
        }
        return realm
    }

    @Test func aSmallCommitRewritesFewChunks() throws {
        let dir = TempDir()
        let path = dir.path("chunks.realm")
        let realm = try fragmented(path)
        let bytes = {
            let slot = try realm.shared.slots()[0].slot
            return FileBytes(
                base: realm.shared.file.base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace)
        }
        let before = try FreeSpace.load(try bytes(), ref: try realm.shared.slots()[0].slot.freeRef)
        #expect(before.count >= 4)
        try realm.write { try realm.create("Person", ["id": .int(5000), "name": .string("small")]) }
        try realm.write { try realm.create("Person", ["id": .int(5001), "name": .string("small")]) }
        let after = try FreeSpace.load(try bytes(), ref: try realm.shared.slots()[0].slot.freeRef)
        let kept = Set(before.map(\.ref)).intersection(after.map(\.ref))
        #expect(kept.count >= after.count - 4)
        let report = try realm.checkIntegrity()
        #expect(report.objects["Person"] == 3002)
        // Another process (a fresh open) reads the same list from the file.
        let other = try Realm.check(path: path)
        #expect(other.freeBytes == report.freeBytes)
    }

    @Test func aFormatOneFreeListIsConvertedByTheNextCommit() throws {
        let dir = TempDir()
        let path = dir.path("old.realm")
        do {
            // A program of write format 1 knew read formats up to 2 only.
            let realm = try fragmented(path, readFormat: 2)
            // Rewrite the newest version's free list in format 1, as an older program left it.
            let slots = try realm.shared.slots()
            let slot = slots[0].slot
            let chunks = try FreeSpace.load(
                FileBytes(
                    base: realm.shared.file.base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace
                ), ref: slot.freeRef)
            let flat = chunks.flatMap(\.extents)
            // The chunked list's nodes become free; the flat list goes at the end of the file.
            var usedByList: [FreeSpace.Extent] = []
            usedByList.append(
                .init(
                    offset: slot.freeRef,
                    length: try FileBytes(
                        base: realm.shared.file.base, size: slot.logicalSize, path: path,
                        placeBound: slot.bindsNodesToPlace
                    ).header(slot.freeRef).length, freedIn: 0))
            for c in chunks { usedByList.append(.init(offset: c.ref, length: c.nodeLength, freedIn: 0)) }
            if slot.commitRef != 0 {  // the fabricated slot names no record
                let length = try FileBytes(
                    base: realm.shared.file.base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace
                ).header(slot.commitRef).length
                usedByList.append(.init(offset: slot.commitRef, length: length, freedIn: 0))
            }
            var free = FreeSpace(chunks: FreeSpace.chunked(flat), logicalSize: slot.logicalSize, reusableUpTo: .max)
            for u in usedByList { free.free(offset: u.offset, length: u.length, freedIn: slot.version) }
            let extents = free.allExtents
            let node = Node.build(
                kind: .freeList, payload: FreeSpace.legacyPayload(extents) + [UInt8](repeating: 0, count: 64))
            let ref = slot.logicalSize
            try node.withUnsafeBytes { try realm.shared.file.write($0, at: ref) }
            var old = slot
            old.freeRef = ref
            old.logicalSize = ref + UInt64(node.count)
            old.writeFormat = 1
            old.commitRef = 0
            old.commitHash = 0
            try old.encoded().withUnsafeBytes {
                try realm.shared.file.write($0, at: UInt64(try realm.shared.layout().slotOffsets[slots[0].index]))
            }
            try realm.shared.file.sync()
        }
        let reopened = try Realm(path: path)
        let report = try reopened.checkIntegrity()
        #expect(report.objects["Person"] == 3000)
        try reopened.write { try reopened.create("Person", ["id": .int(9000), "name": .string("new")]) }
        let converted = try reopened.checkIntegrity()
        #expect(converted.objects["Person"] == 3001)
        #expect(reopened.fileFormat.write == FileHeader.writeFormat)
        let slot = try reopened.shared.slots()[0].slot
        let chunks = try FreeSpace.load(
            FileBytes(
                base: reopened.shared.file.base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace),
            ref: slot.freeRef)
        #expect(chunks.allSatisfy { $0.ref != 0 })
    }
}

/// Header reads without `fstat`: a size seen earlier is only a lower bound, and a newer slot
/// past it makes the reader look again.
@Suite struct KnownSizeTests {
    @Test func aReaderSeesAVersionThatGrewTheFileElsewhere() throws {
        let dir = TempDir()
        let path = dir.path("grown.realm")
        let writer = try Realm(path: path, schema: Fixtures.people)
        try writer.write { try writer.create("Person", ["id": .int(0), "name": .string("first")]) }
        // A read-only instance has its own descriptor and mapping, like another process.
        let reader = try Realm(path: path, readOnly: true)
        #expect(try reader.objects("Person").count == 1)
        let seen = try #require(reader.shared.file.lastKnownSize)
        try writer.write {
            for i in 1..<400 {
                try writer.create(
                    "Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "z", count: 8000))])
            }
        }
        #expect(try writer.shared.file.physicalSize() > seen)
        #expect(reader.refresh())
        #expect(try reader.objects("Person").count == 400)
        #expect(try #require(reader.shared.file.lastKnownSize) > seen)
        _ = try reader.checkIntegrity()
    }

    @Test func aCancelledGrowthLeavesTheWritersLowerBoundTrue() throws {
        let dir = TempDir()
        let path = dir.path("bound.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write { try realm.create("Person", ["id": .int(0), "name": .string("first")]) }
        let before = try realm.shared.file.physicalSize()
        try realm.beginWrite()
        for i in 1..<300 {
            try realm.create("Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "q", count: 20_000))])
        }
        realm.cancelWrite()
        #expect(try realm.shared.file.physicalSize() == before)
        #expect(realm.shared.file.writerKnownSize == before)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("after")]) }
        #expect(try realm.checkIntegrity().objects["Person"] == 2)
    }
}
