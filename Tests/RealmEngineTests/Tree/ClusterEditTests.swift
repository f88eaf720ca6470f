import Foundation
import Testing
@testable import RealmEngine

/// `replacingColumn` and `removingRows` must write what decode → change → encode writes
/// (checked byte for byte, and decode-equal, and accepted by `ClusterView`).
@Suite struct ClusterEditTests {
    /// The payload, followed by junk: edits must use the header's length, not the buffer's.
    private static func withPayload<R>(
        _ data: ClusterData, _ props: [Property],
        _ body: (ClusterView, UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        var bytes = ClusterFixtures.encode(data, props)
        let length = bytes.count
        bytes += [0xEE, 0xFF, 0x01]
        return try bytes.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[..<length])
            return try body(try ClusterView(raw, columns: props), payload)
        }
    }

    private static func check(
        _ actual: [UInt8], expected: ClusterData, _ props: [Property], _ what: @autoclosure () -> String
    ) throws {
        let wanted = ClusterFixtures.encode(expected, props)
        #expect(actual == wanted, "bytes differ: \(what())")
        let back = try actual.withUnsafeBytes { try ClusterView($0, columns: props).decode() }
        #expect(ClusterFixtures.same(back, expected), "decode differs: \(what())")
    }

    static func removing(_ rows: [Int], from data: ClusterData) -> ClusterData {
        let gone = Set(rows)
        let keep = (0..<data.count).filter { !gone.contains($0) }
        return ClusterData(keys: keep.map { data.keys[$0] }, columns: data.columns.map { col in keep.map { col[$0] } })
    }

    /// Row subsets worth trying on a leaf of `n` rows.
    static func subsets(_ n: Int, _ rng: inout SeededGenerator) -> [[Int]] {
        var out: [[Int]] = [[]]
        guard n > 0 else { return out }
        out.append([0])
        out.append([n - 1])
        out.append(Array(0..<n))
        let spared = Int.random(in: 0..<n, using: &rng)
        out.append((0..<n).filter { $0 != spared })
        out.append(Array(stride(from: 0, to: n, by: 2)))
        out.append(Array(0..<(n / 2)))
        for _ in 0..<3 {
            let p = Double.random(in: 0.05...0.9, using: &rng)
            out.append((0..<n).filter { _ in Double.random(in: 0..<1, using: &rng) < p })
        }
        return out
    }

    @Test(arguments: [0, 1, 2, 9, 33, 256])
    func replacingEveryColumnMatchesReencoding(rows: Int) throws {
        let props = ClusterFixtures.allColumns
        for seed in 0..<UInt64(rows >= 256 ? 2 : 5) {
            var rng = SeededGenerator(seed: seed &* 104_729 &+ UInt64(rows))
            let data = ClusterFixtures.randomCluster(props, rows: rows, &rng)
            try Self.withPayload(data, props) { view, payload in
                for (c, p) in props.enumerated() {
                    var values = (0..<rows).map { _ in ClusterFixtures.randomValue(p, &rng) }
                    if c % 3 == 0, rows > 0 {
                        // All null / all equal variants change the block's shape (no bitmap, width 0).
                        values = Array(repeating: values[0], count: rows)
                    }
                    var expected = data
                    expected.columns[c] = values
                    var out: [UInt8] = [1, 2, 3]
                    ClusterCodec.replacingColumn(
                        view, payload: payload, columns: props, column: c, values: values, into: &out)
                    #expect(out.prefix(3) == [1, 2, 3])
                    try Self.check(
                        Array(out.dropFirst(3)), expected: expected, props, "seed \(seed) rows \(rows) column \(p.name)"
                    )
                }
            }
        }
    }

    @Test(arguments: [0, 1, 2, 9, 33, 256])
    func removingRowsMatchesReencoding(rows: Int) throws {
        let props = ClusterFixtures.allColumns
        for seed in 0..<UInt64(rows >= 256 ? 2 : 5) {
            var rng = SeededGenerator(seed: seed &* 7_777 &+ UInt64(rows))
            let data = ClusterFixtures.randomCluster(props, rows: rows, &rng)
            try Self.withPayload(data, props) { view, payload in
                for subset in Self.subsets(rows, &rng) {
                    var out: [UInt8] = [9]
                    ClusterCodec.removingRows(view, payload: payload, columns: props, rows: subset, into: &out)
                    #expect(out.first == 9)
                    try Self.check(
                        Array(out.dropFirst()), expected: Self.removing(subset, from: data), props,
                        "seed \(seed) rows \(rows) removing \(subset)")
                }
            }
        }
    }

    /// One column per type/variant, so that each column's own packing decisions (null slots =
    /// minimum, width changes when extremes go, bitmap dropped when the last nil goes) are hit often.
    @Test func removingRowsPerColumnTypeRandomized() throws {
        var rng = SeededGenerator(seed: 31)
        for p in ClusterFixtures.allColumns {
            let props = [Property(name: "k", type: .int), p]
            for _ in 0..<12 {
                let rows = Int.random(in: 1...40, using: &rng)
                let data = ClusterFixtures.randomCluster(props, rows: rows, &rng)
                try Self.withPayload(data, props) { view, payload in
                    for subset in Self.subsets(rows, &rng) {
                        var out = [UInt8]()
                        ClusterCodec.removingRows(view, payload: payload, columns: props, rows: subset, into: &out)
                        try Self.check(
                            out, expected: Self.removing(subset, from: data), props,
                            "\(p.name) rows \(rows) removing \(subset)")
                    }
                }
            }
        }
    }

    /// Survivors in short runs (what a filtered delete such as `age < 50` leaves): every column
    /// type, with and without nulls, strings and lists, against decode → remove → encode.
    @Test(arguments: [1, 2, 3])
    func shortRunsOfSurvivorsMatchReencoding(maxRun: Int) throws {
        let props = ClusterFixtures.allColumns
        var rng = SeededGenerator(seed: 4_242 &+ UInt64(maxRun))
        let rows = 256
        let data = ClusterFixtures.randomCluster(props, rows: rows, &rng)
        try Self.withPayload(data, props) { view, payload in
            for _ in 0..<4 {
                var removed = [Int]()
                var r = 0
                var keep = Bool.random(using: &rng)
                while r < rows {
                    let run = Int.random(in: 1...maxRun, using: &rng)
                    if !keep { removed.append(contentsOf: r..<min(rows, r + run)) }
                    r += run
                    keep.toggle()
                }
                var out = [UInt8]()
                ClusterCodec.removingRows(view, payload: payload, columns: props, rows: removed, into: &out)
                try Self.check(
                    out, expected: Self.removing(removed, from: data), props, "runs ≤ \(maxRun) removing \(removed)")
            }
        }
    }

    @Test func repeatedRowsAreRemovedOnce() throws {
        let props = [Property(name: "s", type: .string, isOptional: true)]
        let data = ClusterData(keys: [10, 11, 20, 21], columns: [[.string("a"), .null, .string("ccc"), .string("")]])
        try Self.withPayload(data, props) { view, payload in
            var out = [UInt8]()
            ClusterCodec.removingRows(view, payload: payload, columns: props, rows: [1, 1, 2, 2], into: &out)
            try Self.check(out, expected: Self.removing([1, 2], from: data), props, "repeats")
        }
    }

    /// A list column crossing `listElementsFreeOfBits`: its element block drops the 1-bit minimum
    /// when enough rows go, and keeps it otherwise.
    @Test func listElementCountCrossingTheFreeOfBitsLimit() throws {
        let props = [Property(name: "l", type: .int, isList: true), Property(name: "b", type: .bool, isList: true)]
        let rows = 1000
        let data = ClusterData(
            keys: (0..<Int64(rows)).map { $0 * 2 },
            columns: [
                Array(repeating: .list(Array(repeating: .int(7), count: 5)), count: rows),
                Array(
                    repeating: .list([.bool(false), .bool(false), .bool(false), .bool(false), .bool(false)]),
                    count: rows),
            ])
        try Self.withPayload(data, props) { view, payload in
            for subset in [Array(0..<300), Array(0..<100), [5], Array(0..<999)] {
                var out = [UInt8]()
                ClusterCodec.removingRows(view, payload: payload, columns: props, rows: subset, into: &out)
                try Self.check(out, expected: Self.removing(subset, from: data), props, "removing \(subset.count)")
            }
            var out = [UInt8]()
            let fewer = Array(repeating: Value.list([.int(7)]), count: rows)
            ClusterCodec.replacingColumn(view, payload: payload, columns: props, column: 0, values: fewer, into: &out)
            var expected = data
            expected.columns[0] = fewer
            try Self.check(out, expected: expected, props, "replacing")
        }
    }

    @Test func editsChainOnTheirOwnOutput() throws {
        let props = ClusterFixtures.allColumns
        var rng = SeededGenerator(seed: 77)
        var data = ClusterFixtures.randomCluster(props, rows: 120, &rng)
        var bytes = ClusterFixtures.encode(data, props)
        for step in 0..<20 {
            var out = [UInt8]()
            try bytes.withUnsafeBytes { raw in
                let view = try ClusterView(raw, columns: props)
                if step % 2 == 0 {
                    let c = Int.random(in: 0..<props.count, using: &rng)
                    let values = (0..<data.count).map { _ in ClusterFixtures.randomValue(props[c], &rng) }
                    ClusterCodec.replacingColumn(
                        view, payload: raw, columns: props, column: c, values: values, into: &out)
                    data.columns[c] = values
                } else {
                    let subset = (0..<data.count).filter { _ in Int.random(in: 0..<8, using: &rng) == 0 }
                    ClusterCodec.removingRows(view, payload: raw, columns: props, rows: subset, into: &out)
                    data = Self.removing(subset, from: data)
                }
            }
            try Self.check(out, expected: data, props, "step \(step)")
            bytes = out
        }
    }

    /// ns/row of both edits against decode → change → encode (with `CLUSTER_BENCH=1`, meant for
    /// `-c release`). Prints only.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CLUSTER_BENCH"] != nil))
    func editSpeedPerRow() throws {
        let props = ClusterPerfTests.props
        var rng = SeededGenerator(seed: 8)
        let leafCount = 400
        let leaves = (0..<leafCount).map { ClusterPerfTests.people(first: Int64($0) * 256, &rng) }
        var payload = [UInt8]()
        var offsets = [0]
        for leaf in leaves {
            ClusterCodec.encode(leaf, columns: props, into: &payload)
            offsets.append(payload.count)
        }
        let newAges = (0..<256).map { Value.int(Int64(($0 * 7) % 100)) }
        let newNames = (0..<256).map { Value.string("renamed\($0 % 1000)") }
        let oneRow = [17]
        let tenth = Array(stride(from: 3, to: 256, by: 10))
        let half = Array(stride(from: 0, to: 256, by: 2))
        var out = [UInt8]()
        out.reserveCapacity(payload.count * 2)
        let clock = ContinuousClock()
        let rounds = 7

        func median(_ body: (UnsafeRawBufferPointer, ClusterView) -> Void) throws -> Double {
            var samples = [Double]()
            try payload.withUnsafeBytes { raw in
                let views = try (0..<leafCount).map { l in
                    try ClusterView(UnsafeRawBufferPointer(rebasing: raw[offsets[l]..<offsets[l + 1]]), columns: props)
                }
                for _ in 0..<rounds {
                    out.removeAll(keepingCapacity: true)
                    let d = clock.measure {
                        for l in 0..<leafCount {
                            body(UnsafeRawBufferPointer(rebasing: raw[offsets[l]..<offsets[l + 1]]), views[l])
                        }
                    }
                    samples.append(Double(d.components.attoseconds) / 1e9 + Double(d.components.seconds) * 1e9)
                }
            }
            samples.sort()
            return samples[rounds / 2] / Double(leafCount * 256)
        }
        func fmt(_ x: Double) -> String { String(format: "%7.1f", x) }

        let replaceAge = try median { p, v in
            ClusterCodec.replacingColumn(v, payload: p, columns: props, column: 2, values: newAges, into: &out)
        }
        let reencodeAge = try median { _, v in
            var d = v.decode()
            d.columns[2] = newAges
            ClusterCodec.encode(d, columns: props, into: &out)
        }
        let replaceName = try median { p, v in
            ClusterCodec.replacingColumn(v, payload: p, columns: props, column: 1, values: newNames, into: &out)
        }
        let reencodeName = try median { _, v in
            var d = v.decode()
            d.columns[1] = newNames
            ClusterCodec.encode(d, columns: props, into: &out)
        }
        print("cluster edit bench (ns/row, 256-row leaves × \(leafCount), median of \(rounds)):")
        print(
            "  replace age    : replacingColumn \(fmt(replaceAge))  vs decode+encode \(fmt(reencodeAge))  (×\(String(format: "%.1f", reencodeAge / replaceAge)))"
        )
        print(
            "  replace name   : replacingColumn \(fmt(replaceName))  vs decode+encode \(fmt(reencodeName))  (×\(String(format: "%.1f", reencodeName / replaceName)))"
        )
        for (label, rows) in [("remove 1 row ", oneRow), ("remove 1/10  ", tenth), ("remove 1/2   ", half)] {
            let native = try median { p, v in
                ClusterCodec.removingRows(v, payload: p, columns: props, rows: rows, into: &out)
            }
            let gone = Set(rows)
            let reencode = try median { _, v in
                let d = v.decode()
                let keep = (0..<d.count).filter { !gone.contains($0) }
                ClusterCodec.encode(
                    ClusterData(keys: keep.map { d.keys[$0] }, columns: d.columns.map { col in keep.map { col[$0] } }),
                    columns: props, into: &out)
            }
            print(
                "  \(label)  : removingRows    \(fmt(native))  vs decode+encode \(fmt(reencode))  (×\(String(format: "%.1f", reencode / native)))"
            )
        }
    }
}
