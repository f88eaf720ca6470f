import Foundation

/// A zero-copy read view of an encoded cluster payload (layout in `ClusterCodec`), typically
/// straight from the mapping. `init` validates every offset, width and length against the
/// buffer once and throws `CodecError` (offset relative to the payload start) on any
/// inconsistency; afterwards the accessors index without re-checking the bytes.
///
/// Row and column indices are the caller's and are checked like `Array` subscripts. The view
/// borrows the bytes: it must not outlive the mapping (or snapshot) it was made from.
package struct ClusterView {
    /// Rows in the leaf.
    let count: Int
    /// The stored form of the keys: key(i) = keyOffsets[i] &+ i.
    let keyOffsets: PackedInts
    /// One entry per column, in schema order.
    let layouts: [ClusterColumnLayout]

    init(_ bytes: UnsafeRawBufferPointer, columns: [Property]) throws {
        guard let base = bytes.baseAddress, bytes.count >= ClusterCodec.headerSize else {
            throw CodecError(
                offset: 0,
                "cluster payload of \(bytes.count) bytes is shorter than its \(ClusterCodec.headerSize)-byte header")
        }
        var r = ByteReader(base, end: bytes.count)
        let format = try r.u8("format")
        guard format == ClusterCodec.format else { throw CodecError(offset: 0, "unknown cluster format \(format)") }
        guard try r.u8("flags") == 0 else { throw CodecError(offset: 1, "reserved cluster flags are set") }
        let columnCount = Int(try r.u16("column count"))
        guard columnCount == columns.count else {
            throw CodecError(offset: 2, "cluster has \(columnCount) columns, the schema \(columns.count)")
        }
        let rows = Int(try r.u32("row count"))
        guard rows <= ClusterCodec.maxRows else {
            throw CodecError(offset: 4, "row count \(rows) exceeds \(ClusterCodec.maxRows)")
        }
        let length = Int(try r.u32("payload length"))
        guard length >= ClusterCodec.headerSize, length <= bytes.count else {
            throw CodecError(offset: 8, "payload length \(length) outside \(ClusterCodec.headerSize)...\(bytes.count)")
        }
        r = ByteReader(base, position: ClusterCodec.headerSize, end: length)
        let keysAt = r.position
        let keys = try r.packedInts(count: rows, "keys")
        var previous = keys.base
        for i in 0..<rows {
            let current = keys.base &+ Int64(bitPattern: keys.offset(i)) &+ Int64(i)
            guard i == 0 || previous < current else {
                throw CodecError(offset: keysAt, "keys not ascending at row \(i)")
            }
            previous = current
        }
        let tableAt = r.position
        _ = try r.take(4 * columnCount, "column offset table")
        var layouts = [ClusterColumnLayout]()
        layouts.reserveCapacity(columnCount)
        var expectedStart = r.position
        for c in columns.indices {  // by index: iterating would copy each `Property` (retaining its strings)
            let start = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: tableAt + 4 * c, as: UInt32.self)))
            let end =
                c + 1 < columnCount
                ? Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: tableAt + 4 * (c + 1), as: UInt32.self)))
                : length
            guard start == expectedStart, end >= start, end <= length else {
                throw CodecError(
                    offset: tableAt + 4 * c,
                    "column \(c) extent \(start)..<\(end) is not where the previous ends (\(expectedStart)) or past \(length)"
                )
            }
            var cr = ByteReader(base, position: start, end: end)
            layouts.append(try ClusterColumnLayout(&cr, property: columns[c], count: rows))
            guard cr.position == end else { throw cr.fail("column \(c) has \(end - cr.position) bytes left over") }
            expectedStart = end
        }
        guard expectedStart == length else {
            throw CodecError(offset: expectedStart, "\(length - expectedStart) bytes after the last column")
        }
        self.count = rows
        self.keyOffsets = keys
        self.layouts = layouts
    }

    /// The key of row `row`.
    @inline(__always)
    func key(at row: Int) -> Int64 {
        keyOffsets[row] &+ Int64(row)
    }

    /// The row holding `key`, by binary search.
    func row(of key: Int64) -> Int? {
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let k = keyOffsets.base &+ Int64(bitPattern: keyOffsets.offset(mid)) &+ Int64(mid)
            if k < key { lo = mid + 1 } else if k > key { hi = mid } else { return mid }
        }
        return nil
    }

    /// The column's layout, with the row checked.
    @inline(__always)
    private func layout(_ row: Int, _ column: Int) -> ClusterColumnLayout {
        precondition(UInt(bitPattern: row) < UInt(bitPattern: count), "row \(row) out of range 0..<\(count)")
        return layouts[column]
    }

    /// The value as the engine exchanges it (`.link` for links, `.list` for lists, `.null` for nil).
    func value(row: Int, column: Int) -> Value {
        layouts[column].value(row: row)
    }

    /// Appends every key of the leaf, ascending (contiguous keys computed in place, others by one
    /// unpack of the packed key offsets).
    func appendKeys(to out: inout [ObjectKey]) {
        if keyOffsets.width == 0 {  // keys base, base + 1, …: grow `out`, then fill in place
            let base = keyOffsets.base
            let first = out.count
            let n = count
            out.append(contentsOf: repeatElement(ObjectKey(0), count: n))
            out.withUnsafeMutableBufferPointer { b in
                for i in 0..<n { b[first + i] = ObjectKey(base &+ Int64(i)) }
            }
            return
        }
        let offsets = keyOffsets.unpackAll()
        out.reserveCapacity(out.count + offsets.count)
        for (i, offset) in offsets.enumerated() { out.append(ObjectKey(offset &+ Int64(i))) }
    }

    /// Every row, decoded (one switch per column).
    func decode() -> ClusterData {
        var keys = [Int64]()
        keys.reserveCapacity(count)
        for i in 0..<count { keys.append(keyOffsets.base &+ Int64(bitPattern: keyOffsets.offset(i)) &+ Int64(i)) }
        return ClusterData(keys: keys, columns: layouts.map { $0.decodeAll(rows: count) })
    }

    /// Whether the value is nil (always false for list columns: nil lists are empty).
    func isNull(row: Int, column: Int) -> Bool {
        let l = layout(row, column)
        return !l.isList && l.data.isNull(row)
    }

    /// int / bool (0 or 1) / link key columns; 0 for nil and for other column types.
    func int(row: Int, column: Int) -> Int64 {
        let l = layout(row, column)
        guard !l.isList, l.data.storage == .ints else { return 0 }
        return l.data.ints[row]
    }

    /// float and double columns (a float widened exactly); 0 for other column types.
    func double(row: Int, column: Int) -> Double {
        let l = layout(row, column)
        guard !l.isList else { return 0 }
        return l.data.double(at: row)
    }

    /// date columns; the epoch for other column types.
    func timestamp(row: Int, column: Int) -> Timestamp {
        let l = layout(row, column)
        guard !l.isList else { return Timestamp(seconds: 0) }
        return l.data.timestamp(at: row)
    }

    /// The UTF-8 (string) or raw (data) bytes, borrowed from the payload; empty for nil and for
    /// other column types.
    func withBytes<R>(row: Int, column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let l = layout(row, column)
        guard !l.isList else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(l.data.bytes(at: row))
    }

    /// Elements of a list column (0 for other columns).
    func listCount(row: Int, column: Int) -> Int {
        let l = layout(row, column)
        return l.isList ? l.range(row).count : 0
    }

    /// A list column's elements of `row` as indices into `element(column:index:)`.
    func listRange(row: Int, column: Int) -> Range<Int> {
        let l = layout(row, column)
        return l.isList ? l.range(row) : 0..<0
    }

    /// One element of a list column, by its index among the column's flattened elements.
    func element(column: Int, index: Int) -> Value {
        let l = layouts[column]
        precondition(l.isList && UInt(bitPattern: index) < UInt(bitPattern: l.data.count), "element index out of range")
        return l.data.value(at: index, type: l.type)
    }

    /// A whole integer (int, bool, link) column as packed ints, for tight loops. Nil for other
    /// column types and lists. Rows that are nil hold the column's minimum: check `isNull`
    /// (or `hasNulls`) for optional columns.
    func packedInts(column: Int) -> PackedInts? {
        let l = layouts[column]
        guard !l.isList, l.data.storage == .ints else { return nil }
        return l.data.ints
    }

    /// A plain (non-list) string or data column as validated by `init` — end offsets, the
    /// concatenated bytes, the null bitmap — for tight loops. Nil for other columns and lists.
    func bytesColumn(_ column: Int) -> ClusterColumnSlice? {
        let l = layouts[column]
        guard !l.isList, l.data.storage == .bytes else { return nil }
        return l.data
    }

    /// Whether any value of a (non-list) column is nil; false means `isNull` is false for every row.
    func hasNulls(column: Int) -> Bool {
        layouts[column].data.nulls != nil && !layouts[column].isList
    }
}

extension ClusterColumnLayout {
    /// Rows of the column.
    var rows: Int { isList ? listEnds.count : data.count }

    /// The value of `row` as the engine exchanges it (`.link` for links, `.list` for lists,
    /// `.null` for nil); the row is checked like an `Array` index.
    @inline(__always)
    func value(row: Int) -> Value {
        precondition(UInt(bitPattern: row) < UInt(bitPattern: rows), "row \(row) out of range 0..<\(rows)")
        guard isList else { return data.value(at: row, type: type) }
        let r = range(row)
        if isMap { return map(r) }
        var items = [Value]()
        items.reserveCapacity(r.count)
        for i in r { items.append(data.value(at: i, type: type)) }
        return .list(items)
    }
}
