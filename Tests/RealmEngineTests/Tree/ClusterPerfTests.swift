import Foundation
import Testing
@testable import RealmEngine

/// Size numbers (always) and speed numbers (with `CLUSTER_BENCH=1`, meant for `-c release`).
/// Prints measurements; asserts only sizes, never timings.
@Suite struct ClusterPerfTests {
    static let props = [
        Property(name: "id", type: .int),
        Property(name: "name", type: .string),
        Property(name: "age", type: .int),
        Property(name: "score", type: .double),
        Property(name: "createdAt", type: .date),
    ]

    /// 256 objects as the bulk-insert benchmark makes them.
    static func people(first: Int64, count: Int = 256, _ rng: inout SeededGenerator) -> ClusterData {
        let keys = (0..<Int64(count)).map { first + $0 }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var columns: [[Value]] = Array(repeating: [], count: 5)
        for k in keys {
            columns[0].append(.int(k))
            columns[1].append(.string(String((0..<10).map { _ in letters[Int.random(in: 0..<26, using: &rng)] })))
            columns[2].append(.int(Int64.random(in: 0...99, using: &rng)))
            columns[3].append(.double(Double.random(in: 0..<100, using: &rng)))
            // Foundation dates hold microseconds: nanoseconds are multiples of 1000.
            columns[4].append(
                .date(
                    Timestamp(
                        seconds: 1_700_000_000 + k, nanoseconds: Int32.random(in: 0..<1_000_000, using: &rng) * 1000)))
        }
        return ClusterData(keys: keys, columns: columns)
    }

    @Test func bytesPerObjectOfATypicalLeaf() {
        var rng = SeededGenerator(seed: 5)
        let data = Self.people(first: 1_000_000, &rng)
        let size = ClusterCodec.encodedSize(data, columns: Self.props)
        print(
            "cluster: 256 × {id, name(10), age, score, createdAt} = \(size) bytes, \(Double(size) / 256) bytes/object")
        // keys 0 B, id 1 B, name 2 + 10 B, age 1 B, score 8 B, date 1 + 4 B per object, plus headers.
        #expect(size < 256 * 28 + 64)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CLUSTER_BENCH"] != nil))
    func encodeAndScanAMillionObjects() throws {
        var rng = SeededGenerator(seed: 6)
        let leaves = (0..<3907).map { Self.people(first: Int64($0) * 256, &rng) }  // 1,000,192 objects
        let clock = ContinuousClock()
        var out = [UInt8]()
        var bytes = 0
        var offsets = [Int]()
        let encode = clock.measure {
            out.removeAll(keepingCapacity: true)
            offsets.removeAll()
            for leaf in leaves {
                offsets.append(out.count)
                ClusterCodec.encode(leaf, columns: Self.props, into: &out)
            }
            bytes = out.count
        }
        offsets.append(out.count)
        let sizing = clock.measure {
            var total = 0
            for leaf in leaves { total += ClusterCodec.encodedSize(leaf, columns: Self.props) }
            #expect(total == bytes)
        }
        var matches = 0
        let scan = try clock.measure {
            try out.withUnsafeBytes { raw in
                for l in 0..<leaves.count {
                    let view = try ClusterView(
                        UnsafeRawBufferPointer(rebasing: raw[offsets[l]..<offsets[l + 1]]), columns: Self.props)
                    if let age = view.packedInts(column: 2) { matches += age.count(inRange: 20, 30) }
                }
            }
        }
        var decoded = 0
        let decode = try clock.measure {
            try out.withUnsafeBytes { raw in
                for l in 0..<leaves.count {
                    let view = try ClusterView(
                        UnsafeRawBufferPointer(rebasing: raw[offsets[l]..<offsets[l + 1]]), columns: Self.props)
                    decoded += view.decode().keys.count
                }
            }
        }
        print(
            "cluster bench: 1,000,192 objects in \(leaves.count) leaves, \(bytes) bytes (\(Double(bytes) / 1_000_192) B/object)"
        )
        print(
            "cluster bench: encode \(encode), encodedSize \(sizing), view+count(age 20..<30) \(scan) → \(matches), view+decode \(decode) → \(decoded)"
        )
    }
}
