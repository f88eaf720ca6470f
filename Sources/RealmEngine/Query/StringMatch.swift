import Foundation

/// String and data operators on UTF-8 bytes: `==`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`
/// (`*` any run, `?` one character), with `[c]` case folding and `[d]` diacritic folding.
///
/// The constant side is folded once per query (`BoundComparison.needle`); the stored side is
/// compared in place when no folding is asked for, and folded per value otherwise (ASCII folds
/// without Foundation).
enum StringMatch {
    /// The bytes of `s` folded as `options` ask.
    static func fold(_ s: String, _ options: StringOptions) -> [UInt8] {
        if options.isEmpty { return Array(s.utf8) }
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            guard options.contains(.caseInsensitive) else { return Array(s.utf8) }
            return s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        }
        guard options.contains(.diacriticInsensitive) else { return foldCase(s) }
        var foundation: String.CompareOptions = [.diacriticInsensitive]
        if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
        let folded = s.folding(options: foundation, locale: nil)
        return options.contains(.caseInsensitive) ? foldCase(folded) : Array(folded.utf8)
    }

    /// Simple per-scalar lower-casing (Unicode's lowercase mapping), without Foundation.
    private static func foldCase(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            if scalar.value < 0x80 {
                let b = UInt8(truncatingIfNeeded: scalar.value)
                out.append(b >= 65 && b <= 90 ? b + 32 : b)
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
        return out
    }

    /// Applies a string operator to a stored string (already unfolded) and a folded needle.
    static func matches(_ op: CompareOp, _ haystack: String, needle: [UInt8], options: StringOptions) -> Bool {
        if options.isEmpty {
            var h = haystack
            return h.withUTF8 { matches(op, $0, needle) }
        }
        let folded = fold(haystack, options)
        return folded.withUnsafeBufferPointer { matches(op, $0, needle) }
    }

    /// Applies a string operator to data bytes.
    static func matches(_ op: CompareOp, _ haystack: Data, needle: [UInt8]) -> Bool {
        haystack.withUnsafeBytes { raw in matches(op, raw.bindMemory(to: UInt8.self), needle) }
    }

    static func matches(_ op: CompareOp, _ h: UnsafeBufferPointer<UInt8>, _ n: [UInt8]) -> Bool {
        switch op {
        case .equal, .in: return h.elementsEqual(n)
        case .notEqual: return !h.elementsEqual(n)
        case .beginsWith: return h.count >= n.count && h.prefix(n.count).elementsEqual(n)
        case .endsWith: return h.count >= n.count && h.suffix(n.count).elementsEqual(n)
        case .contains: return contains(h, n)
        case .like: return n.withUnsafeBufferPointer { like(h, $0) }
        default: return false
        }
    }

    private static func contains(_ h: UnsafeBufferPointer<UInt8>, _ n: [UInt8]) -> Bool {
        if n.isEmpty { return true }
        if n.count > h.count { return false }
        let first = n[0]
        var i = 0
        let last = h.count - n.count
        while i <= last {
            if h[i] == first {
                var k = 1
                while k < n.count && h[i + k] == n[k] { k += 1 }
                if k == n.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Wildcard match: `*` any run of characters, `?` exactly one character (one UTF-8 sequence).
    /// Iterative with one backtrack point, so it is linear in practice and never recurses.
    static func like(_ h: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        func next(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
            var j = i + 1
            while j < b.count && b[j] & 0xC0 == 0x80 { j += 1 }
            return j
        }
        var hi = 0
        var pi = 0
        var starP = -1
        var starH = 0
        while hi < h.count {
            if pi < p.count && p[pi] == UInt8(ascii: "*") {
                starP = pi
                starH = hi
                pi += 1
            } else if pi < p.count && p[pi] == UInt8(ascii: "?") {
                hi = next(h, hi)
                pi += 1
            } else if pi < p.count && p[pi] == h[hi] {
                hi += 1
                pi += 1
            } else if starP >= 0 {
                starH = next(h, starH)
                hi = starH
                pi = starP + 1
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}
