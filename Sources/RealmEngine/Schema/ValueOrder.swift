import Foundation

/// Equality and ordering of values as the query language and sorting see them: numbers compare
/// across int/float/double — exactly: an int is never rounded to a double first — strings and
/// data by bytes (Unicode code point order), bool false < true, nil equal only to nil. NaN
/// equals NaN and is unordered against numbers; sorting puts it before every number.
enum ValueOrder {
    /// -1, 0 or 1; nil when either side is nil or the kinds cannot be ordered against each other.
    static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (!x ? -1 : 1)
        case (.string(let x), .string(let y)): return bytes(x, y)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.data(let x), .data(let y)): return bytes(x, y)
        case (.objectId(let x), .objectId(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.uuid(let x), .uuid(let y)): return uuid(x, y)
        case (.link(let x), .link(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        // Mixed links: by class (name bytes, where Realm Core compares table keys), then key.
        case (.typedLink(let x), .typedLink(let y)):
            let c = bytes(x.className, y.className)
            return c != 0 ? c : (x.key < y.key ? -1 : (x.key == y.key ? 0 : 1))
        case (.decimal128(let x), _):
            return decimal(b).flatMap { compare(decimal: x, $0) }
        case (_, .decimal128(let y)):
            return decimal(a).flatMap { compare(decimal: $0, y) }
        case (.int(let i), _):
            return double(b).flatMap { compare(int: i, double: $0) }
        case (_, .int(let i)):
            return double(a).flatMap { compare(int: i, double: $0) }.map { -$0 }
        default:
            guard let x = double(a), let y = double(b) else { return nil }
            if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? 0 : nil }
            return x < y ? -1 : (x == y ? 0 : 1)
        }
    }

    /// Two decimals by value; NaN equals NaN (every NaN, as for doubles) and is unordered
    /// against numbers.
    static func compare(decimal x: Decimal128, _ y: Decimal128) -> Int? {
        if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? 0 : nil }
        return Decimal128.numericOrder(x, y)
    }

    /// A number as a decimal, to compare with one: ints exactly, doubles as Realm Core converts
    /// them (their 15 significant digits, so the double 0.1 equals the decimal 0.1).
    static func decimal(_ v: Value) -> Decimal128? {
        switch v {
        case .decimal128(let d): d
        case .int(let i): Decimal128(i)
        case .double(let d): Decimal128(d)
        case .float(let f): Decimal128(Double(f))
        default: nil
        }
    }

    /// An int against a double without rounding the int: 2^53 + 1 is more than 2^53, and
    /// `Int64.max` less than 2^63. Nil against NaN.
    static func compare(int i: Int64, double d: Double) -> Int? {
        if d.isNaN { return nil }
        if d >= 0x1p63 { return -1 }
        if d < -0x1p63 { return 1 }
        let whole = d.rounded(.down)  // in [-2^63, 2^63): fits Int64
        let w = Int64(whole)
        if i != w { return i < w ? -1 : 1 }
        return d > whole ? -1 : 0
    }

    /// A value DISTINCT can hash, equal exactly when `equal` says so: strings and data by
    /// bytes (Swift's `String` equality would merge canonically equivalent text), every NaN one
    /// value, numbers of every kind by value.
    static func distinctKey(_ v: Value) -> AnyHashable {
        switch v {
        case .string(let s): return AnyHashable(Array(s.utf8))
        case .int(let i): return AnyHashable(i)
        case .decimal128(let d):
            if d.isNaN { return AnyHashable("NaN") }
            // Equal to an int or a double (a Mixed column holds all three): the same key as theirs.
            if let i = d.exactInt64 { return AnyHashable(i) }
            if Decimal128(d.doubleValue) == d { return distinctKey(.double(d.doubleValue)) }
            return AnyHashable(d)
        case .float, .double:
            guard let d = double(v) else { return AnyHashable(0) }
            if d.isNaN { return AnyHashable("NaN") }
            // A double that is a whole number in Int64's range is that int (5.0 == 5).
            if d == d.rounded(.down), d >= -0x1p63, d < 0x1p63 { return AnyHashable(Int64(d)) }
            return AnyHashable(d)
        default: return AnyHashable(v)
        }
    }

    /// Query equality: nil equals nil; numbers across types; otherwise same kind and bytes.
    static func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        default: return compare(a, b) == 0
        }
    }

    /// The smallest or largest of `values` for `@min`/`@max` and `min`/`max(ofProperty:)`: nil
    /// and NaN are skipped, whatever their place (NaN when there is nothing else; `.null`
    /// for no values).
    static func extreme(_ values: [Value], smallest: Bool) -> Value {
        var best: Value = .null
        for v in values where !v.isNull {
            if best.isNull || isNaN(best) {
                best = v
                continue
            }
            if let c = compare(v, best), smallest ? c < 0 : c > 0 { best = v }
        }
        return best
    }

    static func isNaN(_ v: Value) -> Bool { double(v)?.isNaN == true }

    /// Sort order: nil before everything, then `compare`; kinds that cannot be compared (in a
    /// Mixed column) order as Realm Core orders them: bool, numbers, string, data, date,
    /// objectId, uuid, link, list, dictionary (`Value.mixedRank`; lists tie with lists, as in Core).
    static func sortCompare(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        default:
            if let c = compare(a, b) { return c }
            // A NaN against a number: NaN first (`compare` leaves them unordered, and a tie
            // with every number would make the order depend on where the NaN stood).
            if let x = double(a), let y = double(b) { return x.isNaN == y.isNaN ? 0 : (x.isNaN ? -1 : 1) }
            let ra = a.mixedRank
            let rb = b.mixedRank
            return ra < rb ? -1 : (ra == rb ? 0 : 1)
        }
    }

    static func double(_ v: Value) -> Double? {
        switch v {
        case .int(let i): Double(i)
        case .float(let f): Double(f)
        case .double(let d): d
        case .decimal128(let d): d.doubleValue
        default: nil
        }
    }

    static func bytes(_ x: String, _ y: String) -> Int {
        var a = x
        var b = y
        return a.withUTF8 { pa in b.withUTF8 { pb in bytes(pa, pb) } }
    }

    static func bytes(_ x: Data, _ y: Data) -> Int {
        x.withUnsafeBytes { pa in
            y.withUnsafeBytes { pb in bytes(pa.bindMemory(to: UInt8.self), pb.bindMemory(to: UInt8.self)) }
        }
    }

    static func bytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
    }

    static func uuid(_ x: UUID, _ y: UUID) -> Int {
        withUnsafeBytes(of: x.uuid) { pa in
            withUnsafeBytes(of: y.uuid) { pb in bytes(pa.bindMemory(to: UInt8.self), pb.bindMemory(to: UInt8.self)) }
        }
    }
}
