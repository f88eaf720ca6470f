import Foundation

/// Edits of an encoded leaf that work on the encoding itself instead of `decode()` → change →
/// `encode()`: bulk updates replace one column block and copy the rest; bulk deletes re-pack the
/// surviving rows column by column without a `Value` per row.
///
/// Both produce exactly the bytes `encode` would write for the edited `ClusterData` (the encoder is
/// deterministic and each column block depends only on its own values), so leaves edited either
/// way are interchangeable.
extension ClusterCodec {
    /// The payload of `view`'s leaf with column `column` replaced by `values` (one per row, already
    /// coerced to the column's type; row count unchanged). Every other column block is copied byte
    /// for byte; only the new column is encoded; the offset table and payload length are
    /// rewritten. Appends to `out`.
    ///
    /// `payload` is the buffer `view` was made from (it must not alias `out`).
    static func replacingColumn(_ view: ClusterView, payload: UnsafeRawBufferPointer, columns: [Property], column: Int,
                                values: [Value], into out: inout [UInt8]) {
        precondition(columns.count == view.layouts.count, "view has \(view.layouts.count) columns, schema \(columns.count)")
        precondition(column >= 0 && column < columns.count, "column \(column) out of range 0..<\(columns.count)")
        precondition(values.count == view.count, "\(values.count) values for \(view.count) rows")
        let extents = ClusterExtents(view, payload: payload)
        let p = columns[column]
        let plan = ColumnPlan(values, type: p.type, isList: p.isList)
        let old = extents.block(column)
        let delta = plan.size - old.count
        let length = extents.length + delta
        precondition(length <= Int(UInt32.max), "cluster payload of \(length) bytes exceeds 4 GiB; split the leaf")
        let src = extents.base
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { preconditionFailure("empty output buffer") }
            var w = ByteWriter(base + start, capacity: length)
            // Header, keys, offset table and the blocks before `column`, as they are.
            w.bytes(UnsafeRawBufferPointer(start: src, count: old.lowerBound))
            w.patchU32(UInt32(length), at: 8)
            if delta != 0 {
                for c in (column + 1)..<max(column + 1, columns.count) {
                    w.patchU32(UInt32(extents.start(c) + delta), at: extents.table + 4 * c)
                }
            }
            plan.write(to: &w)
            w.bytes(UnsafeRawBufferPointer(start: src + old.upperBound, count: extents.length - old.upperBound))
            precondition(w.position == length, "cluster size plan and writes disagree")
        }
    }

    /// The payload without the rows at the given positions (ascending, each < count; repeats are
    /// ignored), re-encoding every column natively (packed ints stay integers, strings/data stay
    /// bytes, doubles stay bits, lists keep their elements) without building a `Value` per row.
    /// Keys keep their values. Appends to `out`.
    ///
    /// `payload` is the buffer `view` was made from (it must not alias `out`).
    static func removingRows(_ view: ClusterView, payload: UnsafeRawBufferPointer, columns: [Property], rows: [Int],
                             into out: inout [UInt8]) {
        precondition(columns.count == view.layouts.count, "view has \(view.layouts.count) columns, schema \(columns.count)")
        let extents = ClusterExtents(view, payload: payload)
        // Surviving rows as runs.
        var runs = [Range<Int>]()
        var next = 0  // first row not yet accounted for
        for r in rows {
            precondition(r >= next - 1 && r < view.count, "rows to remove must be ascending and in 0..<\(view.count); got \(r)")
            if r < next { continue }  // a repeat
            if r > next { runs.append(next..<r) }
            next = r + 1
        }
        if next < view.count { runs.append(next..<view.count) }
        let kept = runs.reduce(0) { $0 + $1.count }
        guard kept < view.count else {
            // Nothing removed: the encoding is already what `encode` would write.
            out.append(contentsOf: UnsafeRawBufferPointer(start: extents.base, count: extents.length))
            return
        }

        // Keys: key − new index, re-packed.
        var keyOffsets = [Int64]()
        keyOffsets.reserveCapacity(kept)
        for r in runs { view.keyOffsets.unpack(r, into: &keyOffsets) }
        var j = 0
        for r in runs {
            let shift = Int64(r.lowerBound - j)  // key = stored + old index; new stored = key − new index
            for k in j..<(j + r.count) { keyOffsets[k] &+= shift }
            j += r.count
        }
        let keyPlan = PackPlan(keyOffsets)

        let edits = view.layouts.map { ColumnEdit($0, runs: runs, kept: kept) }
        assembleLeaf(rows: kept, keysSize: keyPlan.byteSize, writeKeys: { keyPlan.write(keyOffsets, to: &$0) }, blocks: edits, into: &out)
    }
}

/// Where the parts of a validated payload lie (offsets from its start).
struct ClusterExtents {
    let base: UnsafeRawPointer
    /// The payload length from the header (the buffer may be longer).
    let length: Int
    /// The column offset table.
    let table: Int
    let columnCount: Int

    init(_ view: ClusterView, payload: UnsafeRawBufferPointer) {
        guard let base = payload.baseAddress, payload.count >= ClusterCodec.headerSize else {
            preconditionFailure("payload is not the one the view was made from")
        }
        self.base = base
        length = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        // The key block ends where the table starts (`ClusterView.init` checked both).
        let keys = view.keyOffsets
        let keyData = base.distance(to: keys.data)
        table = keyData + ((view.count * keys.width + 7) >> 3)
        columnCount = view.layouts.count
        precondition(keyData >= ClusterCodec.headerSize && length <= payload.count
                     && table + 4 * columnCount <= length,
                     "payload is not the one the view was made from")
    }

    /// Start of column `c`'s block.
    @inline(__always)
    func start(_ c: Int) -> Int {
        Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: table + 4 * c, as: UInt32.self)))
    }

    /// Column `c`'s block.
    func block(_ c: Int) -> Range<Int> {
        start(c)..<(c + 1 < columnCount ? start(c + 1) : length)
    }
}

/// One column of a leaf re-encoded with only the rows in `runs` (see `removingRows`).
private struct ColumnEdit: ClusterColumnBlock {
    let isList: Bool
    /// List columns: the new per-row end offsets (in elements).
    var listEnds: [Int64] = []
    var listPack = PackPlan.empty
    /// The values (plain columns) or the elements (list columns).
    let data: SliceEdit
    let size: Int

    init(_ layout: ClusterColumnLayout, runs: [Range<Int>], kept: Int) {
        isList = layout.isList
        guard isList else {
            data = SliceEdit(layout.data, runs: runs, kept: kept, minWidth: 0)
            size = data.size
            return
        }
        // Row runs map to contiguous element runs.
        var elementRuns = [Range<Int>]()
        elementRuns.reserveCapacity(runs.count)
        listEnds.reserveCapacity(kept)
        var total = 0
        Self.rebaseEnds(layout.listEnds, runs: runs, into: &listEnds, spans: &elementRuns, total: &total)
        listPack = PackPlan(count: kept, min: listEnds.first ?? 0, max: Int64(total))
        let minWidth = total > ClusterCodec.listElementsFreeOfBits ? 1 : 0
        data = SliceEdit(layout.data, runs: elementRuns, kept: total, minWidth: minWidth)
        size = 1 + listPack.byteSize + data.size
    }

    /// For end offsets `ends` (of strings' bytes or lists' elements), appends the new end offsets of
    /// the rows in `runs` to `out` and the source spans they cover to `spans` (empty spans skipped);
    /// `total` is the new last end.
    static func rebaseEnds(_ ends: PackedInts, runs: [Range<Int>], into out: inout [Int64], spans: inout [Range<Int>], total: inout Int) {
        for r in runs {
            let from = r.lowerBound == 0 ? 0 : Int(truncatingIfNeeded: ends[r.lowerBound - 1])
            let to = Int(truncatingIfNeeded: ends[r.upperBound - 1])
            let at = out.count
            ends.unpack(r, into: &out)
            let shift = Int64(total - from)
            if shift != 0 { for k in at..<out.count { out[k] &+= shift } }
            if to > from { spans.append(from..<to) }
            total += to - from
        }
    }

    func write(to w: inout ByteWriter) {
        if isList {
            w.u8(0)
            listPack.write(listEnds, to: &w)
        }
        data.write(to: &w)
    }
}

/// One column block (a column's rows or a list column's elements) re-encoded with only the
/// values in `runs`, with the same packing choices `ColumnPlan` makes for those values.
private struct SliceEdit {
    let slice: ClusterColumnSlice
    let runs: [Range<Int>]
    let kept: Int
    var nulls: [UInt8] = []
    /// `.ints`: values (null slots = the minimum); `.date`: seconds; `.bytes`: end offsets.
    var ints: [Int64] = []
    var pack = PackPlan.empty
    var nanos: [Int64] = []
    var nanoPack = PackPlan.empty
    /// `.bytes`: source byte spans to copy, in order.
    var spans: [Range<Int>] = []
    var blobBytes = 0
    var size = 0

    init(_ slice: ClusterColumnSlice, runs: [Range<Int>], kept: Int, minWidth: Int) {
        self.slice = slice
        self.runs = runs
        self.kept = kept
        if slice.nulls != nil { gatherNulls() }
        switch slice.storage {
        case .ints:
            ints.reserveCapacity(kept)
            for r in runs { slice.ints.unpack(r, into: &ints) }
            let (lo, hi) = fillNullSlots(&ints)
            pack = PackPlan(count: kept, min: lo, max: hi, minWidth: minWidth)
            size = pack.byteSize
        case .date:
            ints.reserveCapacity(kept)
            nanos.reserveCapacity(kept)
            for r in runs {
                slice.ints.unpack(r, into: &ints)
                slice.nanos.unpack(r, into: &nanos)
            }
            var (lo, hi) = fillNullSlots(&ints)
            var (nlo, nhi) = fillNullSlots(&nanos)
            if !hasValue { lo = 0; hi = 0; nlo = 0; nhi = 0 }
            pack = PackPlan(count: kept, min: lo, max: hi, minWidth: minWidth)
            nanoPack = PackPlan(count: kept, min: nlo, max: nhi)
            size = pack.byteSize + nanoPack.byteSize
        case .bytes:
            ints.reserveCapacity(kept)
            ColumnEdit.rebaseEnds(slice.ints, runs: runs, into: &ints, spans: &spans, total: &blobBytes)
            pack = PackPlan(count: kept, min: ints.first ?? 0, max: Int64(blobBytes), minWidth: minWidth)
            size = pack.byteSize + blobBytes
        case .float, .double, .objectId, .uuid:
            size = kept * slice.storage.rawStride
        }
        size += 1 + nulls.count
    }

    /// Whether any kept value is non-null (set by `fillNullSlots`).
    private var hasValue: Bool { nulls.isEmpty ? kept > 0 : nullCount < kept }
    private var nullCount = 0

    /// The new null bitmap (left empty when no kept value is null).
    private mutating func gatherNulls() {
        var bits = [UInt8](repeating: 0, count: (kept + 7) >> 3)
        var j = 0
        var n = 0
        for r in runs {
            for i in r {
                if slice.isNull(i) {
                    bits[j >> 3] |= UInt8(1) << UInt8(j & 7)
                    n += 1
                }
                j += 1
            }
        }
        if n > 0 {
            nulls = bits
            nullCount = n
        }
    }

    @inline(__always)
    private func isNull(_ j: Int) -> Bool {
        nulls[j >> 3] & (UInt8(1) << UInt8(j & 7)) != 0
    }

    /// The minimum and maximum of the non-null values (0, 0 if none), with null slots set to the
    /// minimum, as the encoder stores them.
    private func fillNullSlots(_ a: inout [Int64]) -> (Int64, Int64) {
        var lo = Int64.max, hi = Int64.min
        if nulls.isEmpty {
            for v in a {
                lo = min(lo, v)
                hi = max(hi, v)
            }
        } else {
            for j in 0..<a.count where !isNull(j) {
                lo = min(lo, a[j])
                hi = max(hi, a[j])
            }
        }
        if lo > hi { lo = 0; hi = 0 }
        if !nulls.isEmpty {
            for j in 0..<a.count where isNull(j) { a[j] = lo }
        }
        return (lo, hi)
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
        case .float, .double, .objectId, .uuid:
            let stride = slice.storage.rawStride
            for r in runs { w.bytes(UnsafeRawBufferPointer(start: slice.raw + stride * r.lowerBound, count: stride * r.count)) }
        }
    }
}
