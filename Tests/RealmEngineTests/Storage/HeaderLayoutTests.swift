import Foundation
import Testing
@testable import RealmEngine

/// The paired header layout: each slot on its own page with a commit area after it, so a small
/// commit reaches the disk as one region (`FileHeader.Layout`). Files of the older single layout
/// still open, take writes and compact into the new one.
@Suite struct HeaderLayoutTests {
    /// The refs the newest slot's commit record lists (every node that commit wrote).
    static func nodesOfNewestCommit(_ realm: Realm) throws -> (index: Int, refs: [UInt64]) {
        let (index, slot) = try #require(try realm.shared.slots().first)
        #expect(slot.commitRef != 0)
        let bytes = FileBytes(
            base: realm.shared.file.base, size: slot.logicalSize, path: realm.shared.path,
            placeBound: slot.bindsNodesToPlace)
        let payload = try bytes.node(slot.commitRef, kind: .commitRecord)
        let n = Int(UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self)))
        let refs = (0..<n).map {
            UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 8 + $0 * 16, as: UInt64.self))
        }
        return (index, refs + [slot.commitRef])
    }

    static func person(_ i: Int) -> [String: Value] { ["id": .int(Int64(i)), "name": .string("person \(i)")] }

    @Test func smallCommitsWriteBesideTheSlotTheyWrite() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("paired.realm"), schema: Fixtures.people)
        #expect(FileHeader.Layout.of(base: realm.shared.file.base) == .paired)
        #expect(realm.fileFormat.read == FileHeader.readFormat)
        var indexes: [Int] = []
        for i in 0..<40 {
            try realm.write { try realm.create("Person", Self.person(i)) }
            let (index, refs) = try Self.nodesOfNewestCommit(realm)
            indexes.append(index)
            let area = FileHeader.Layout.paired.areas[index]
            #expect(refs.allSatisfy { area.contains($0) }, "commit \(i) wrote \(refs) outside \(area)")
        }
        #expect(Set(indexes) == [0, 1])
        #expect(try realm.checkIntegrity().objects["Person"] == 40)
    }

    /// People with only the primary key indexed: every insert appends to both trees.
    static let appendOnly = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string),
            ])
    ])

    @Test func aBulkTransactionLeavesTheAreasFreeAndAppendsKeepThemUsable() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("bulk.realm"), schema: Self.appendOnly)
        try realm.write { for i in 0..<20_000 { try realm.create("Person", Self.person(i)) } }
        // Nothing of the bulk insert stays in an area: each is one free extent.
        let slot = try #require(try realm.shared.slots().first?.slot)
        let chunks = try FreeSpace.load(
            FileBytes(
                base: realm.shared.file.base, size: slot.logicalSize, path: realm.shared.path,
                placeBound: slot.bindsNodesToPlace),
            ref: slot.freeRef)
        let extents = chunks.flatMap(\.extents)
        for area in FileHeader.Layout.paired.areas {
            #expect(
                extents.contains { $0.offset == area.lowerBound && $0.length == UInt64(area.count) },
                "\(area): \(extents.prefix(4))")
        }
        // Appending one object a commit fills and splits leaves; the full ones leave the areas,
        // so the last commits still fit beside their slots. (Inserts in the middle of a tree
        // leave the leaves they touched in an area until they change again; commits then spill
        // over into general space, which costs only time.)
        for i in 20_000..<20_600 { try realm.write { try realm.create("Person", Self.person(i)) } }
        for i in 20_600..<20_604 {
            try realm.write { try realm.create("Person", Self.person(i)) }
            let (index, refs) = try Self.nodesOfNewestCommit(realm)
            let area = FileHeader.Layout.paired.areas[index]
            #expect(refs.allSatisfy { area.contains($0) }, "commit \(i) wrote \(refs) outside \(area)")
        }
        #expect(try realm.checkIntegrity().objects["Person"] == 20_604)
    }

    @Test func singleLayoutFilesStillWorkAndCompactIntoThePairedLayout() throws {
        let dir = TempDir()
        let path = dir.path("single.realm")
        do {
            let shared = try SharedFile.open(path: path, readOnly: false, create: true)
            try Realm.initialize(shared, schema: Fixtures.people, schemaVersion: 0, header: .single)
        }
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            #expect(FileHeader.Layout.of(base: realm.shared.file.base) == .single)
            for i in 0..<30 { try realm.write { try realm.create("Person", Self.person(i)) } }
            #expect(try realm.shared.slots().map(\.index).sorted() == [0, 1])
            #expect(realm.fileFormat.read == 1)
            #expect(try realm.checkIntegrity().objects["Person"] == 30)
        }
        _ = try Realm.compact(path: path)
        let realm = try Realm(path: path, schema: Fixtures.people)
        #expect(FileHeader.Layout.of(base: realm.shared.file.base) == .paired)
        #expect(realm.fileFormat.read == FileHeader.readFormat)
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(29))?["name"] == .string("person 29"))
        try realm.write { try realm.create("Person", Self.person(30)) }
        #expect(try realm.checkIntegrity().objects["Person"] == 31)
    }

    @Test func anUnknownHeaderSizeIsANewerFormat() throws {
        let dir = TempDir()
        let path = dir.path("newer.realm")
        do { _ = try Realm(path: path, schema: Fixtures.people) }
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 8)
        handle.write(Data([0x00, 0x00, 0x02, 0x00]))  // 131072: a layout this program does not know
        try handle.close()
        #expect {
            _ = try Realm(path: path)
        } throws: { error in
            if case RealmError.newerFormat = error { return true }
            return false
        }
    }

    @Test func aFreeListReachingIntoAHeaderPageIsRefused() throws {
        let pages = FileHeader.Layout.paired.headerPages
        var clear = FreeSpace.Chunk(window: 0)
        clear.extents = [
            .init(offset: 4096, length: 28 << 10, freedIn: 0), .init(offset: 36 << 10, length: 28 << 10, freedIn: 0),
        ]
        try FreeSpace.checkClear(pages, chunks: [clear], path: "t", ref: 0)
        var bad = clear
        bad.extents[0].length += 4096  // runs into the second slot's page
        #expect(throws: RealmError.self) { try FreeSpace.checkClear(pages, chunks: [bad], path: "t", ref: 0) }
    }
}
