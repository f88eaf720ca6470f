import Foundation

/// Appending one row to an encoded leaf without decoding it: each block (keys, every column) is
/// rebuilt from its encoding plus the new value. A packed-ints block whose base and width still
/// hold the new value is copied and the new offset bit-appended; otherwise (a new minimum, a wider
/// range, a list's element count crossing `listElementsFreeOfBits`) only that block is re-packed,
/// from its integers. Strings/data gain one end offset and their bytes; fixed-size values, null
/// bitmaps and list elements are copied and extended.
///
/// The result is exactly what `encode` writes for the leaf plus the row (see `ClusterEdit`).
extension ClusterCodec {
    /// The payload of `view`'s leaf with one row appended: `key` (greater than every key in the
    /// leaf) and `values` (one per column, already coerced to the column types, lists as `.list`).
    /// Appends to `out`.
    ///
    /// `payload` is the buffer `view` was made from (it must not alias `out`).
    static func appendingRow(
        _ view: ClusterView, payload: UnsafeRawBufferPointer, columns: [Property], key: Int64,
        values: [Value], into out: inout [UInt8]
    ) {
        precondition(
            columns.count == view.layouts.count, "view has \(view.layouts.count) columns, schema \(columns.count)")
        precondition(values.count == columns.count, "\(values.count) values for \(columns.count) columns")
        let n = view.count
        precondition(n < ClusterCodec.maxRows, "a cluster leaf holds at most \(ClusterCodec.maxRows) rows")
        precondition(n == 0 || key > view.key(at: n - 1), "appended key \(key) is not above the leaf's last key")
        _ = ClusterExtents(view, payload: payload)  // checks that `payload` is the view's

        let keys = PackedAppend(view.keyOffsets, hasValue: n > 0, added: [key &- Int64(n)], nulls: [], minWidth: 0)
        let blocks = view.layouts.enumerated().map { ColumnAppend($1, value: values[$0]) }
        assembleLeaf(
            rows: n + 1, keysSize: keys.plan.byteSize, writeKeys: { keys.write(to: &$0) }, blocks: blocks, into: &out)
    }
}

/// A packed-ints block of `old.count` values with some values appended, packed as `PackPlan`
/// would pack them all.
struct PackedAppend {
    let old: PackedInts
    let plan: PackPlan
    /// True when the plan keeps the old base and width: the old offsets are copied as they are.
    let keeps: Bool
    /// `keeps`: the appended values (null slots = the base); otherwise every value.
    let values: [Int64]

    /// A block of values that may be null (`nulls`: the bitmap of all old + appended values, empty
    /// when none is null); the encoder packs them from the minimum of the non-null ones (0…0 when
    /// there are none) and stores that minimum in null slots. `hasValue`: whether an old value is
    /// non-null (then `old.base` is their minimum).
    init(_ old: PackedInts, hasValue: Bool, added: [Int64], nulls: [UInt8], minWidth: Int) {
        self.old = old
        let n = old.count
        let total = n + added.count
        // Keeping base and width is exact when every new value lies in base ... base + 2^width − 1
        // (the new range needs no more bits, and no fewer than the old one) and the minimum width
        // has not grown past it. Without old values the encoder's base is 0 and its range empty:
        // only nulls keep it.
        var keeps = minWidth <= old.width
        if keeps {
            let mask: UInt64 = old.width >= 64 ? .max : (UInt64(1) << UInt64(old.width)) &- 1
            for (j, v) in added.enumerated() where !Self.isNull(n + j, nulls) {
                if !hasValue || v < old.base || UInt64(bitPattern: v &- old.base) > mask {
                    keeps = false
                    break
                }
            }
        }
        if keeps {
            self.keeps = true
            plan = PackPlan(count: total, base: old.base, width: old.width)
            var a = added
            if !nulls.isEmpty { for j in 0..<a.count where Self.isNull(n + j, nulls) { a[j] = old.base } }
            values = a
            return
        }
        var all = [Int64]()
        all.reserveCapacity(total)
        old.unpack(0..<n, into: &all)
        all.append(contentsOf: added)
        let (lo, hi) = ClusterCodec.fillNullSlots(&all, nulls: nulls)
        self.keeps = false
        plan = PackPlan(count: total, min: lo, max: hi, minWidth: minWidth)
        values = all
    }

    /// A block of end offsets (never decreasing, no nulls), which the encoder packs from the first.
    init(ends old: PackedInts, added: [Int64], minWidth: Int) {
        self.old = old
        let n = old.count
        let total = n + added.count
        let first = n > 0 ? old.base : (added.first ?? 0)
        let last = added.last ?? (n > 0 ? old[n - 1] : 0)
        let p = PackPlan(count: total, min: first, max: last, minWidth: minWidth)
        plan = p
        if n > 0 && p.base == old.base && p.width == old.width {
            keeps = true
            values = added
        } else {
            keeps = false
            var all = [Int64]()
            all.reserveCapacity(total)
            old.unpack(0..<n, into: &all)
            all.append(contentsOf: added)
            values = all
        }
    }

    @inline(__always)
    static func isNull(_ j: Int, _ nulls: [UInt8]) -> Bool {
        !nulls.isEmpty && nulls[j >> 3] & (UInt8(1) << UInt8(j & 7)) != 0
    }

    var size: Int { plan.byteSize }

    func write(to w: inout ByteWriter) {
        guard keeps else {
            plan.write(values, to: &w)
            return
        }
        let p = plan.writeHead(to: &w)
        let n = old.count
        let oldBytes = (n * old.width + 7) >> 3
        if oldBytes > 0 { p.copyMemory(from: old.data, byteCount: oldBytes) }
        for (j, v) in values.enumerated() { plan.store(v, at: n + j, into: p) }
    }
}

/// One column block with one row appended (for a list column: its end offsets and its elements;
/// for a dictionary column: its end offsets, keys and values).
private struct ColumnAppend: ClusterColumnBlock {
    let isList: Bool
    let listEnds: PackedAppend?
    let keys: SliceAppend?
    let data: SliceAppend
    let size: Int

    init(_ layout: ClusterColumnLayout, value: Value) {
        isList = layout.isList
        guard isList else {
            listEnds = nil
            keys = nil
            data = SliceAppend(layout.data, added: [MixedCodec.stored(value, in: layout.type)], minWidth: 0)
            size = data.size
            return
        }
        var items: [Value]
        var keyItems: [Value] = []
        switch value {
        case .list(let a) where !layout.isMap:
            items = a
        case .map where layout.isMap:
            let entries = value.sortedEntries
            items = entries.map(\.value)
            keyItems = entries.map { .string($0.key) }
        default:
            assert(value.isNull, "value \(value.kindName) in a list or dictionary column")
            items = []
        }
        let elements = layout.data.count + items.count
        let ends = PackedAppend(ends: layout.listEnds, added: [Int64(elements)], minWidth: 0)
        let minWidth = elements > ClusterCodec.listElementsFreeOfBits ? 1 : 0
        listEnds = ends
        keys = layout.keys.map { SliceAppend($0, added: keyItems, minWidth: minWidth) }
        data = SliceAppend(layout.data, added: items.map { MixedCodec.stored($0, in: layout.type) }, minWidth: minWidth)
        size = 1 + ends.size + (keys?.size ?? 0) + data.size
    }

    func write(to w: inout ByteWriter) {
        if let listEnds {
            w.u8(0)
            listEnds.write(to: &w)
        }
        keys?.write(to: &w)
        data.write(to: &w)
    }
}

/// One column block (a column's rows or a list column's elements) with `added` values appended.
private struct SliceAppend {
    let slice: ClusterColumnSlice
    let added: [Value]
    /// The new null bitmap; empty when no value is null.
    var nulls: [UInt8] = []
    /// `.ints`: values; `.date`: seconds; `.bytes`: end offsets.
    var pack: PackedAppend?
    /// `.date`: nanoseconds.
    var nanoPack: PackedAppend?
    /// `.bytes`: the old data's length.
    var oldBytes = 0
    var size = 0

    init(_ slice: ClusterColumnSlice, added: [Value], minWidth: Int) {
        self.slice = slice
        self.added = added
        let storage = slice.storage
        let n = slice.count
        let total = n + added.count
        let oldNulls = Self.oldNullCount(slice)
        var addedNull = false
        for v in added where Self.isNull(v, storage) {
            addedNull = true
            break
        }
        if oldNulls > 0 || addedNull {
            var bits = [UInt8](repeating: 0, count: (total + 7) >> 3)
            if oldNulls > 0, let old = slice.nulls {
                bits.withUnsafeMutableBytes { $0.baseAddress?.copyMemory(from: old, byteCount: (n + 7) >> 3) }
                if n & 7 != 0 { bits[n >> 3] &= UInt8(1) << UInt8(n & 7) &- 1 }
            }
            for (j, v) in added.enumerated() where Self.isNull(v, storage) {
                bits[(n + j) >> 3] |= UInt8(1) << UInt8((n + j) & 7)
            }
            nulls = bits
        }
        let hasValue = n > oldNulls
        switch storage {
        case .ints:
            let ints = added.map { v -> Int64 in
                switch v {
                case .int(let a): a
                case .bool(let b): b ? 1 : 0
                case .link(let k): k.rawValue
                default: 0
                }
            }
            let p = PackedAppend(slice.ints, hasValue: hasValue, added: ints, nulls: nulls, minWidth: minWidth)
            pack = p
            size = p.size
        case .date:
            var seconds = [Int64]()
            var nanos = [Int64]()
            seconds.reserveCapacity(added.count)
            nanos.reserveCapacity(added.count)
            for v in added {
                if case .date(let t) = v {
                    seconds.append(t.seconds)
                    nanos.append(Int64(t.nanoseconds))
                } else {
                    seconds.append(0)
                    nanos.append(0)
                }
            }
            let p = PackedAppend(slice.ints, hasValue: hasValue, added: seconds, nulls: nulls, minWidth: minWidth)
            let q = PackedAppend(slice.nanos, hasValue: hasValue, added: nanos, nulls: nulls, minWidth: 0)
            pack = p
            nanoPack = q
            size = p.size + q.size
        case .bytes:
            oldBytes = n > 0 ? Int(truncatingIfNeeded: slice.ints[n - 1]) : 0
            var end = oldBytes
            var ends = [Int64]()
            ends.reserveCapacity(added.count)
            for v in added {
                switch v {
                case .string(let s): end += s.utf8.count
                case .data(let d): end += d.count
                default: break
                }
                ends.append(Int64(end))
            }
            let p = PackedAppend(ends: slice.ints, added: ends, minWidth: minWidth)
            pack = p
            size = p.size + end
        case .float, .double, .objectId, .uuid, .decimal128:
            size = total * storage.rawStride
        }
        size += 1 + nulls.count
    }

    /// Nulls among the old values (0 without a bitmap).
    private static func oldNullCount(_ slice: ClusterColumnSlice) -> Int {
        guard let bits = slice.nulls else { return 0 }
        let n = slice.count
        var count = 0
        for k in 0..<(n >> 3) { count += bits.load(fromByteOffset: k, as: UInt8.self).nonzeroBitCount }
        if n & 7 != 0 {
            count +=
                (bits.load(fromByteOffset: n >> 3, as: UInt8.self) & (UInt8(1) << UInt8(n & 7) &- 1)).nonzeroBitCount
        }
        return count
    }

    /// Whether the encoder stores `v` as null in a block of `storage` (nil, or a mismatch — the
    /// caller's bug, asserted by `ColumnPlan` too).
    @inline(__always)
    private static func isNull(_ v: Value, _ storage: ColumnStorage) -> Bool {
        switch (storage, v) {
        case (.ints, .int), (.ints, .bool), (.ints, .link), (.float, .float), (.double, .double), (.date, .date),
            (.bytes, .string), (.bytes, .data), (.objectId, .objectId), (.uuid, .uuid),
            (.decimal128, .decimal128):
            return false
        default:
            assert(v.isNull, "value \(v.kindName) in a \(storage) column")
            return true
        }
    }

    func write(to w: inout ByteWriter) {
        w.u8(nulls.isEmpty ? 0 : 1)
        nulls.withUnsafeBytes { w.bytes($0) }
        let n = slice.count
        switch slice.storage {
        case .ints:
            pack?.write(to: &w)
        case .date:
            pack?.write(to: &w)
            nanoPack?.write(to: &w)
        case .bytes:
            pack?.write(to: &w)
            w.bytes(UnsafeRawBufferPointer(start: slice.raw, count: oldBytes))
            for v in added {
                switch v {
                case .string(var s): s.withUTF8 { w.bytes(UnsafeRawBufferPointer($0)) }
                case .data(let d): d.withUnsafeBytes { w.bytes($0) }
                default: continue
                }
            }
        case .float:
            w.bytes(UnsafeRawBufferPointer(start: slice.raw, count: 4 * n))
            let p = w.claim(4 * added.count)
            for (i, v) in added.enumerated() {
                if case .float(let f) = v {
                    p.storeBytes(of: f.bitPattern.littleEndian, toByteOffset: i << 2, as: UInt32.self)
                }
            }
        case .double:
            w.bytes(UnsafeRawBufferPointer(start: slice.raw, count: 8 * n))
            let p = w.claim(8 * added.count)
            for (i, v) in added.enumerated() {
                if case .double(let d) = v {
                    p.storeBytes(of: d.bitPattern.littleEndian, toByteOffset: i << 3, as: UInt64.self)
                }
            }
        case .objectId:
            w.bytes(UnsafeRawBufferPointer(start: slice.raw, count: 12 * n))
            let p = w.claim(12 * added.count)
            for (i, v) in added.enumerated() {
                guard case .objectId(let id) = v else { continue }
                p.storeBytes(of: id.bytes.0.bigEndian, toByteOffset: 12 * i, as: UInt32.self)
                p.storeBytes(of: id.bytes.1.bigEndian, toByteOffset: 12 * i + 4, as: UInt32.self)
                p.storeBytes(of: id.bytes.2.bigEndian, toByteOffset: 12 * i + 8, as: UInt32.self)
            }
        case .uuid:
            w.bytes(UnsafeRawBufferPointer(start: slice.raw, count: 16 * n))
            let p = w.claim(16 * added.count)
            for (i, v) in added.enumerated() {
                guard case .uuid(let u) = v else { continue }
                withUnsafeBytes(of: u.uuid) {
                    UnsafeMutableRawBufferPointer(start: p + 16 * i, count: 16).copyMemory(from: $0)
                }
            }
        case .decimal128:
            w.bytes(UnsafeRawBufferPointer(start: slice.raw, count: 16 * n))
            let p = w.claim(16 * added.count)
            for (i, v) in added.enumerated() {
                guard case .decimal128(let d) = v else { continue }
                p.storeBytes(of: d.low.littleEndian, toByteOffset: 16 * i, as: UInt64.self)
                p.storeBytes(of: d.high.littleEndian, toByteOffset: 16 * i + 8, as: UInt64.self)
            }
        }
    }
}

/// A column block that knows its encoded size and writes itself (new, edited or appended).
protocol ClusterColumnBlock {
    var size: Int { get }
    func write(to w: inout ByteWriter)
}

extension ClusterCodec {
    /// Appends a whole leaf payload — header, keys, column offset table, blocks — given its key
    /// block writer and its column blocks (the shared tail of the native edit operations).
    static func assembleLeaf<Block: ClusterColumnBlock>(
        rows: Int, keysSize: Int, writeKeys: (inout ByteWriter) -> Void,
        blocks: [Block], into out: inout [UInt8]
    ) {
        // Blocks are read in place by index: iterating them would copy each one (retaining every
        // array it holds) for every pass.
        var length = headerSize + keysSize + 4 * blocks.count
        for c in blocks.indices { length += blocks[c].size }
        precondition(length <= Int(UInt32.max), "cluster payload of \(length) bytes exceeds 4 GiB; split the leaf")
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { preconditionFailure("empty output buffer") }
            var w = ByteWriter(base + start, capacity: length)
            w.u8(format)
            w.u8(0)
            w.u16(UInt16(blocks.count))
            w.u32(UInt32(rows))
            w.u32(UInt32(length))
            writeKeys(&w)
            let table = w.position
            _ = w.claim(4 * blocks.count)
            for c in blocks.indices {
                w.patchU32(UInt32(w.position), at: table + 4 * c)
                blocks[c].write(to: &w)
            }
            precondition(w.position == length, "cluster size plan and writes disagree")
        }
    }
}
