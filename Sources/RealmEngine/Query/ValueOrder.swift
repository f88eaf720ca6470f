import Foundation

/// Equality and ordering of values as the query language and sorting see them: numbers compare
/// across int/float/double, strings and data by bytes (Unicode code point order), bool false <
/// true, nil equal only to nil.
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
        default:
            guard let x = double(a), let y = double(b) else { return nil }
            if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? 0 : nil }
            return x < y ? -1 : (x == y ? 0 : 1)
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

    /// Sort order: nil before everything, then `compare`; kinds that cannot be compared order by kind name
    /// (stable, never a crash).
    static func sortCompare(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        default:
            if let c = compare(a, b) { return c }
            let ka = a.kindName, kb = b.kindName
            return ka < kb ? -1 : (ka == kb ? 0 : 1)
        }
    }

    static func double(_ v: Value) -> Double? {
        switch v {
        case .int(let i): Double(i)
        case .float(let f): Double(f)
        case .double(let d): d
        default: nil
        }
    }

    static func bytes(_ x: String, _ y: String) -> Int {
        var a = x, b = y
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
