import Testing
@testable import RealmEngine

@Suite struct ClusterPackedIntsTests {
    private func view(_ values: [Int64]) throws -> (bytes: [UInt8], width: Int, decoded: [Int64]) {
        let props = [Property(name: "n", type: .int)]
        let data = ClusterData(keys: (0..<Int64(values.count)).map { $0 }, columns: [values.map { .int($0) }])
        let bytes = ClusterFixtures.encode(data, props)
        return try bytes.withUnsafeBytes { raw in
            let v = try ClusterView(raw, columns: props)
            let p = try #require(v.packedInts(column: 0))
            var out = [Int64]()
            p.unpack(0..<p.count, into: &out)
            #expect((0..<p.count).map { p[$0] } == out)
            return (bytes, p.width, out)
        }
    }

    @Test func widthIsTheSmallestThatHoldsTheRange() throws {
        let widths = [0, 1, 2, 4, 8, 16, 32, 64]
        for (k, w) in widths.enumerated() where w < 64 {
            for base in [Int64(0), -5, 1 << 40, Int64.min, Int64.max - (w == 0 ? 0 : (1 << w) - 1)] {
                let top = w == 0 ? base : base + ((1 << Int64(w)) - 1)
                let values = [base, top, base, top, base]
                let fits = try view(values)
                #expect(fits.width == w, "range 2^\(w)-1 from \(base)")
                #expect(fits.decoded == values)
                if base <= Int64.max - (1 << Int64(w)) {
                    let over = try view([base, top + 1, base])
                    #expect(over.width == widths[k + 1], "range 2^\(w) from \(base)")
                    #expect(over.decoded == [base, top + 1, base])
                }
            }
        }
        let full = try view([.min, .max, 0, -1])
        #expect(full.width == 64)
        #expect(full.decoded == [.min, .max, 0, -1])
    }

    @Test func oddCountsAtSubByteWidths() throws {
        for w in [1, 2, 4] {
            for n in [1, 2, 3, 5, 7, 9, 255, 257] {
                let values = (0..<n).map { Int64(($0 * 7) % (1 << w)) - 3 }
                let out = try view(values)
                #expect(out.decoded == values)
                #expect(out.width <= w)
            }
        }
    }

    @Test func countInRangeMatchesAFilter() throws {
        var rng = SeededGenerator(seed: 9)
        for spread in [Int64(0), 1, 3, 15, 99, 60_000, 1 << 40, .max] {
            let values: [Int64] = (0..<300).map { _ in
                spread == .max ? Int64(bitPattern: rng.next()) : Int64.random(in: -7...(spread - 7), using: &rng)
            }
            let props = [Property(name: "n", type: .int)]
            let bytes = ClusterFixtures.encode(
                ClusterData(keys: (0..<300).map { Int64($0) }, columns: [values.map { .int($0) }]), props)
            try bytes.withUnsafeBytes { raw in
                let p = try #require(try ClusterView(raw, columns: props).packedInts(column: 0))
                for (lo, hi) in [
                    (Int64(20), Int64(30)), (.min, .max), (-7, -6), (0, 1), (.max - 1, .max), (5, 5), (9, 3),
                    (-100, 100),
                ] {
                    #expect(
                        p.count(inRange: lo, hi) == values.filter { $0 >= lo && $0 < hi }.count,
                        "spread \(spread) [\(lo), \(hi))")
                }
            }
        }
    }

    /// Width 8 counts eight values a step when the range is at most 128 wide: every bound pair
    /// around the edges of that path agrees with a plain filter, at counts not a multiple of 8.
    @Test func countInRangeAtWidthEightMatchesAFilter() throws {
        var rng = SeededGenerator(seed: 12)
        for n in [5, 16, 61, 300] {
            let values: [Int64] = (0..<n).map { _ in Int64.random(in: 0...255, using: &rng) + 1000 }
            let props = [Property(name: "n", type: .int)]
            let bytes = ClusterFixtures.encode(
                ClusterData(keys: (0..<n).map { Int64($0) }, columns: [values.map { .int($0) }]), props)
            try bytes.withUnsafeBytes { raw in
                let p = try #require(try ClusterView(raw, columns: props).packedInts(column: 0))
                #expect(p.width == 8 || n < 16)
                let edges: [Int64] = [-5, 0, 1, 2, 63, 64, 100, 126, 127, 128, 129, 130, 200, 254, 255, 256, 300]
                for a in edges {
                    for b in edges {
                        let lo = p.base + a
                        let hi = p.base + b
                        #expect(
                            p.count(inRange: lo, hi) == values.filter { $0 >= lo && $0 < hi }.count,
                            "n \(n) [\(a), \(b))")
                    }
                }
            }
        }
    }

    @Test func optionalIntColumnsExposeNulls() throws {
        let props = [Property(name: "n", type: .int, isOptional: true)]
        let data = ClusterData(keys: [1, 2, 3], columns: [[.int(500), .null, .int(503)]])
        let bytes = ClusterFixtures.encode(data, props)
        try bytes.withUnsafeBytes { raw in
            let v = try ClusterView(raw, columns: props)
            #expect(v.hasNulls(column: 0))
            #expect(v.isNull(row: 1, column: 0))
            let p = try #require(v.packedInts(column: 0))
            #expect(p.width == 2)  // the null slot does not widen the column
            #expect(p[0] == 500 && p[2] == 503)
        }
    }

    /// The computed width and code agree with the table the format defines.
    @Test func computedWidthsMatchTheTable() {
        for bits in 0...64 {
            #expect(PackedInts.width(holding: bits) == PackedInts.widthCodes.first { $0 >= bits })
        }
        for (code, width) in PackedInts.widthCodes.enumerated() { #expect(PackedInts.code(ofWidth: width) == code) }
    }
}
