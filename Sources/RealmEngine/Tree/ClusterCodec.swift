/// The columnar encoding of one cluster leaf: up to a few hundred objects of one class, column
/// by column, read in place from the mapping by `ClusterView`.
///
/// # Payload (format 1; little-endian; no alignment — every read is `loadUnaligned`)
/// ```
///  +0  u8   format            = 1
///  +1  u8   flags             = 0 (reserved)
///  +2  u16  columnCount         must equal the class's persisted columns
///  +4  u32  rowCount            ≤ ClusterCodec.maxRows
///  +8  u32  payloadLength       bytes of this whole payload, header included
/// +12  keys        packed ints of (key[i] − i): consecutive keys → width 0, zero bytes
///      u32 × columnCount        start of each column block, from the payload start;
///                               column c ends where c + 1 starts (the last at payloadLength)
///      column blocks …
/// ```
/// A *packed ints* block (see `PackedInts`) is 1 header byte (width code | base byte count << 4),
/// 0–8 base bytes, then ⌈n·width/8⌉ bytes of offsets from the base.
///
/// # Column block (n values: the rows, or for a list column's elements the element count)
/// ```
///  u8 flags        bit 0: a null bitmap follows (absent = no value is null)
///  [⌈n/8⌉ bytes]   null bitmap, bit i of byte i/8 (LSB first) set = value i is null
///  then by type:
///   bool, int, int8/16/32, link   packed ints (bool 0/1, link = object key; null slots = base)
///   float / double                n × 4 / n × 8 bytes: the IEEE bit pattern (NaN payloads, −0 kept)
///   date                          packed ints of seconds, packed ints of nanoseconds (0..<1e9)
///   string / data                 packed ints of n end offsets, then the concatenated bytes
///                                 (UTF-8 for strings; nil and "" both have length 0 — the
///                                 bitmap tells them apart)
///   objectId / uuid               n × 12 (big-endian words: byte order = sort order) / n × 16
///   decimal128                    n × 16: the low word, then the high word, each little-endian
///                                 (Realm Core's layout of the BID128 value)
///   mixed                         as data, each non-nil value in `MixedCodec`'s encoding
///   list of T (flags = 0)         packed ints of n end offsets counted in elements, then one
///                                 column block of T holding every row's elements in row order
///                                 (elements of `T?[]` may be null through that block's bitmap)
/// ```
///
/// # What `ClusterView.init` checks (so that no later read can leave the payload)
/// Header fields; every block lies inside its column's extent and fills it exactly; end-offset
/// sequences start at ≥ 0 and never decrease (so every string/list range is inside its data);
/// keys strictly increase (so `row(of:)` can binary-search); nanoseconds are in 0..<1e9.
/// Element counts are bounded by the bytes that hold them: the encoder packs element columns
/// with more than `listElementsFreeOfBits` elements at ≥ 1 bit each, so a corrupt count cannot
/// make `decode()` allocate memory out of proportion to the payload.
///
/// # Why this shape
/// One switch per column (encode, decode, validate), tight loops inside. Realm packs integers
/// the same way (widths 0–64 from the range); packing `key − i` instead of `key − min` makes
/// the usual run of consecutive keys free. End offsets (not lengths) make string i O(1).
enum ClusterCodec {
    /// The format byte written now; readers refuse others.
    static let format: UInt8 = 1
    /// Fixed header size.
    static let headerSize = 12
    /// Rows one payload may hold. Far above `Limits.clusterRows` (leaves split before), low
    /// enough that a corrupt row count cannot ask `decode()` for gigabytes.
    static let maxRows = 1 << 16
    /// A list column's elements may be packed at width 0 (no bytes) up to this many; beyond,
    /// each element costs at least one bit, which is what bounds element counts on read.
    static let listElementsFreeOfBits = 4096

    /// Appends the encoded payload (no node header — the caller adds one) to `out`.
    ///
    /// `cluster` must be well-formed (our invariant, checked with preconditions): keys strictly
    /// ascending, one array per column of `columns` (persisted properties, in order), each with
    /// `keys.count` values already coerced to the column's type.
    static func encode(_ cluster: ClusterData, columns: [Property], into out: inout [UInt8]) {
        let layout = EncodingLayout(cluster, columns: columns)
        let start = out.count
        // An array, not `repeatElement`: appending a repeated element goes element by element
        // unless optimised, which made unoptimised builds (the test suite) spend a third of a
        // big copy here.
        out.append(contentsOf: [UInt8](repeating: 0, count: layout.size))
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { preconditionFailure("empty output buffer") }
            var w = ByteWriter(base + start, capacity: layout.size)
            layout.write(to: &w)
            precondition(w.position == layout.size, "cluster size plan and writes disagree")
        }
    }

    /// The exact size `encode` will append (computes the same packing choices, writes nothing),
    /// so callers can decide when to split a leaf by bytes.
    static func encodedSize(_ cluster: ClusterData, columns: [Property]) -> Int {
        EncodingLayout(cluster, columns: columns).size
    }
}

/// The mutable, decoded form of one leaf: keys ascending, one array per persisted column, each
/// with `keys.count` values (already type-checked and coerced by the caller: integers as `.int`,
/// booleans as `.bool`, links as `.link` or `.null`, lists as `.list`).
package struct ClusterData: Equatable, Sendable {
    var keys: [Int64]
    var columns: [[Value]]

    init(keys: [Int64] = [], columns: [[Value]]) {
        self.keys = keys
        self.columns = columns
    }

    /// An empty leaf with `columnCount` columns.
    init(columnCount: Int) {
        self.init(keys: [], columns: Array(repeating: [], count: columnCount))
    }

    var count: Int { keys.count }
}

/// How a column of a given property type is laid out (list columns lay out their elements so).
enum ColumnStorage: Sendable {
    case ints, float, double, date, bytes, objectId, uuid, decimal128

    init(_ type: PropertyType) {
        switch type {
        case .bool, .int, .int8, .int16, .int32, .object, .linkingObjects: self = .ints
        case .float: self = .float
        case .double: self = .double
        case .date: self = .date
        // A Mixed value is stored as its `MixedCodec` bytes.
        case .string, .data, .mixed: self = .bytes
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal128: self = .decimal128
        }
    }

    /// Bytes per value for fixed-size raw storage.
    var rawStride: Int {
        switch self {
        case .float: 4
        case .double: 8
        case .objectId: 12
        case .uuid, .decimal128: 16
        default: 0
        }
    }
}

/// Everything `encode` decides before writing: packing plans per column and the total size.
struct EncodingLayout {
    let rowCount: Int
    let keyOffsets: [Int64]
    let keyPlan: PackPlan
    let columns: [ColumnPlan]
    let size: Int

    init(_ cluster: ClusterData, columns properties: [Property]) {
        let n = cluster.keys.count
        precondition(n <= ClusterCodec.maxRows, "a cluster leaf holds at most \(ClusterCodec.maxRows) rows")
        precondition(
            cluster.columns.count == properties.count,
            "cluster has \(cluster.columns.count) columns, schema \(properties.count)")
        precondition(properties.count <= Int(UInt16.max), "too many columns")
        rowCount = n
        var offsets = [Int64]()
        offsets.reserveCapacity(n)
        for (i, k) in cluster.keys.enumerated() {
            assert(i == 0 || cluster.keys[i - 1] < k, "cluster keys must be strictly ascending")
            offsets.append(k &- Int64(i))
        }
        keyOffsets = offsets
        keyPlan = PackPlan(offsets)
        var plans = [ColumnPlan]()
        plans.reserveCapacity(properties.count)
        var total = ClusterCodec.headerSize + keyPlan.byteSize + 4 * properties.count
        for (c, p) in properties.enumerated() {
            precondition(
                cluster.columns[c].count == n, "column \(p.name) has \(cluster.columns[c].count) values for \(n) keys")
            let plan = ColumnPlan(cluster.columns[c], type: p.type, isList: p.isList, isMap: p.isMap)
            total += plan.size
            plans.append(plan)
        }
        precondition(total <= Int(UInt32.max), "cluster payload of \(total) bytes exceeds 4 GiB; split the leaf")
        self.columns = plans
        size = total
    }

    func write(to w: inout ByteWriter) {
        w.u8(ClusterCodec.format)
        w.u8(0)
        w.u16(UInt16(columns.count))
        w.u32(UInt32(rowCount))
        w.u32(UInt32(size))
        keyPlan.write(keyOffsets, to: &w)
        let table = w.position
        _ = w.claim(4 * columns.count)
        for (c, plan) in columns.enumerated() {
            w.patchU32(UInt32(w.position), at: table + 4 * c)
            plan.write(to: &w)
        }
    }
}

extension ClusterCodec {
    /// The minimum and maximum of the values whose bit in the null bitmap `nulls` is clear (an
    /// empty bitmap: none is null), (0, 0) when there are none; null slots are then set to the
    /// minimum, as the encoder stores them.
    static func fillNullSlots(_ values: inout [Int64], nulls: [UInt8]) -> (min: Int64, max: Int64) {
        func isNull(_ j: Int) -> Bool { nulls[j >> 3] & (UInt8(1) << UInt8(j & 7)) != 0 }
        var lo = Int64.max
        var hi = Int64.min
        if nulls.isEmpty {
            for v in values {
                lo = min(lo, v)
                hi = max(hi, v)
            }
        } else {
            for j in values.indices where !isNull(j) {
                lo = min(lo, values[j])
                hi = max(hi, values[j])
            }
        }
        if lo > hi {
            lo = 0
            hi = 0
        }
        if !nulls.isEmpty {
            for j in values.indices where isNull(j) { values[j] = lo }
        }
        return (lo, hi)
    }
}
