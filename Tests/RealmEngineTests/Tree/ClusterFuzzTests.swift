import Foundation
import Testing
@testable import RealmEngine

/// Bad bytes must never trap: every mutation of a valid payload either fails validation or
/// yields a view whose every accessor returns.
/// Under `--sanitize=address` any read past the payload is reported: the bytes are copied into
/// an allocation of exactly their size (a `[UInt8]` may have slack capacity after its end).
@Suite(.tags(.integrity, .slow)) struct ClusterFuzzTests {
    private func withExactBytes<R>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        bytes.withUnsafeBytes { if $0.count > 0 { buffer.copyMemory(from: $0) } }
        return try body(UnsafeRawBufferPointer(buffer))
    }

    /// Calls every accessor on every row and column.
    private func exercise(_ view: ClusterView, _ props: [Property], _ rng: inout SeededGenerator) -> Int {
        var sink = 0
        for row in 0..<view.count {
            sink &+= Int(truncatingIfNeeded: view.key(at: row))
            if view.row(of: view.key(at: row)) != row { sink &+= 1 }
            for c in 0..<props.count {
                sink &+= view.isNull(row: row, column: c) ? 1 : 0
                sink &+= Int(truncatingIfNeeded: view.int(row: row, column: c))
                sink &+= Int(view.double(row: row, column: c).bitPattern & 1)
                sink &+= Int(truncatingIfNeeded: view.timestamp(row: row, column: c).seconds)
                sink &+= view.withBytes(row: row, column: c) { $0.reduce(0) { $0 &+ Int($1) } }
                sink &+= view.listCount(row: row, column: c)
                for i in view.listRange(row: row, column: c) {
                    sink &+= view.element(column: c, index: i).isNull ? 1 : 0
                }
                sink &+= view.value(row: row, column: c).description.utf8.count
            }
        }
        for c in 0..<props.count {
            if let p = view.packedInts(column: c) { sink &+= p.count(inRange: -50, 50) }
        }
        _ = view.row(of: Int64(bitPattern: rng.next()))
        sink &+= view.decode().keys.count
        return sink
    }

    private func corpus() -> [(props: [Property], bytes: [UInt8])] {
        var rng = SeededGenerator(seed: 2024)
        var out = [(props: [Property], bytes: [UInt8])]()
        let all = ClusterFixtures.allColumns
        for rows in [0, 1, 3, 17] {
            let data = ClusterFixtures.randomCluster(all, rows: rows, &rng)
            out.append((all, ClusterFixtures.encode(data, all)))
        }
        for t in ClusterFixtures.scalarTypes {
            for (optional, list) in [(false, false), (true, false), (true, true)] {
                let props = [
                    Property(name: "k", type: .int), Property(name: "x", type: t, isOptional: optional, isList: list),
                ]
                let data = ClusterFixtures.randomCluster(props, rows: 9, &rng)
                out.append((props, ClusterFixtures.encode(data, props)))
            }
        }
        return out
    }

    @Test func validEncodingsValidate() throws {
        var rng = SeededGenerator(seed: 1)
        for (props, bytes) in corpus() {
            try withExactBytes(bytes) { raw in _ = exercise(try ClusterView(raw, columns: props), props, &rng) }
        }
    }

    @Test func everyTruncationThrows() {
        for (props, bytes) in corpus().prefix(8) {
            for n in 0..<bytes.count {
                let cut = Array(bytes[..<n])
                #expect(throws: CodecError.self) { try withExactBytes(cut) { try ClusterView($0, columns: props) } }
            }
        }
    }

    @Test func randomByteFlipsNeverTrap() {
        var rng = SeededGenerator(seed: 77)
        var accepted = 0
        var rejected = 0
        let corpus = corpus()
        // CLUSTER_FUZZ_ROUNDS=300000 for a longer run (release build recommended).
        let rounds = TestSize.rounds("CLUSTER_FUZZ_ROUNDS", ci: 12_000)
        for round in 0..<rounds {
            let (props, original) = corpus[round % corpus.count]
            var bytes = original
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:  // a few random bytes
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            case 1:  // one bit
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            case 2:  // a byte in the structural prefix (header, keys, offset table, first blocks)
                let i = Int.random(in: 0..<min(bytes.count, 80), using: &rng)
                bytes[i] = UInt8.random(in: 0...255, using: &rng)
            default:  // truncate and pad with garbage
                bytes = Array(bytes[..<Int.random(in: 0..<bytes.count, using: &rng)])
                bytes += (0..<Int.random(in: 0...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
            let ok: Bool = withExactBytes(bytes) { raw in
                guard let view = try? ClusterView(raw, columns: props) else { return false }
                _ = exercise(view, props, &rng)
                return true
            }
            if ok { accepted += 1 } else { rejected += 1 }
        }
        print("cluster fuzz: \(rounds) mutations, \(accepted) accepted and fully read, \(rejected) rejected")
        // Both outcomes must occur, or the mutations are not reaching the interesting paths.
        #expect(accepted > 100 && rejected > 100, "accepted \(accepted), rejected \(rejected)")
    }

    @Test func hugeClaimedCountsAreRefusedWithoutAllocating() throws {
        // An int list column whose element count claims 2^40 at width 0.
        let props = [Property(name: "l", type: .int, isList: true)]
        let bytes = ClusterFixtures.encode(ClusterData(keys: [1], columns: [[.list([.int(1), .int(1)])]]), props)
        // Locate the list end-offset block: after header (12), keys block (2 bytes: header + base 1),
        // offset table (4), the list flags byte (1).
        var bad = bytes
        let endsAt = 12 + 2 + 4 + 1
        #expect(bad[endsAt] == 0x10)  // width 0, one base byte (2)
        bad.replaceSubrange(endsAt..<endsAt + 2, with: [0x60, 0, 0, 0, 0, 0, 1])  // base = 2^40
        let fixedLength = UInt32(bad.count).littleEndian
        withUnsafeBytes(of: fixedLength) { bad.replaceSubrange(8..<12, with: $0) }
        #expect(throws: CodecError.self) { try bad.withUnsafeBytes { try ClusterView($0, columns: props) } }
    }
}
