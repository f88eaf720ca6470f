import Foundation
import Testing
@testable import RealmEngine

/// Builders and comparisons shared by the cluster tests.
enum ClusterFixtures {
    static let scalarTypes: [PropertyType] = [
        .bool, .int, .int8, .int16, .int32, .float, .double, .string, .date, .data, .objectId, .uuid, .decimal128,
        .object, .mixed,
    ]

    /// Every type as required, optional, list, list of optionals, dictionary and dictionary of
    /// optionals (links: to-one, list and dictionary).
    static var allColumns: [Property] {
        var out = [Property]()
        for t in scalarTypes {
            let target: String? = t == .object ? "Target" : nil
            out.append(Property(name: "\(t)", type: t, objectClassName: target))
            if t != .object {
                out.append(Property(name: "\(t)?", type: t, isOptional: true))
                out.append(Property(name: "\(t)?[]", type: t, isOptional: true, isList: true))
            }
            out.append(Property(name: "\(t)[]", type: t, isList: true, objectClassName: target))
            out.append(Property(name: "\(t){}", type: t, isMap: true, objectClassName: target))
            if t != .object { out.append(Property(name: "\(t)?{}", type: t, isOptional: true, isMap: true)) }
        }
        return out
    }

    static func randomString(_ rng: inout SeededGenerator) -> String {
        let pieces = ["", "a", "hello", "名前", "日本語テキスト", "😀", "ü", " ", "\u{0}", "x\u{301}"]
        var s = ""
        for _ in 0..<Int.random(in: 0...4, using: &rng) { s += pieces.randomElement(using: &rng) ?? "" }
        return s
    }

    static func randomScalar(_ t: PropertyType, _ rng: inout SeededGenerator) -> Value {
        switch t {
        case .bool: return .bool(Bool.random(using: &rng))
        case .int:
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return .int([Int64.min, Int64.max, 0, -1, 1].randomElement(using: &rng) ?? 0)
            case 1: return .int(Int64.random(in: -100...100, using: &rng))
            default: return .int(Int64(bitPattern: rng.next()))
            }
        case .int8: return .int(Int64(Int8.random(in: .min ... .max, using: &rng)))
        case .int16: return .int(Int64(Int16.random(in: .min ... .max, using: &rng)))
        case .int32: return .int(Int64(Int32.random(in: .min ... .max, using: &rng)))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())))
        case .double:
            let specials: [Double] = [
                .nan, -.nan, .infinity, -.infinity, -0.0, 0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            ]
            return Bool.random(using: &rng)
                ? .double(specials.randomElement(using: &rng) ?? 0) : .double(Double(bitPattern: rng.next()))
        case .string: return .string(randomString(&rng))
        case .date:
            return .date(
                Timestamp(
                    seconds: Int64.random(in: -5_000_000_000...5_000_000_000, using: &rng),
                    nanoseconds: Int32.random(in: 0..<1_000_000_000, using: &rng)))
        case .data:
            return .data(
                Data((0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        case .objectId:
            return .objectId(
                ObjectId(
                    words: (
                        UInt32(truncatingIfNeeded: rng.next()), UInt32(truncatingIfNeeded: rng.next()),
                        UInt32(truncatingIfNeeded: rng.next())
                    )))
        case .uuid:
            var u = UUID().uuid
            withUnsafeMutableBytes(of: &u) { for k in 0..<16 { $0[k] = UInt8.random(in: 0...255, using: &rng) } }
            return .uuid(UUID(uuid: u))
        case .decimal128:
            // Any 16 bytes are a decimal (NaNs, infinities, non-canonical forms too): all round-trip.
            let specials: [Decimal128] = [
                .zero, .nan, .infinity, -.infinity, Decimal128(-1), Decimal128(low: 5, high: 0x6000_0000_0000_0000),
            ]
            return Bool.random(using: &rng)
                ? .decimal128(specials.randomElement(using: &rng) ?? .zero)
                : .decimal128(Decimal128(low: rng.next(), high: rng.next()))
        case .object: return .link(ObjectKey(Int64.random(in: 0...1_000_000, using: &rng)))
        case .linkingObjects: return .null
        case .mixed:
            // Any scalar, a typed link, or a nested list or dictionary of them (two levels at most).
            switch Int.random(in: 0..<8, using: &rng) {
            case 0:
                return .typedLink(
                    TypedLink(className: randomString(&rng) + "C", key: ObjectKey(Int64(bitPattern: rng.next()))))
            case 1: return .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in randomScalar(.mixed, &rng) })
            case 2:
                var entries = [String: Value]()
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    entries[randomString(&rng)] = randomScalar(.mixed, &rng)
                }
                return .map(entries)
            default:
                let scalars = scalarTypes.filter { $0 != .object && $0 != .mixed }
                return randomScalar(scalars.randomElement(using: &rng) ?? .int, &rng)
            }
        }
    }

    static func randomValue(_ p: Property, _ rng: inout SeededGenerator) -> Value {
        if p.isMap {
            var entries = [String: Value]()
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                entries[randomString(&rng)] =
                    p.isOptional && Int.random(in: 0..<4, using: &rng) == 0 ? .null : randomScalar(p.type, &rng)
            }
            return .map(entries)
        }
        if p.isList {
            let n = Int.random(in: 0...5, using: &rng)
            return .list(
                (0..<n).map { _ in
                    p.isOptional && p.type != .object && Int.random(in: 0..<5, using: &rng) == 0
                        ? .null : randomScalar(p.type, &rng)
                })
        }
        if p.isOptional && Int.random(in: 0..<5, using: &rng) == 0 { return .null }
        return randomScalar(p.type, &rng)
    }

    static func randomCluster(_ props: [Property], rows: Int, _ rng: inout SeededGenerator) -> ClusterData {
        var keys = [Int64]()
        var k = Int64.random(in: 0...1000, using: &rng)
        let gappy = Bool.random(using: &rng)
        for _ in 0..<rows {
            keys.append(k)
            k += gappy ? Int64.random(in: 1...1_000, using: &rng) : 1
        }
        let columns = props.map { p in (0..<rows).map { _ in randomValue(p, &rng) } }
        return ClusterData(keys: keys, columns: columns)
    }

    static func encode(_ data: ClusterData, _ props: [Property]) -> [UInt8] {
        var out = [UInt8]()
        ClusterCodec.encode(data, columns: props, into: &out)
        return out
    }

    static func roundTrip(_ data: ClusterData, _ props: [Property]) throws -> ClusterData {
        let bytes = encode(data, props)
        #expect(bytes.count == ClusterCodec.encodedSize(data, columns: props))
        return try bytes.withUnsafeBytes { try ClusterView($0, columns: props).decode() }
    }

    /// Equality that compares floating-point values by bit pattern (NaN, −0).
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.list(let x), .list(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.map(let x), .map(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
        default: return a == b
        }
    }

    static func same(_ a: ClusterData, _ b: ClusterData) -> Bool {
        a.keys == b.keys && a.columns.count == b.columns.count
            && zip(a.columns, b.columns).allSatisfy { x, y in
                x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
            }
    }
}

@Suite struct ClusterCodecTests {
    @Test func emptyLeafRoundTrips() throws {
        let props = ClusterFixtures.allColumns
        let empty = ClusterData(columnCount: props.count)
        let back = try ClusterFixtures.roundTrip(empty, props)
        #expect(back == empty)
        let none = try ClusterFixtures.roundTrip(ClusterData(keys: [1, 2], columns: []), [])
        #expect(none.keys == [1, 2])
    }

    @Test(arguments: [1, 7, 8, 9, 64, 256, 1000])
    func everyTypeRoundTripsRandomized(rows: Int) throws {
        let props = ClusterFixtures.allColumns
        for seed in 0..<UInt64(rows > 256 ? 2 : 6) {
            var rng = SeededGenerator(seed: seed &* 7919 &+ UInt64(rows))
            let data = ClusterFixtures.randomCluster(props, rows: rows, &rng)
            let back = try ClusterFixtures.roundTrip(data, props)
            #expect(ClusterFixtures.same(data, back), "seed \(seed) rows \(rows)")
        }
    }

    @Test func edgeValuesRoundTripExactly() throws {
        let props = [
            Property(name: "i", type: .int, isOptional: true),
            Property(name: "f", type: .float),
            Property(name: "d", type: .double),
            Property(name: "s", type: .string, isOptional: true),
            Property(name: "t", type: .date),
            Property(name: "b", type: .data, isOptional: true),
        ]
        let quietNaN = Double(bitPattern: 0x7FF8_0000_0000_1234)
        let floatNaN = Float(bitPattern: 0xFFC0_0042)
        let rows: [[Value]] = [
            [
                .int(.min), .float(floatNaN), .double(quietNaN), .string(""),
                .date(Timestamp(seconds: .min, nanoseconds: 0)), .data(Data()),
            ],
            [
                .int(.max), .float(-0.0), .double(-0.0), .null,
                .date(Timestamp(seconds: .max, nanoseconds: 999_999_999)), .null,
            ],
            [
                .null, .float(.infinity), .double(.signalingNaN), .string("漢字とかな 🎉"),
                .date(Timestamp(seconds: -1, nanoseconds: 1)), .data(Data([0, 255])),
            ],
        ]
        let data = ClusterData(keys: [0, 5, Int64.max], columns: (0..<props.count).map { c in rows.map { $0[c] } })
        let back = try ClusterFixtures.roundTrip(data, props)
        #expect(ClusterFixtures.same(data, back))
        // nil and "" stay distinct.
        #expect(back.columns[3][0] == .string(""))
        #expect(back.columns[3][1] == .null)
        #expect(back.columns[5][0] == .data(Data()))
    }

    @Test func sixteenMegabyteStringRoundTrips() throws {
        let big = String(repeating: "日本", count: Limits.maxValueBytes / 6)
        let props = [Property(name: "s", type: .string)]
        let data = ClusterData(keys: [1, 2], columns: [[.string(big), .string("x")]])
        let bytes = ClusterFixtures.encode(data, props)
        try bytes.withUnsafeBytes { raw in
            let view = try ClusterView(raw, columns: props)
            let n = view.withBytes(row: 0, column: 0) { $0.count }
            #expect(n == big.utf8.count)
            #expect(view.value(row: 0, column: 0) == .string(big))
            #expect(view.value(row: 1, column: 0) == .string("x"))
        }
    }

    @Test func typedAccessorsAgreeWithValues() throws {
        let props = ClusterFixtures.allColumns
        var rng = SeededGenerator(seed: 42)
        let data = ClusterFixtures.randomCluster(props, rows: 100, &rng)
        let bytes = ClusterFixtures.encode(data, props)
        try bytes.withUnsafeBytes { raw in
            let view = try ClusterView(raw, columns: props)
            #expect(view.count == 100)
            for (c, p) in props.enumerated() {
                for row in 0..<view.count {
                    let v = data.columns[c][row]
                    #expect(view.isNull(row: row, column: c) == (!p.isList && v.isNull))
                    // A Mixed column's values are encoded bytes: only `value` reads them.
                    switch p.type == .mixed ? Value.null : v {
                    case .int(let x): #expect(view.int(row: row, column: c) == x)
                    case .bool(let b): #expect(view.int(row: row, column: c) == (b ? 1 : 0))
                    case .link(let k): #expect(view.int(row: row, column: c) == k.rawValue)
                    case .double(let d): #expect(view.double(row: row, column: c).bitPattern == d.bitPattern)
                    case .float(let f):
                        let d = view.double(row: row, column: c)
                        #expect(d.isNaN ? f.isNaN : d == Double(f))
                    case .date(let t): #expect(view.timestamp(row: row, column: c) == t)
                    case .string(let s): #expect(view.withBytes(row: row, column: c) { Array($0) } == Array(s.utf8))
                    case .data(let d): #expect(view.withBytes(row: row, column: c) { Data($0) } == d)
                    case .list(let items):
                        #expect(view.listCount(row: row, column: c) == items.count)
                        let r = view.listRange(row: row, column: c)
                        #expect(ClusterFixtures.same(.list(r.map { view.element(column: c, index: $0) }), v))
                    default: break
                    }
                    #expect(ClusterFixtures.same(view.value(row: row, column: c), v))
                }
            }
        }
    }

    @Test func keyLookupByBinarySearch() throws {
        for keys in [[Int64](0..<256), (0..<256).map { Int64($0) * 3 + 7 }, [Int64.min, -1, 0, Int64.max], [42]] {
            let data = ClusterData(keys: keys, columns: [])
            let bytes = ClusterFixtures.encode(data, [])
            try bytes.withUnsafeBytes { raw in
                let view = try ClusterView(raw, columns: [])
                for (i, k) in keys.enumerated() {
                    #expect(view.key(at: i) == k)
                    #expect(view.row(of: k) == i)
                }
                #expect(view.row(of: keys[0] &- 1) == nil || keys[0] == .min)
                if keys.count > 1, keys[1] - keys[0] > 1 { #expect(view.row(of: keys[0] + 1) == nil) }
            }
        }
    }

    @Test func consecutiveKeysCostNothing() {
        let consecutive = ClusterFixtures.encode(ClusterData(keys: Array(1000..<1256), columns: []), [])
        // 12-byte header + 1 packed-ints header byte + 2 base bytes (1000).
        #expect(consecutive.count == 15)
    }

    @Test func encodingAppendsAfterExistingBytes() throws {
        let props = [Property(name: "n", type: .int)]
        let data = ClusterData(keys: [3, 4], columns: [[.int(10), .int(-10)]])
        var out: [UInt8] = [0xAA, 0xBB, 0xCC]
        ClusterCodec.encode(data, columns: props, into: &out)
        #expect(out.prefix(3) == [0xAA, 0xBB, 0xCC])
        let back = try out.withUnsafeBytes {
            try ClusterView(UnsafeRawBufferPointer(rebasing: $0[3...]), columns: props).decode()
        }
        #expect(back == data)
    }

    @Test func viewAcceptsTrailingBytesAfterThePayload() throws {
        let props = [Property(name: "s", type: .string)]
        var bytes = ClusterFixtures.encode(ClusterData(keys: [1], columns: [[.string("hi")]]), props)
        bytes += [UInt8](repeating: 0xFF, count: 40)
        let back = try bytes.withUnsafeBytes { try ClusterView($0, columns: props).decode() }
        #expect(back.columns[0] == [.string("hi")])
    }

    @Test func errorsMapToCorruptFile() {
        let props = [Property(name: "n", type: .int)]
        let bytes = ClusterFixtures.encode(ClusterData(keys: [1], columns: [[.int(5)]]), props)
        do {
            _ = try bytes.withUnsafeBytes {
                try ClusterView(UnsafeRawBufferPointer(rebasing: $0[..<10]), columns: props)
            }
            Issue.record("truncated header accepted")
        } catch let error as CodecError {
            #expect(
                error.realmError(path: "/x.realm", nodeOffset: 4096)
                    == .corruptFile(path: "/x.realm", offset: 4096, reason: error.reason))
        } catch {
            Issue.record("unexpected \(error)")
        }
        // Wrong schema width.
        #expect(throws: CodecError.self) { try bytes.withUnsafeBytes { try ClusterView($0, columns: props + props) } }
    }
}
