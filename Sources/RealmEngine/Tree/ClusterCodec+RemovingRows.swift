/// Bulk deletes on an encoded leaf: the surviving rows re-packed column by column, without a
/// `Value` per row.
///
/// The rows a filtered delete leaves behind come in short runs (every other row, say), so the
/// edit works from the list of surviving row indices rather than from runs: each column is built
/// in one pass over that list — packed integers gathered with one switch on the width and
/// re-packed from their new minimum and maximum (the same or a narrower width), strings and data
/// as their kept end offsets plus the kept bytes, fixed-size values copied, null bitmaps
/// gathered bit by bit. The output is exactly what `encode` writes for the remaining rows.
extension ClusterCodec {
    /// The payload without the rows at the given positions (ascending, each < count; repeats are
    /// ignored), re-encoding every column natively (packed ints stay integers, strings/data stay
    /// bytes, doubles stay bits, lists keep their elements). Keys keep their values. Appends to
    /// `out`.
    ///
    /// `payload` is the buffer `view` was made from (it must not alias `out`).
    static func removingRows(
        _ view: ClusterView, payload: UnsafeRawBufferPointer, columns: [Property], rows: [Int],
        into out: inout [UInt8]
    ) {
        precondition(
            columns.count == view.layouts.count, "view has \(view.layouts.count) columns, schema \(columns.count)")
        let extents = ClusterExtents(view, payload: payload)
        let n = view.count
        // The surviving rows, ascending.
        var kept = [Int]()
        kept.reserveCapacity(n)
        var next = 0  // first row not yet accounted for
        for r in rows {
            precondition(r >= next - 1 && r < n, "rows to remove must be ascending and in 0..<\(n); got \(r)")
            if r < next { continue }  // a repeat
            while next < r {
                kept.append(next)
                next += 1
            }
            next = r + 1
        }
        while next < n {
            kept.append(next)
            next += 1
        }
        guard kept.count < n else {
            // Nothing removed: the encoding is already what `encode` would write.
            out.append(contentsOf: UnsafeRawBufferPointer(start: extents.base, count: extents.length))
            return
        }

        // Keys: stored as key − index, so a kept row's offset grows by how far it moves up.
        var keyOffsets = kept.withUnsafeBufferPointer { view.keyOffsets.gather($0) }
        for j in keyOffsets.indices { keyOffsets[j] &+= Int64(kept[j] &- j) }
        let keyPlan = PackPlan(keyOffsets)

        let edits = view.layouts.map { KeptColumn($0, kept: kept) }
        assembleLeaf(
            rows: kept.count, keysSize: keyPlan.byteSize, writeKeys: { keyPlan.write(keyOffsets, to: &$0) },
            blocks: edits, into: &out)
    }
}

/// One column of a leaf re-encoded with only the rows `kept` (see `removingRows`).
private struct KeptColumn: ClusterColumnBlock {
    let isList: Bool
    /// List columns: the new per-row end offsets (in elements).
    var listEnds: [Int64] = []
    var listPack = PackPlan.empty
    /// The values (plain columns) or the elements (list columns).
    let data: KeptValues
    /// Dictionary columns: the kept elements' keys.
    let keys: KeptValues?
    let size: Int

    init(_ layout: ClusterColumnLayout, kept: [Int]) {
        isList = layout.isList
        guard isList else {
            data = KeptValues(layout.data, kept: kept, minWidth: 0)
            keys = nil
            size = data.size
            return
        }
        // A kept row keeps its elements: their indices, in order, are the element block's kept list.
        var elements = [Int]()
        listEnds.reserveCapacity(kept.count)
        var total = 0
        for r in kept {
            let range = layout.range(r)
            elements.append(contentsOf: range)
            total += range.count
            listEnds.append(Int64(total))
        }
        listPack = PackPlan(count: kept.count, min: listEnds.first ?? 0, max: Int64(total))
        let minWidth = total > ClusterCodec.listElementsFreeOfBits ? 1 : 0
        data = KeptValues(layout.data, kept: elements, minWidth: minWidth)
        keys = layout.keys.map { KeptValues($0, kept: elements, minWidth: minWidth) }
        size = 1 + listPack.byteSize + (keys?.size ?? 0) + data.size
    }

    func write(to w: inout ByteWriter) {
        if isList {
            w.u8(0)
            listPack.write(listEnds, to: &w)
        }
        keys?.write(to: &w)
        data.write(to: &w)
    }
}

/// One column block (a column's rows or a list column's elements) re-encoded with only the
/// values at `kept`, with the packing choices `ColumnPlan` makes for those values.
private struct KeptValues {
    let slice: ClusterColumnSlice
    /// Indices of the kept values, ascending.
    let kept: [Int]
    var nulls: [UInt8] = []
    private var nullCount = 0
    /// `.ints`: values (null slots = the minimum); `.date`: seconds; `.bytes`: end offsets.
    var ints: [Int64] = []
    var pack = PackPlan.empty
    var nanos: [Int64] = []
    var nanoPack = PackPlan.empty
    /// `.bytes`: source byte spans to copy, in order (adjacent kept values share one span).
    var spans: [Range<Int>] = []
    var size = 0

    init(_ slice: ClusterColumnSlice, kept: [Int], minWidth: Int) {
        self.slice = slice
        self.kept = kept
        let count = kept.count
        if slice.nulls != nil { gatherNulls() }
        switch slice.storage {
        case .ints:
            ints = kept.withUnsafeBufferPointer { slice.ints.gather($0) }
            let (lo, hi) = fillNullSlots(&ints)
            pack = PackPlan(count: count, min: lo, max: hi, minWidth: minWidth)
            size = pack.byteSize
        case .date:
            ints = kept.withUnsafeBufferPointer { slice.ints.gather($0) }
            nanos = kept.withUnsafeBufferPointer { slice.nanos.gather($0) }
            var (lo, hi) = fillNullSlots(&ints)
            var (nlo, nhi) = fillNullSlots(&nanos)
            if nullCount == count {
                lo = 0
                hi = 0
                nlo = 0
                nhi = 0
            }
            pack = PackPlan(count: count, min: lo, max: hi, minWidth: minWidth)
            nanoPack = PackPlan(count: count, min: nlo, max: nhi)
            size = pack.byteSize + nanoPack.byteSize
        case .bytes:
            let total = gatherBytes()
            pack = PackPlan(count: count, min: ints.first ?? 0, max: Int64(total), minWidth: minWidth)
            size = pack.byteSize + total
        case .float, .double, .objectId, .uuid, .decimal128:
            size = count * slice.storage.rawStride
        }
        size += 1 + nulls.count
    }

    /// The new null bitmap (left empty when no kept value is null).
    private mutating func gatherNulls() {
        guard let source = slice.nulls else { return }
        var bits = [UInt8](repeating: 0, count: (kept.count + 7) >> 3)
        var n = 0
        for (j, i) in kept.enumerated()
        where source.load(fromByteOffset: i >> 3, as: UInt8.self) & (UInt8(1) << UInt8(i & 7)) != 0 {
            bits[j >> 3] |= UInt8(1) << UInt8(j & 7)
            n += 1
        }
        if n > 0 {
            nulls = bits
            nullCount = n
        }
    }

    /// The kept values' new end offsets (into `ints`) and the byte spans they cover (into `spans`);
    /// returns the bytes kept.
    private mutating func gatherBytes() -> Int {
        let ends = slice.ints.unpackAll()
        var newEnds = [Int64]()
        newEnds.reserveCapacity(kept.count)
        var runs = [Range<Int>]()
        runs.reserveCapacity(kept.count / 2 + 1)
        var total = 0
        var spanStart = 0
        var spanEnd = 0
        ends.withUnsafeBufferPointer { ends in
            kept.withUnsafeBufferPointer { kept in
                for r in kept {
                    let from = r == 0 ? 0 : Int(truncatingIfNeeded: ends[r - 1])
                    let to = Int(truncatingIfNeeded: ends[r])
                    if to > from {
                        if from != spanEnd {
                            if spanEnd > spanStart { runs.append(spanStart..<spanEnd) }
                            spanStart = from
                        }
                        spanEnd = to
                    }
                    total += to - from
                    newEnds.append(Int64(total))
                }
            }
        }
        if spanEnd > spanStart { runs.append(spanStart..<spanEnd) }
        ints = newEnds
        spans = runs
        return total
    }

    private func fillNullSlots(_ a: inout [Int64]) -> (Int64, Int64) {
        ClusterCodec.fillNullSlots(&a, nulls: nulls)
    }

    func write(to w: inout ByteWriter) {
        w.u8(nulls.isEmpty ? 0 : 1)
        nulls.withUnsafeBytes { w.bytes($0) }
        switch slice.storage {
        case .ints:
            pack.write(ints, to: &w)
        case .date:
            pack.write(ints, to: &w)
            nanoPack.write(nanos, to: &w)
        case .bytes:
            pack.write(ints, to: &w)
            for s in spans { w.bytes(UnsafeRawBufferPointer(start: slice.raw + s.lowerBound, count: s.count)) }
        case .float, .double, .objectId, .uuid, .decimal128:
            let stride = slice.storage.rawStride
            let p = w.claim(stride * kept.count)
            let src = slice.raw
            switch stride {
            case 8:
                for (j, i) in kept.enumerated() {
                    p.storeBytes(
                        of: src.loadUnaligned(fromByteOffset: i << 3, as: UInt64.self), toByteOffset: j << 3,
                        as: UInt64.self)
                }
            case 4:
                for (j, i) in kept.enumerated() {
                    p.storeBytes(
                        of: src.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self), toByteOffset: j << 2,
                        as: UInt32.self)
                }
            default:
                for (j, i) in kept.enumerated() {
                    (p + stride * j).copyMemory(from: src + stride * i, byteCount: stride)
                }
            }
        }
    }
}
