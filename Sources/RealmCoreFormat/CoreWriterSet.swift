import Foundation
import RealmEngine

/// Sets (Realm Core's `Set<T>`, `set.cpp`): a B+tree like a list's, its elements sorted by the
/// element type's `operator<` and free of elements that compare equal. Realm Core finds an
/// element by binary search (`std::lower_bound`), so an element out of that order is never
/// found again (a duplicate gets added, a removal misses): the order here is Realm Core's.
extension CoreTableWriter {
    /// A set column's leaf: per object a ref to its set's B+tree, 0 when empty.
    func setColumn(
        _ values: [CoreValue], _ column: RealmCoreWriterTable.Column, what: String,
        _ w: inout CoreNodeWriter
    ) throws -> Int {
        var refs: [CoreSlot] = []
        refs.reserveCapacity(values.count)
        for value in values {
            guard case .set(let items) = value else {
                throw RealmError.invalidInput("\(what): a set column cannot hold \(value.typeName)")
            }
            if items.isEmpty {
                refs.append(.null)
                continue
            }
            let sorted = try CoreSetOrder.sorted(items, type: column.type, nullable: column.nullable, what: what)
            if column.type == .link {
                // `Set<ObjKey>`: bare target keys.
                let keys: [Int64] = try sorted.map { v in
                    guard case .link(_, let k) = v, k >= 0 else {
                        throw RealmError.invalidInput("\(what): a set of links cannot hold \(v.typeName)")
                    }
                    return k
                }
                refs.append(
                    .ref(
                        try w.bPlusTree(count: keys.count, what: what) { w, range in
                            try w.ints(Array(keys[range]), what: "\(what) link set")
                        }))
            } else {
                refs.append(
                    .ref(
                        try w.bPlusTree(count: sorted.count, what: what) { w, range in
                            try w.leaf(sorted[range], type: column.type, nullable: column.nullable, what: what)
                        }))
            }
        }
        return try w.slots(refs, what: "\(what) sets")
    }
}

/// Realm Core's order of set elements, per element type: null first (`std::optional`, a null
/// `StringData`, `BinaryData` or `Timestamp`), integers and floating point by value, bools
/// false before true, strings and binaries by unsigned bytes (a prefix first), timestamps by
/// seconds then nanoseconds, ObjectIds and UUIDs by bytes, decimals by `Decimal128::compare`
/// (NaNs first, Realm's null among them by its bits), links by object key.
enum CoreSetOrder {
    /// `items` in Realm Core's order, as its `Set::insert` leaves them (each element at its
    /// `std::lower_bound` under the element type's `<`). An element equal to one already there
    /// (a duplicate, `0.0` and `-0.0`, `1.0` and `1.00`) is refused rather than dropped.
    ///
    /// A float or double NaN is unordered under IEEE `<` (every comparison with it is false), so
    /// Realm Core leaves it where the order of insertion put it; its binary search then finds
    /// an element only if no NaN stands before it (a NaN it meets sends it left). The NaNs are
    /// therefore written last, after the other elements in order: where Realm Core leaves a
    /// NaN inserted into an empty set, whatever is inserted after it, and the one place where
    /// every other element is still found (in a set with the NaN first, `[NaN, -1]`, which
    /// Realm Core makes when `-1` is inserted before the NaN, it never finds `-1` again).
    static func sorted(_ items: [CoreValue], type: CoreColumnType, nullable: Bool, what: String) throws -> [CoreValue] {
        if type == .mixed { return try sortedMixed(items, what: what) }
        func isNaN(_ v: CoreValue) -> Bool {
            switch v {
            case .float(let f): f.isNaN
            case .double(let d): d.isNaN
            default: false
            }
        }
        func less(_ a: CoreValue, _ b: CoreValue) throws -> Bool { try compare(a, b, type: type, what: what) < 0 }
        func equal(_ a: CoreValue, _ b: CoreValue) throws -> Bool {
            switch (a, b) {
            case (.float(let x), .float(let y)): x == y
            case (.double(let x), .double(let y)): x == y
            default: try compare(a, b, type: type, what: what) == 0
            }
        }
        // The ordered elements: a strict weak order, so any order of insertion ends sorted.
        var failure: RealmError?
        let ordered = items.filter { !isNaN($0) }.sorted { a, b in
            do { return try less(a, b) } catch {
                if failure == nil { failure = error as? RealmError ?? .invalidInput("\(what): \(error)") }
                return false
            }
        }
        if let failure { throw failure }
        for (a, b) in zip(ordered, ordered.dropFirst()) where try equal(a, b) {
            throw RealmError.invalidInput("\(what): a set holds \(a) and \(b), which Realm Core takes as equal")
        }
        return ordered + items.filter(isNaN)
    }

    /// `items` as Realm Core's `Set::insert` leaves them when inserted in this order: each at
    /// its `std::lower_bound` under `less`; an element `equal` to the one found there is refused
    /// (`duplicate`) rather than dropped.
    static func insertedAtLowerBounds(
        _ items: [CoreValue], less: (CoreValue, CoreValue) throws -> Bool,
        equal: (CoreValue, CoreValue) throws -> Bool,
        duplicate: (CoreValue, CoreValue) -> RealmError
    ) throws -> [CoreValue] {
        var out: [CoreValue] = []
        out.reserveCapacity(items.count)
        for v in items {
            var lo = 0
            var hi = out.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if try less(out[mid], v) { lo = mid + 1 } else { hi = mid }
            }
            if lo < out.count, try equal(out[lo], v) { throw duplicate(out[lo], v) }
            out.insert(v, at: lo)
        }
        return out
    }

    /// −1, 0 or 1.
    static func compare(_ a: CoreValue, _ b: CoreValue, type: CoreColumnType, what: String) throws -> Int {
        func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : x > y ? 1 : 0 }
        func bytes(_ x: Data, _ y: Data) -> Int {
            // memcmp over the shorter length, then the shorter first.
            for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
            return order(x.count, y.count)
        }
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _):
            // Realm's null decimal is a NaN value and sorts among the NaNs by its bits.
            if type == .decimal128, case .decimal128 = b {
                return try compare(
                    .decimal128(low: CoreDecimal.nullBits.0, high: CoreDecimal.nullBits.1), b, type: type, what: what)
            }
            return -1
        case (_, .null): return -(try compare(b, a, type: type, what: what))
        case (.int(let x), .int(let y)): return order(x, y)
        case (.bool(let x), .bool(let y)): return order(x ? 1 : 0, y ? 1 : 0)
        case (.float(let x), .float(let y)): return order(x, y)
        case (.double(let x), .double(let y)): return order(x, y)
        case (.string(let x), .string(let y)): return bytes(Data(x.utf8), Data(y.utf8))
        case (.binary(let x), .binary(let y)), (.objectId(let x), .objectId(let y)), (.uuid(let x), .uuid(let y)):
            return bytes(x, y)
        case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)):
            return s1 != s2 ? order(s1, s2) : order(n1, n2)
        case (.decimal128(let l1, let h1), .decimal128(let l2, let h2)):
            return Decimal128.compare(Decimal128(low: l1, high: h1), Decimal128(low: l2, high: h2))
        case (.link(_, let x), .link(_, let y)): return order(x, y)
        default:
            throw RealmError.invalidInput("\(what): a set of \(type.name) cannot hold \(a.typeName) and \(b.typeName)")
        }
    }
}
