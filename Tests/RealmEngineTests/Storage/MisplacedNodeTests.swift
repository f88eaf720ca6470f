import Foundation
import Testing
@testable import RealmEngine

/// A node's checksum binds it to its place (read format 3): two nodes swapped on disk — each
/// with a checksum that is right for its own bytes — are a `corruptFile` error naming where,
/// never a lookup that quietly finds nothing.
@Suite(.tags(.integrity)) struct MisplacedNodeTests {
    /// People whose only index is the primary key's, so every index leaf in the file is its.
    static let byKey = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "age", type: .int),
            ])
    ])
    /// People whose only index is on a string.
    static let byName = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "id", type: .int),
                Property(name: "name", type: .string, isIndexed: true),
            ])
    ])
    /// A compacted file of `count` people (a copy: every index leaf in it is live). A string
    /// index fills its leaves in hash order, half full and of many lengths: it takes more people
    /// for two of its leaves to have one length.
    static func makeFile(_ dir: TempDir, schema: Schema, count: Int) throws -> String {
        let draft = dir.path("draft.realm")
        let path = dir.path("people.realm")
        let realm = try Realm(path: draft, schema: schema)
        let second = schema.objectSchemas[0].properties[1].name
        try realm.write {
            for i in 0..<count {
                let value: Value = second == "name" ? .string("person \(i)") : .int(Int64(i % 90))
                try realm.create("Person", ["id": .int(Int64(i)), second: value])
            }
        }
        try realm.writeCopy(toFile: path)
        return path
    }

    /// The offset and allocated length of every index leaf in the file's bytes (a scan for the
    /// node header: magic, kind, zero bytes, a length that fits).
    static func indexLeaves(_ bytes: [UInt8]) -> [(offset: Int, length: Int)] {
        var out: [(Int, Int)] = []
        bytes.withUnsafeBytes { raw in
            var at = FileHeader.size
            while at + Node.headerSize <= raw.count {
                if UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)) == Node.magic,
                    raw[at + 4] == NodeKind.indexLeaf.rawValue, raw[at + 5] == 0, raw[at + 6] == 0, raw[at + 7] == 0
                {
                    let length = Node.aligned(
                        Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))))
                    if length > Node.headerSize, at + length <= raw.count {
                        out.append((at, length))
                        at += length
                        continue
                    }
                }
                at += Node.alignment
            }
        }
        return out
    }

    /// Swaps two different index leaves of the same length on disk; returns their offsets.
    static func swapTwoIndexLeaves(_ path: String) throws -> (UInt64, UInt64) {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let leaves = indexLeaves(bytes)
        let byLength = Dictionary(grouping: leaves, by: \.length)
        let pair = byLength.values.filter { $0.count >= 2 }.compactMap { same -> (Int, Int, Int)? in
            let a = same[0]
            guard
                let b = same.dropFirst().first(where: {
                    bytes[$0.offset..<$0.offset + $0.length] != bytes[a.offset..<a.offset + a.length]
                })
            else { return nil }
            return (a.offset, b.offset, a.length)
        }.min { $0.0 < $1.0 }
        let (a, b, length) = try #require(pair, "no two index leaves of one length among \(leaves.map(\.length))")
        let first = Array(bytes[a..<a + length])
        bytes.replaceSubrange(a..<a + length, with: bytes[b..<b + length])
        bytes.replaceSubrange(b..<b + length, with: first)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (UInt64(a), UInt64(b))
    }

    /// Runs `lookup` for every person: each either finds that person or throws `corruptFile`
    /// at one of the swapped offsets. Returns how many threw.
    static func expectFoundOrCorrupt(
        count: Int, at swapped: (UInt64, UInt64), _ lookup: (Int) throws -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        var failures = 0
        for i in 0..<count {
            do {
                let found = try lookup(i)
                #expect(
                    found, "person \(i): a lookup through a misplaced leaf answered nothing",
                    sourceLocation: sourceLocation)
                if !found { return failures }
            } catch let RealmError.corruptFile(_, offset, reason) {
                #expect(
                    offset == swapped.0 || offset == swapped.1, "\(offset): \(reason)", sourceLocation: sourceLocation)
                #expect(reason.contains("checksum"), "\(reason)", sourceLocation: sourceLocation)
                failures += 1
            } catch {
                Issue.record("person \(i): \(error)", sourceLocation: sourceLocation)
                return failures
            }
        }
        return failures
    }

    @Test func swappedPrimaryKeyLeavesAreAnError() throws {
        let dir = TempDir()
        let path = try Self.makeFile(dir, schema: Self.byKey, count: 3000)
        let swapped = try Self.swapTwoIndexLeaves(path)
        let realm = try Realm(path: path)
        let failures = Self.expectFoundOrCorrupt(count: 3000, at: swapped) { i in
            try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i)))?["id"] == .int(Int64(i))
        }
        #expect(failures > 0)
        #expect(throws: RealmError.self) { _ = try realm.checkIntegrity() }
    }

    @Test func swappedStringIndexLeavesAreAnError() throws {
        let dir = TempDir()
        let path = try Self.makeFile(dir, schema: Self.byName, count: 20_000)
        let swapped = try Self.swapTwoIndexLeaves(path)
        let realm = try Realm(path: path)
        let failures = Self.expectFoundOrCorrupt(count: 20_000, at: swapped) { i in
            try realm.objects("Person").filter("name == 'person \(i)'").keys().count == 1
        }
        #expect(failures > 0)
        #expect(throws: RealmError.self) { _ = try realm.checkIntegrity() }
    }

    /// Every node kind, not only index leaves: a node's bytes, copied whole to another place,
    /// fail their checksum there; the same bytes at their own place pass.
    @Test func everyNodeKindIsBoundToItsPlace() throws {
        let dir = TempDir()
        let path = try Self.makeFile(dir, schema: Self.byKey, count: 600)
        let realm = try Realm(path: path)
        let slot = try #require(try realm.shared.slots().first?.slot)
        #expect(slot.bindsNodesToPlace)
        let bytes = FileBytes(base: realm.shared.file.base, size: slot.logicalSize, path: path, placeBound: true)
        let top = try TopNode.decode(try bytes.node(slot.topRef, kind: .top), path: path, ref: slot.topRef, layout: nil)
        let root = try #require(top.tables[0].root?.ref)
        let index = try #require(top.tables[0].indexes.values.first??.ref)
        var kinds = Set<UInt8>()
        for ref in [slot.topRef, slot.freeRef, slot.commitRef, top.schemaRef, root, index] where ref != 0 {
            let (length, kind, ok) = try bytes.extent(ref)
            #expect(ok, "kind \(kind) at \(ref)")
            kinds.insert(kind)
            let node = [UInt8](UnsafeRawBufferPointer(start: realm.shared.file.base + Int(ref), count: Int(length)))
            for elsewhere in [ref + 8, ref + UInt64(FileHeader.size)] {
                var moved = [UInt8](repeating: 0, count: Int(elsewhere) + node.count)
                moved.replaceSubrange(Int(elsewhere)..<moved.count, with: node)
                let ok = try moved.withUnsafeBytes { raw in
                    try FileBytes(base: raw.baseAddress!, size: UInt64(raw.count), path: path, placeBound: true).extent(
                        elsewhere
                    ).checksumOK
                }
                #expect(!ok, "a node of kind \(kind) from \(ref) verified at \(elsewhere)")
            }
        }
        #expect(kinds.count >= 5, "\(kinds)")
    }

    /// A file of read format 2 (every file made before read format 3: the bundled seeds, the
    /// user's files) keeps the payload-only rule: it opens, checks, takes writes that keep its
    /// format, and `compact` turns it into a file of the newest format.
    @Test func filesOfReadFormatTwoKeepTheirRuleUntilCompacted() throws {
        let dir = TempDir()
        let path = dir.path("format2.realm")
        do {
            let shared = try SharedFile.open(path: path, readOnly: false, create: true)
            try Realm.initialize(shared, schema: Self.byKey, schemaVersion: 0, readFormat: 2)
        }
        do {
            let realm = try Realm(path: path, schema: Self.byKey)
            for i in 0..<20 { try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "age": .int(1)]) } }
            try realm.write {
                for i in 20..<1500 { try realm.create("Person", ["id": .int(Int64(i)), "age": .int(2)]) }
            }
            #expect(realm.fileFormat.read == 2)
            #expect(try realm.shared.slots().allSatisfy { $0.slot.readFormat == 2 })
            #expect(try realm.checkIntegrity().objects["Person"] == 1500)
            // Its nodes carry the payload-only checksum.
            let slot = try #require(try realm.shared.slots().first?.slot)
            let stored = UInt32(
                littleEndian: (realm.shared.file.base + Int(slot.topRef)).loadUnaligned(
                    fromByteOffset: 12, as: UInt32.self))
            let old = FileBytes(base: realm.shared.file.base, size: slot.logicalSize, path: path, placeBound: false)
            #expect(Node.checksum(try old.node(slot.topRef, kind: .top), at: slot.topRef, placeBound: false) == stored)
        }
        _ = try Realm.compact(path: path)
        let realm = try Realm(path: path, schema: Self.byKey)
        #expect(realm.fileFormat.read == FileHeader.readFormat)
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(1499))?["age"] == .int(2))
        try realm.write { try realm.create("Person", ["id": .int(1500), "age": .int(3)]) }
        #expect(try realm.checkIntegrity().objects["Person"] == 1501)
    }
}
