import Foundation

/// `SORT(s) LIMIT(k)` on one string column of committed leaves: the first `k` objects in the
/// order of `ResultOrdering.sort` (nil first ascending and last descending, then UTF-8 bytes, ties
/// by position in the input), found in one pass over the column without a `String`, a `Value`
/// or an allocation per row.
///
/// Each row is reduced to the first 8 bytes of its string as a big-endian `UInt64`, zero padded
/// (`prefix`). Byte order implies prefix order (a < b ⇒ prefix(a) ≤ prefix(b)), so once `k`
/// candidates are held, a row whose prefix lies beyond the k-th candidate's cannot enter and is
/// skipped after one comparison; only rows that tie on the prefix or beat it compare whole strings.
/// The candidates are a max-heap whose root is the k-th best, so an entering row costs log k.
struct StringTopK {
    /// A candidate row.
    struct Entry {
        /// `prefix(bytes)` with `flip` applied: smaller is earlier in either direction.
        var key: UInt64
        /// The string's first byte in the mapping; nil for a nil value.
        var start: UnsafeRawPointer?
        /// The string's length in bytes.
        var count: Int
        /// Position in the input keys (the tie-break).
        var index: Int
    }

    let k: Int
    let ascending: Bool
    /// 0 ascending, all ones descending: makes "earlier" mean "smaller key" in both directions.
    let flip: UInt64
    /// The best candidates so far, a max-heap in sort order: `heap[0]` is the last of them.
    private(set) var heap: [Entry] = []
    /// With `k` candidates held and the last non-nil, its key; otherwise `.max` (no row is
    /// skipped on its prefix alone).
    private(set) var threshold: UInt64 = .max
    /// Ascending with `k` nils held: no later row can enter (nils tie and lose on position).
    private(set) var closed = false
    /// Where `touch` leaves its loads (so that they are not optimized away).
    private var touched: UInt8 = 0

    init(k: Int, ascending: Bool) {
        self.k = k
        self.ascending = ascending
        self.flip = ascending ? 0 : .max
        heap.reserveCapacity(k)
    }

    /// Offers every row of a leaf's string column, whose input positions are `firstIndex`,
    /// `firstIndex + 1`, … in row order.
    mutating func scanAll(_ column: ClusterColumnSlice, firstIndex: Int) {
        guard column.nulls == nil else { return scan(column, rows: 0..<column.count, firstIndex: firstIndex) }
        let ends = column.ints
        switch ends.width {
        case 8: scanAll(column, firstIndex) { p, i in UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
        case 16:
            scanAll(column, firstIndex) { p, i in
                UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
            }
        case 32:
            scanAll(column, firstIndex) { p, i in
                UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
            }
        default: scanAll(column, firstIndex) { _, i in ends.offset(i) }
        }
    }

    /// Offers rows `rows` (ascending, each < the column's count) of a leaf's string column, whose
    /// input positions are `firstIndex`, `firstIndex + 1`, … in that order.
    mutating func scan(_ column: ClusterColumnSlice, rows: some Collection<Int>, firstIndex: Int) {
        let ends = column.ints
        switch ends.width {
        case 8: scan(column, rows, firstIndex) { p, i in UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
        case 16:
            scan(column, rows, firstIndex) { p, i in
                UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
            }
        case 32:
            scan(column, rows, firstIndex) { p, i in
                UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
            }
        default: scan(column, rows, firstIndex) { _, i in ends.offset(i) }
        }
    }

    // The loops below are specialized on how an end offset is loaded. The end offsets were
    // validated by `ClusterColumnSlice.init` (from ≥ 0, never decreasing, the last = the byte
    // count), so every string lies inside `column.raw ..< column.raw + total`.

    /// `scanAll` without nils: each string starts where the previous ends.
    @inline(__always)
    private mutating func scanAll(
        _ column: ClusterColumnSlice, _ firstIndex: Int, _ load: (UnsafeRawPointer, Int) -> UInt64
    ) {
        let n = column.count
        guard n > 0, !closed else { return }
        let base = column.ints.base
        let data = column.ints.data
        let raw = column.raw
        let flip = self.flip
        let total = Int(truncatingIfNeeded: base &+ Int64(bitPattern: load(data, n - 1)))
        var start = 0
        for r in 0..<n {
            let end = Int(truncatingIfNeeded: base &+ Int64(bitPattern: load(data, r)))
            let key = Self.prefix(raw + start, count: end &- start, room: total &- start) ^ flip
            if key <= threshold {
                offer(Entry(key: key, start: raw + start, count: end &- start, index: firstIndex &+ r))
            }
            start = end
        }
    }

    @inline(__always)
    private mutating func scan(
        _ column: ClusterColumnSlice, _ rows: some Collection<Int>, _ firstIndex: Int,
        _ load: (UnsafeRawPointer, Int) -> UInt64
    ) {
        let n = column.count
        guard n > 0, !closed else { return }
        let base = column.ints.base
        let data = column.ints.data
        let raw = column.raw
        let nulls = column.nulls
        let flip = self.flip
        let total = Int(truncatingIfNeeded: base &+ Int64(bitPattern: load(data, n - 1)))
        var index = firstIndex
        for r in rows {
            precondition(UInt(bitPattern: r) < UInt(bitPattern: n), "row \(r) out of range 0..<\(n)")
            defer { index += 1 }
            if let nulls, nulls.load(fromByteOffset: r >> 3, as: UInt8.self) & (UInt8(1) << UInt8(r & 7)) != 0 {
                offer(Entry(key: 0, start: nil, count: 0, index: index))
                if closed { return }
                continue
            }
            let start = r == 0 ? 0 : Int(truncatingIfNeeded: base &+ Int64(bitPattern: load(data, r - 1)))
            let end = Int(truncatingIfNeeded: base &+ Int64(bitPattern: load(data, r)))
            let key = Self.prefix(raw + start, count: end - start, room: total - start) ^ flip
            if key <= threshold {
                offer(Entry(key: key, start: raw + start, count: end - start, index: index))
            }
        }
    }

    /// Loads one byte of each cache line of a leaf's string column (end offsets and bytes),
    /// before scanning the leaf before it. These loads are independent, so the CPU has many
    /// cache misses in flight at once, where the scan's loads, which wait on the offsets before
    /// them, have few: the next scan then finds its bytes in cache.
    mutating func touch(_ column: ClusterColumnSlice) {
        let ends = column.ints
        guard column.count > 0 else { return }
        let total = Int(truncatingIfNeeded: ends.base &+ Int64(bitPattern: ends.offset(column.count - 1)))
        var bits: UInt8 = 0
        for offset in stride(from: 0, to: (column.count * ends.width + 7) >> 3, by: 64) {
            bits |= ends.data.load(fromByteOffset: offset, as: UInt8.self)
        }
        for offset in stride(from: 0, to: total, by: 64) {
            bits |= column.raw.load(fromByteOffset: offset, as: UInt8.self)
        }
        touched ^= bits
    }

    /// The first 8 of `count` bytes at `p` as a big-endian integer, zero padded; `room` (≥ count)
    /// bytes are readable from `p`.
    @inline(__always)
    static func prefix(_ p: UnsafeRawPointer, count: Int, room: Int) -> UInt64 {
        if room >= 8 {
            let v = UInt64(bigEndian: p.loadUnaligned(as: UInt64.self))
            // The first `count` bytes when fewer than 8 (both sides computed: a select, no branch).
            let masked = v & ~(UInt64.max &>> UInt64(truncatingIfNeeded: count &<< 3))
            return count >= 8 ? v : masked
        }
        var v: UInt64 = 0
        for i in 0..<8 {
            v <<= 8
            if i < count { v |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
        }
        return v
    }

    /// Adds `e` if it is among the best `k` seen so far.
    private mutating func offer(_ e: Entry) {
        if heap.count < k {
            heap.append(e)
            siftUp(heap.count - 1)
        } else if before(e, heap[0]) {
            heap[0] = e
            siftDown(0)
        } else {
            return
        }
        guard heap.count == k else { return }
        if heap[0].start != nil {
            threshold = heap[0].key
        } else {
            threshold = .max
            closed = ascending
        }
    }

    /// Whether `a` sorts before `b`: `ResultOrdering`'s order, positions breaking ties.
    @inline(__always)
    private func before(_ a: Entry, _ b: Entry) -> Bool {
        Self.before(a, b, ascending: ascending)
    }

    @inline(__always)
    private static func before(_ a: Entry, _ b: Entry, ascending: Bool) -> Bool {
        guard let x = a.start else { return b.start == nil ? a.index < b.index : ascending }
        guard let y = b.start else { return !ascending }
        if a.key != b.key { return a.key < b.key }
        let c = compareBytes(
            UnsafeRawBufferPointer(start: x, count: a.count), UnsafeRawBufferPointer(start: y, count: b.count))
        if c != 0 { return ascending ? c < 0 : c > 0 }
        return a.index < b.index
    }

    /// -1, 0 or 1 by bytes, a prefix before the longer string.
    static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let n = Swift.min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// Moves `heap[i]` up to its place (the entries it passes move down into the hole).
    private mutating func siftUp(_ i: Int) {
        let ascending = self.ascending
        heap.withUnsafeMutableBufferPointer { h in
            let e = h[i]
            var child = i
            while child > 0 {
                let parent = (child - 1) >> 1
                guard Self.before(h[parent], e, ascending: ascending) else { break }
                h[child] = h[parent]
                child = parent
            }
            h[child] = e
        }
    }

    /// Moves `heap[i]` down to its place (the later children it passes move up into the hole).
    private mutating func siftDown(_ i: Int) {
        let ascending = self.ascending
        heap.withUnsafeMutableBufferPointer { h in
            let e = h[i]
            var parent = i
            while true {
                let left = 2 * parent + 1
                guard left < h.count else { break }
                var later = left
                if left + 1 < h.count, Self.before(h[left], h[left + 1], ascending: ascending) { later = left + 1 }
                guard Self.before(e, h[later], ascending: ascending) else { break }
                h[parent] = h[later]
                parent = later
            }
            h[parent] = e
        }
    }

    /// The input positions of the candidates, best first (the heap emptied from its root, the
    /// last first).
    mutating func positions() -> [Int] {
        var out = [Int](repeating: 0, count: heap.count)
        while let last = heap.popLast() {
            guard !heap.isEmpty else {
                out[0] = last.index
                break
            }
            out[heap.count] = heap[0].index
            heap[0] = last
            siftDown(0)
        }
        return out
    }
}

extension ResultOrdering {
    /// `StringTopK` over the leaves of `classIndex` for `keys` (ascending; nil for every object
    /// of the class, which then never lists its keys) sorted by the plain string column
    /// `column`: the first `limit` keys. Nil when a leaf is not an encoded view or a key is not
    /// in the leaves (the caller falls back to the general sort).
    static func stringTopK(
        _ keys: [ObjectKey]?, column: Int, ascending: Bool, limit: Int, classIndex: Int,
        in store: some ObjectStore
    ) throws -> [ObjectKey]? {
        guard limit > 0 else { return [] }
        var views: [ClusterView] = []
        var allViews = true
        let scanned = try store.forEachCluster(classIndex: classIndex) { leaf in
            if case .view(let v) = leaf { views.append(v) } else { allViews = false }
        }
        guard scanned, allViews else { return nil }
        var top = StringTopK(k: limit, ascending: ascending)
        if let strings = views.first?.bytesColumn(column) { top.touch(strings) }
        var rows: [Int] = []
        var next = 0
        // Without `keys`: where each scanned leaf's rows start among the positions.
        var starts: [(position: Int, leaf: Int)] = []
        for (i, v) in views.enumerated() where keys.map({ next < $0.count }) ?? true {
            guard let strings = v.bytesColumn(column) else { return nil }
            if i + 1 < views.count, let following = views[i + 1].bytesColumn(column) { top.touch(following) }
            let n = v.count
            guard n > 0 else { continue }
            guard let keys else {
                // Every object: positions count rows across the leaves, in key order.
                starts.append((next, i))
                top.scanAll(strings, firstIndex: next)
                next += n
                continue
            }
            // The usual case: the leaf's keys are first, first + 1, … and so are the next n keys.
            if v.keyOffsets.width == 0, n <= keys.count - next {
                let first = v.key(at: 0)
                let differ = keys.withUnsafeBufferPointer { k in
                    var bits: Int64 = 0  // no early exit: the loop vectorizes
                    for j in 0..<n { bits |= k[next + j].rawValue ^ (first &+ Int64(j)) }
                    return bits
                }
                if differ == 0 {
                    top.scanAll(strings, firstIndex: next)
                    next += n
                    continue
                }
            }
            // Otherwise the keys matched in order (all of them matching makes them ascending).
            rows.removeAll(keepingCapacity: true)
            let firstIndex = next
            for r in 0..<n where next < keys.count && v.key(at: r) == keys[next].rawValue {
                rows.append(r)
                next += 1
            }
            top.scan(strings, rows: rows, firstIndex: firstIndex)
        }
        guard let keys else {
            return top.positions().map { p in
                var lo = 0
                var hi = starts.count  // the last leaf starting at or before p
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2
                    if starts[mid].position <= p { lo = mid } else { hi = mid }
                }
                return ObjectKey(views[starts[lo].leaf].key(at: p - starts[lo].position))
            }
        }
        guard next == keys.count else { return nil }
        return top.positions().map { keys[$0] }
    }

    /// The first `limit` objects of the whole class `classIndex` sorted by `descriptors`, found
    /// without listing every key first — one plain string column of the class and a small limit
    /// (`StringTopK` straight over the leaves). Nil when that does not apply.
    static func sortedPrefixOfClass(
        _ classIndex: Int, by descriptors: [SortDescriptor], limit: Int,
        in store: some ObjectStore
    ) throws -> [ObjectKey]? {
        guard descriptors.count == 1, limit < (try store.count(classIndex: classIndex)) / 8 else { return nil }
        let path = try Binder.sortPath(descriptors[0].keyPath, classIndex: classIndex, schema: store.schema)
        guard let column = plainStringColumn(path, classIndex: classIndex, in: store) else { return nil }
        return try stringTopK(
            nil, column: column, ascending: descriptors[0].ascending, limit: limit, classIndex: classIndex, in: store)
    }
}
