import Foundation

/// The encoding decisions for one column block (rows of a column, or a list column's
/// flattened elements): integers extracted once, packing widths chosen, size known. `write`
/// then emits exactly `size` bytes. A struct (a class's stored `var`s cost a dynamic exclusivity
/// check per access, which dominated profiles); a list column's element plan sits in a box.
struct ColumnPlan {
    let storage: ColumnStorage
    let isList: Bool
    /// A dictionary column: `keys` plans the keys block before the values.
    let isMap: Bool
    /// The values this block encodes (for a list column: the rows, each a `.list`).
    let values: [Value]
    /// Null bitmap bytes; empty when no value is null.
    private(set) var nulls: [UInt8] = []
    /// `.ints`: the values (null slots = the minimum); `.date`: seconds;
    /// `.bytes`, list: end offsets.
    private(set) var ints: [Int64] = []
    private(set) var pack = PackPlan.empty
    /// `.date`: nanoseconds.
    private(set) var nanos: [Int64] = []
    private(set) var nanoPack = PackPlan.empty
    /// `.bytes`: total bytes of all values.
    private(set) var blobBytes = 0
    /// A list column's elements (a dictionary's values).
    private(set) var element: ElementPlan?
    /// A dictionary column's keys.
    private(set) var keys: ElementPlan?
    private(set) var size = 0

    init(_ values: [Value], type: PropertyType, isList: Bool, isMap: Bool = false, minWidth: Int = 0) {
        self.storage = ColumnStorage(type)
        self.isList = isList || isMap
        self.isMap = isMap
        // A Mixed column is a data column of encoded values (nested collections included).
        self.values = type == .mixed && !isList && !isMap ? values.map { MixedCodec.stored($0, in: type) } : values
        let n = values.count
        if isMap {
            planMap(type: type)
            return
        }
        if isList {
            planList(type: type)
            return
        }
        switch storage {
        case .ints: planInts(minWidth: minWidth)
        case .date: planDates(minWidth: minWidth)
        case .bytes: planBytes(minWidth: minWidth)
        case .float, .double, .objectId, .uuid, .decimal128:
            for (i, v) in values.enumerated() where !matches(v) { markNull(i) }
        }
        switch storage {
        case .ints: size = pack.byteSize
        case .date: size = pack.byteSize + nanoPack.byteSize
        case .bytes: size = pack.byteSize + blobBytes
        case .float, .double, .objectId, .uuid, .decimal128: size = n * storage.rawStride
        }
        size += 1 + nulls.count
    }

    private mutating func markNull(_ i: Int) {
        if nulls.isEmpty { nulls = [UInt8](repeating: 0, count: (values.count + 7) >> 3) }
        nulls[i >> 3] |= UInt8(1) << UInt8(i & 7)
    }

    /// Whether `v` is a non-null value of this raw storage (mismatches other than nil are the
    /// caller's bug: they are stored as nil).
    private func matches(_ v: Value) -> Bool {
        switch (storage, v) {
        case (.float, .float), (.double, .double), (.objectId, .objectId), (.uuid, .uuid), (.decimal128, .decimal128):
            return true
        case (_, .null): return false
        default:
            assertionFailure("value \(v.kindName) in a \(storage) column")
            return false
        }
    }

    // The plan functions read the values through a buffer pointer and fill their integer arrays
    // in place: `enumerated()` plus `append` cost several times the work itself (leaves are
    // encoded in full whenever a bulk insert fills one).

    private mutating func planInts(minWidth: Int) {
        var lo = Int64.max
        var hi = Int64.min
        var nullRows = [Int]()
        ints = values.withUnsafeBufferPointer { vs in
            [Int64](uninitializedCapacity: vs.count) { out, initialized in
                for i in vs.indices {
                    let x: Int64
                    switch vs[i] {
                    case .int(let a): x = a
                    case .bool(let b): x = b ? 1 : 0
                    case .link(let k): x = k.rawValue
                    default:
                        assert(vs[i].isNull, "value \(vs[i].kindName) in an integer column")
                        nullRows.append(i)
                        out[i] = 0
                        continue
                    }
                    lo = min(lo, x)
                    hi = max(hi, x)
                    out[i] = x
                }
                initialized = vs.count
            }
        }
        for i in nullRows { markNull(i) }
        if lo > hi {
            lo = 0
            hi = 0
        }
        Self.fillNullSlots(&ints, with: lo, nulls: nulls)
        pack = PackPlan(count: ints.count, min: lo, max: hi, minWidth: minWidth)
    }

    private mutating func planDates(minWidth: Int) {
        var lo = Int64.max
        var hi = Int64.min
        var nlo = Int64.max
        var nhi = Int64.min
        var nullRows = [Int]()
        var seconds = [Int64](repeating: 0, count: values.count)
        var nanoseconds = [Int64](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { vs in
            seconds.withUnsafeMutableBufferPointer { sec in
                nanoseconds.withUnsafeMutableBufferPointer { nsec in
                    for i in vs.indices {
                        guard case .date(let t) = vs[i] else {
                            assert(vs[i].isNull, "value \(vs[i].kindName) in a date column")
                            nullRows.append(i)
                            continue
                        }
                        let ns = Int64(t.nanoseconds)
                        lo = min(lo, t.seconds)
                        hi = max(hi, t.seconds)
                        nlo = min(nlo, ns)
                        nhi = max(nhi, ns)
                        sec[i] = t.seconds
                        nsec[i] = ns
                    }
                }
            }
        }
        ints = seconds
        nanos = nanoseconds
        for i in nullRows { markNull(i) }
        if lo > hi {
            lo = 0
            hi = 0
            nlo = 0
            nhi = 0
        }
        Self.fillNullSlots(&ints, with: lo, nulls: nulls)
        Self.fillNullSlots(&nanos, with: nlo, nulls: nulls)
        pack = PackPlan(count: ints.count, min: lo, max: hi, minWidth: minWidth)
        nanoPack = PackPlan(count: nanos.count, min: nlo, max: nhi)
    }

    private mutating func planBytes(minWidth: Int) {
        var end = 0
        var nullRows = [Int]()
        ints = values.withUnsafeBufferPointer { vs in
            [Int64](uninitializedCapacity: vs.count) { out, initialized in
                for i in vs.indices {
                    switch vs[i] {
                    case .string(let s): end += s.utf8.count
                    case .data(let d): end += d.count
                    default:
                        assert(vs[i].isNull, "value \(vs[i].kindName) in a string/data column")
                        nullRows.append(i)
                    }
                    out[i] = Int64(end)
                }
                initialized = vs.count
            }
        }
        for i in nullRows { markNull(i) }
        blobBytes = end
        pack = PackPlan(count: ints.count, min: ints.first ?? 0, max: Int64(end), minWidth: minWidth)
    }

    private mutating func planList(type: PropertyType) {
        ints.reserveCapacity(values.count)
        var flat = [Value]()
        var end = 0
        for v in values {
            if case .list(let items) = v {
                end += items.count
                flat.append(contentsOf: items)
            } else {
                assert(v.isNull, "value \(v.kindName) in a list column")
            }
            ints.append(Int64(end))
        }
        pack = PackPlan(count: ints.count, min: ints.first ?? 0, max: Int64(end))
        let minWidth = flat.count > ClusterCodec.listElementsFreeOfBits ? 1 : 0
        let elements = ColumnPlan(flat, type: type, isList: false, minWidth: minWidth)
        element = ElementPlan(elements)
        size = 1 + pack.byteSize + elements.size
    }

    /// A dictionary column: end offsets, then every row's keys (ascending by bytes, as
    /// `Value.sortedEntries` gives them), then the values in the same order.
    private mutating func planMap(type: PropertyType) {
        ints.reserveCapacity(values.count)
        var flatKeys = [Value]()
        var flat = [Value]()
        var end = 0
        for v in values {
            if case .map = v {
                for (key, value) in v.sortedEntries {
                    flatKeys.append(.string(key))
                    flat.append(value)
                }
                end = flat.count
            } else {
                assert(v.isNull, "value \(v.kindName) in a dictionary column")
            }
            ints.append(Int64(end))
        }
        pack = PackPlan(count: ints.count, min: ints.first ?? 0, max: Int64(end))
        let minWidth = flat.count > ClusterCodec.listElementsFreeOfBits ? 1 : 0
        let keyPlan = ColumnPlan(flatKeys, type: .string, isList: false, minWidth: minWidth)
        let elements = ColumnPlan(flat, type: type, isList: false, minWidth: minWidth)
        keys = ElementPlan(keyPlan)
        element = ElementPlan(elements)
        size = 1 + pack.byteSize + keyPlan.size + elements.size
    }

    private static func fillNullSlots(_ a: inout [Int64], with filler: Int64, nulls: [UInt8]) {
        guard !nulls.isEmpty, filler != 0 else { return }
        for i in 0..<a.count where nulls[i >> 3] & (UInt8(1) << UInt8(i & 7)) != 0 { a[i] = filler }
    }

    func write(to w: inout ByteWriter) {
        w.u8(nulls.isEmpty ? 0 : 1)
        nulls.withUnsafeBytes { w.bytes($0) }
        if isList {
            pack.write(ints, to: &w)
            keys?.plan.write(to: &w)
            element?.plan.write(to: &w)
            return
        }
        let n = values.count
        switch storage {
        case .ints:
            pack.write(ints, to: &w)
        case .date:
            pack.write(ints, to: &w)
            nanoPack.write(nanos, to: &w)
        case .float:
            let p = w.claim(4 * n)
            for (i, v) in values.enumerated() {
                if case .float(let f) = v {
                    p.storeBytes(of: f.bitPattern.littleEndian, toByteOffset: i << 2, as: UInt32.self)
                }
            }
        case .double:
            let p = w.claim(8 * n)
            for (i, v) in values.enumerated() {
                if case .double(let d) = v {
                    p.storeBytes(of: d.bitPattern.littleEndian, toByteOffset: i << 3, as: UInt64.self)
                }
            }
        case .objectId:
            let p = w.claim(12 * n)
            for (i, v) in values.enumerated() {
                guard case .objectId(let id) = v else { continue }
                p.storeBytes(of: id.bytes.0.bigEndian, toByteOffset: 12 * i, as: UInt32.self)
                p.storeBytes(of: id.bytes.1.bigEndian, toByteOffset: 12 * i + 4, as: UInt32.self)
                p.storeBytes(of: id.bytes.2.bigEndian, toByteOffset: 12 * i + 8, as: UInt32.self)
            }
        case .uuid:
            let p = w.claim(16 * n)
            for (i, v) in values.enumerated() {
                guard case .uuid(let u) = v else { continue }
                withUnsafeBytes(of: u.uuid) {
                    UnsafeMutableRawBufferPointer(start: p + 16 * i, count: 16).copyMemory(from: $0)
                }
            }
        case .decimal128:
            let p = w.claim(16 * n)
            for (i, v) in values.enumerated() {
                guard case .decimal128(let d) = v else { continue }
                p.storeBytes(of: d.low.littleEndian, toByteOffset: 16 * i, as: UInt64.self)
                p.storeBytes(of: d.high.littleEndian, toByteOffset: 16 * i + 8, as: UInt64.self)
            }
        case .bytes:
            pack.write(ints, to: &w)
            let p = w.claim(blobBytes)
            var at = 0
            for v in values {
                switch v {
                case .string(var s):
                    s.withUTF8 { u in
                        if let src = u.baseAddress, u.count > 0 { (p + at).copyMemory(from: src, byteCount: u.count) }
                        at += u.count
                    }
                case .data(let d):
                    d.withUnsafeBytes { u in
                        if let src = u.baseAddress, u.count > 0 { (p + at).copyMemory(from: src, byteCount: u.count) }
                        at += u.count
                    }
                default:
                    continue
                }
            }
            assert(at == blobBytes)
        }
    }
}

/// The plan of a list column's flattened elements (boxed: a struct cannot contain itself).
final class ElementPlan {
    let plan: ColumnPlan
    init(_ plan: ColumnPlan) { self.plan = plan }
}
