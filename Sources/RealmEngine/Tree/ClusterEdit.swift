import Foundation

/// Edits of an encoded leaf that work on the encoding itself instead of `decode()` → change →
/// `encode()`: bulk updates replace one column block and copy the rest; bulk deletes re-pack the
/// surviving rows column by column without a `Value` per row (`ClusterCodec+RemovingRows.swift`).
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
    static func replacingColumn(
        _ view: ClusterView, payload: UnsafeRawBufferPointer, columns: [Property], column: Int,
        values: [Value], into out: inout [UInt8]
    ) {
        precondition(
            columns.count == view.layouts.count, "view has \(view.layouts.count) columns, schema \(columns.count)")
        precondition(column >= 0 && column < columns.count, "column \(column) out of range 0..<\(columns.count)")
        precondition(values.count == view.count, "\(values.count) values for \(view.count) rows")
        let extents = ClusterExtents(view, payload: payload)
        let p = columns[column]
        let plan = ColumnPlan(values, type: p.type, isList: p.isList, isMap: p.isMap)
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
        precondition(
            keyData >= ClusterCodec.headerSize && length <= payload.count
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
