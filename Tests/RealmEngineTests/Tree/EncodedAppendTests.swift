import Foundation
import Testing
@testable import RealmEngine

/// The encoded-form edits of a small commit (`IndexLeafCodec.appending`,
/// `InnerNodeCodec.replacing`) must write exactly what decoding, changing and re-encoding writes.
@Suite struct EncodedAppendTests {
    /// Appends `entry` to the encoding of `entries` and compares with encoding both.
    private func checkIndexAppend(_ entries: [TreeKey], _ entry: TreeKey) throws {
        let bytes = IndexLeafCodec.encode(entries)
        var out: [UInt8] = [9]
        try bytes.withUnsafeBytes { raw in
            let view = try IndexLeafCodec.View(raw, path: "test", ref: 0)
            IndexLeafCodec.appending(view, entry, into: &out)
        }
        #expect(out.first == 9)
        #expect(
            Array(out.dropFirst()) == IndexLeafCodec.encode(entries + [entry]),
            "appending \(entry) to \(entries.count) entries")
    }

    @Test func indexAppendMatchesEncoding() throws {
        var rng = SystemRandomNumberGenerator()
        // Increasing integer keys (width kept), jumps that widen a block, equal values, extremes.
        let his: [UInt64] = [1 << 63, 1 << 63 + 1, 1 << 63 + 2, 1 << 63 + 300, 1 << 63 + 70_000, .max - 1]
        for n in [1, 2, 7, 8, 9, 255, 511] {
            let entries = (0..<n).map { TreeKey(hi: his[0] + UInt64($0), lo: Int64($0)) }
            let last = entries[n - 1]
            try checkIndexAppend(entries, TreeKey(hi: last.hi + 1, lo: last.lo + 1))
            try checkIndexAppend(entries, TreeKey(hi: last.hi, lo: last.lo + 1))
            try checkIndexAppend(entries, TreeKey(hi: last.hi, lo: .max))
            for hi in his where hi > last.hi { try checkIndexAppend(entries, TreeKey(hi: hi, lo: -5)) }
        }
        for _ in 0..<200 {
            let n = Int.random(in: 1...40, using: &rng)
            var entries = (0..<n).map { _ in
                TreeKey(
                    hi: UInt64.random(in: 0...(1 << 40), using: &rng), lo: Int64.random(in: -1000...1000, using: &rng))
            }
            entries.sort()
            let last = entries[n - 1]
            try checkIndexAppend(
                entries,
                TreeKey(
                    hi: last.hi + UInt64.random(in: 0...3, using: &rng),
                    lo: last.lo + Int64.random(in: 1...1 << 33, using: &rng)))
        }
    }

    @Test func innerReplaceMatchesEncoding() throws {
        let children = (0..<5).map {
            TreeChild(
                firstKey: TreeKey(hi: 0, lo: Int64($0) * 100), count: 100 + $0, ref: UInt64(4096 + 64 * $0), node: nil)
        }
        let bytes = InnerNodeCodec.encode(children)
        for i in children.indices {
            var changed = children
            changed[i].ref = 999_992
            changed[i].count += 1
            var out: [UInt8] = []
            try bytes.withUnsafeBytes { raw in
                let view = try InnerNodeCodec.View(raw, path: "test", ref: 0)
                InnerNodeCodec.replacing(view, child: i, with: changed[i], into: &out)
            }
            #expect(out == InnerNodeCodec.encode(changed))
        }
    }

    /// One object per commit into trees three levels deep (cluster) and two (primary-key index),
    /// with a string index beside them (not appended in order: the generic path), a transaction
    /// that appends again to the nodes it wrote, and a cancelled one.
    @Test func smallCommitsIntoDeepTrees() throws {
        let dir = TempDir()
        let path = dir.path("deep.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        let bulk = Limits.clusterRows * Limits.innerFanout + 300
        try realm.write {
            for i in 0..<bulk { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("n\(i % 97)")]) }
        }
        for i in bulk..<(bulk + 40) {
            try realm.write {
                try realm.create("Person", ["id": .int(Int64(i)), "name": .string("s\(i)"), "age": .int(Int64(i % 7))])
            }
        }
        try realm.write {
            for i in (bulk + 40)..<(bulk + 43) {
                try realm.create("Person", ["id": .int(Int64(i)), "name": .string("t\(i)")])
            }
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try realm.beginWrite()
        try realm.create("Person", ["id": .int(Int64(bulk + 43)), "name": .string("cancelled")])
        realm.cancelWrite()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        let total = bulk + 43
        #expect(try realm.checkIntegrity().objects["Person"] == total)
        for i in [0, bulk - 1, bulk, bulk + 20, bulk + 39, bulk + 40, bulk + 42] {
            let person = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i))))
            #expect(try person.value(forKey: "id") == .int(Int64(i)))
        }
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(total))) == nil)
        #expect(try realm.objects("Person").filter("name == 's\(bulk + 7)'").count == 1)
        let reopened = try Realm(path: path)
        #expect(try reopened.checkIntegrity().objects["Person"] == total)
    }
}

/// The writer's pending nodes live back to back in one buffer: a run of nodes adjacent in the
/// file but built in another order is gathered before it is written, checksums are read from the
/// pending bytes, and a cancel puts back every byte.
@Suite struct PendingNodeTests {
    @Test func runsBuiltOutOfFileOrderAreWrittenWhole() throws {
        let dir = TempDir()
        let path = dir.path("pending.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("one")]) }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try realm.beginWrite()
        let writer = try #require(realm.transaction).writer
        var a = Node.build(kind: .indexLeaf, payload: [UInt8](repeating: 0xA1, count: 40))
        var b = Node.build(kind: .indexLeaf, payload: [UInt8](repeating: 0xB2, count: 21))
        let first = writer.free.allocate(a.count + b.count)
        try writer.ensureSize(writer.free.logicalSize)
        writer.deferWrites = true
        // Built b first, though it goes second in the file; then a single node elsewhere.
        try writer.writeNode(b, at: first + UInt64(a.count))
        try writer.writeNode(a, at: first)
        // As written: each checksum bound to its ref (read format 3).
        #expect(writer.placeBound)
        let bAt = first + UInt64(a.count)
        a.withUnsafeMutableBytes { Node.bindChecksum($0, to: first) }
        b.withUnsafeMutableBytes { Node.bindChecksum($0, to: bAt) }
        let checksum = { (node: [UInt8]) in
            node.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self)) }
        }
        #expect(writer.writtenChecksum(first) == checksum(a))
        #expect(writer.writtenChecksum(first + UInt64(a.count)) == checksum(b))
        try writer.flush()
        writer.deferWrites = false
        let written = Array(
            UnsafeRawBufferPointer(start: realm.shared.file.base + Int(first), count: a.count + b.count))
        #expect(written == a + b)
        #expect(writer.writtenChecksum(first + UInt64(a.count)) == checksum(b))
        realm.cancelWrite()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(try realm.checkIntegrity().objects["Person"] == 1)
    }
}
