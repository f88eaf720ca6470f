import Foundation
import RealmEngine

/// Realm Core's order of a set of Mixed (`Set<Mixed>` sorts by `Mixed::compare`, `mixed.cpp`):
/// null first; then by a rank of the type — bools, then all numbers together, strings,
/// binaries, timestamps, ObjectIds, UUIDs, typed links, links —; numbers compare by value across
/// int, float, double and decimal (so `1`, `1.0` and decimal `1` are one element), NaNs below
/// every other number and among themselves by their bits; a string and a binary are never equal.
extension CoreSetOrder {
    /// `items` as Realm Core's `Set<Mixed>::insert` leaves them inserted in this order: each at
    /// its `std::lower_bound`; an element equal by `Mixed::compare` to one already there is
    /// refused rather than dropped.
    static func sortedMixed(_ items: [CoreValue], what: String) throws -> [CoreValue] {
        try insertedAtLowerBounds(
            items, less: { try compareMixed($0, $1, what: what) < 0 },
            equal: { try compareMixed($0, $1, what: what) == 0 },
            duplicate: { .invalidInput("\(what): a set holds \($0) and \($1), which Realm Core takes as equal") })
    }

    /// `sorting_rank` in `mixed.cpp`: the order of the types that do not compare by value.
    private static func rank(_ v: CoreValue) -> Int? {
        switch v {
        case .bool: 0
        case .int, .float, .double, .decimal128: 1
        case .string: 2
        case .binary: 3
        case .timestamp: 4
        case .objectId: 5
        case .uuid: 6
        case .typedLink: 7
        case .link: 8
        default: nil
        }
    }

    /// `Mixed::compare`: −1, 0 or 1.
    static func compareMixed(_ a: CoreValue, _ b: CoreValue, what: String) throws -> Int {
        func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : x > y ? 1 : 0 }
        func decimal(_ l: UInt64, _ h: UInt64) -> Decimal128 { Decimal128(low: l, high: h) }
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.int(let x), .int(let y)): return order(x, y)
        case (.int(let x), .float(let y)): return compareIntegerWithDouble(x, Double(y))
        case (.int(let x), .double(let y)): return compareIntegerWithDouble(x, y)
        case (.float, .int), (.double, .int): return -(try compareMixed(b, a, what: what))
        case (.float(let x), .float(let y)): return floats(x, y)
        case (.float(let x), .double(let y)): return floats(Double(x), y)
        case (.double(let x), .float(let y)): return floats(x, Double(y))
        case (.double(let x), .double(let y)): return floats(x, y)
        case (.int(let x), .decimal128(let l, let h)): return Decimal128.compare(Decimal128(x), decimal(l, h))
        case (.double(let x), .decimal128(let l, let h)): return Decimal128.compare(Decimal128(x), decimal(l, h))
        case (.decimal128, .int), (.decimal128, .double): return -(try compareMixed(b, a, what: what))
        case (.decimal128(let l1, let h1), .decimal128(let l2, let h2)):
            return Decimal128.compare(decimal(l1, h1), decimal(l2, h2))
        case (.float(let x), .decimal128(let l, let h)): return Decimal128.compare(Decimal128(x), decimal(l, h))
        case (.decimal128, .float): return -(try compareMixed(b, a, what: what))
        case (.bool(let x), .bool(let y)): return order(x ? 1 : 0, y ? 1 : 0)
        case (.string, .string), (.binary, .binary), (.timestamp, .timestamp), (.objectId, .objectId), (.uuid, .uuid),
            (.link, .link):
            return try compare(a, b, type: .mixed, what: what)
        case (.typedLink(let t1, let k1), .typedLink(let t2, let k2)): return t1 != t2 ? order(t1, t2) : order(k1, k2)
        default:
            guard let ra = rank(a), let rb = rank(b), ra != rb else {
                throw RealmError.invalidInput("\(what): a set of Mixed cannot hold \(a.typeName) and \(b.typeName)")
            }
            return ra < rb ? -1 : 1
        }
    }

    /// `compare_float`: IEEE order; NaNs below every other value and among themselves by bits.
    private static func floats<F: BinaryFloatingPoint>(_ x: F, _ y: F) -> Int
    where F.RawSignificand: FixedWidthInteger {
        switch (x.isNaN, y.isNaN) {
        case (false, false): return x == y ? 0 : x < y ? -1 : 1
        case (true, true):
            let (p, q) = (bits(x), bits(y))
            return p == q ? 0 : p < q ? -1 : 1
        case (true, false): return -1
        case (false, true): return 1
        }
    }

    private static func bits<F: BinaryFloatingPoint>(_ x: F) -> UInt64 {
        if let f = x as? Float { return UInt64(f.bitPattern) }
        if let d = x as? Double { return d.bitPattern }
        return 0
    }

    /// `compare_long_to_double`: exact for every int and double, NaN below every int.
    private static func compareIntegerWithDouble(_ x: Int64, _ y: Double) -> Int {
        if y.isNaN { return 1 }
        let precise: Int64 = 1 << 53
        if x <= precise && x >= -precise { return floats(Double(x), y) }
        let bound = 9_223_372_036_854_775_808.0  // 2^63
        if y >= bound { return -1 }
        if y < -bound { return 1 }
        let t = Int64(y.rounded(.towardZero))
        return x == t ? 0 : x < t ? -1 : 1
    }
}
