import Foundation

/// A validated column of a `ClusterView`: for a plain column, its rows; for a list (or set)
/// column, the per-row end offsets plus the flattened elements; for a dictionary column, the
/// end offsets, the flattened keys and the flattened values.
struct ClusterColumnLayout {
    let type: PropertyType
    /// Whether rows are ranges of elements (lists, sets and dictionaries).
    let isList: Bool
    /// Whether this is a dictionary column (`keys` holds each element's key).
    let isMap: Bool
    /// List and dictionary columns: end offset (in elements) of each row.
    let listEnds: PackedInts
    /// Dictionary columns: the keys (strings), one per element, ascending by bytes in each row.
    let keys: ClusterColumnSlice?
    /// The values: one per row, or a list column's elements (a dictionary's values).
    let data: ClusterColumnSlice

    init(_ r: inout ByteReader, property: Property, count: Int) throws {
        type = property.type
        isMap = property.isMap
        isList = property.isList || property.isMap
        let storage = ColumnStorage(property.type)
        guard isList else {
            listEnds = .empty
            keys = nil
            data = try ClusterColumnSlice(&r, storage: storage, count: count)
            if type == .mixed { try data.checkMixed() }
            return
        }
        let flagsAt = r.position
        guard try r.u8("list flags") == 0 else { throw CodecError(offset: flagsAt, "list column with row flags") }
        let endsAt = r.position
        listEnds = try r.packedInts(count: count, "list end offsets")
        let elements = try ClusterColumnSlice.checkEndOffsets(listEnds, at: endsAt)
        // Honest encoders spend ≥ 1 bit per element past `listElementsFreeOfBits` (see ClusterCodec).
        let (bits, overflow) = r.remaining.multipliedReportingOverflow(by: 8)
        guard !overflow, elements <= ClusterCodec.listElementsFreeOfBits + bits else {
            throw CodecError(offset: endsAt, "\(elements) list elements cannot fit in \(r.remaining) bytes")
        }
        if isMap {
            let keysAt = r.position
            let keys = try ClusterColumnSlice(&r, storage: .bytes, count: elements)
            guard keys.nulls == nil else { throw CodecError(offset: keysAt, "a dictionary key is nil") }
            // Keys ascend strictly in each row, so a decoded dictionary never merges two entries.
            for row in 0..<count {
                let end = Int(truncatingIfNeeded: listEnds[row])
                let start = row == 0 ? 0 : Int(truncatingIfNeeded: listEnds[row - 1])
                guard start + 1 < end else { continue }
                for i in start + 1..<end {
                    let a = keys.bytes(at: i - 1).bindMemory(to: UInt8.self)
                    let b = keys.bytes(at: i).bindMemory(to: UInt8.self)
                    guard ValueOrder.bytes(a, b) < 0 else {
                        throw CodecError(offset: keysAt, "dictionary keys of row \(row) do not ascend at element \(i)")
                    }
                }
            }
            self.keys = keys
        } else {
            keys = nil
        }
        data = try ClusterColumnSlice(&r, storage: storage, count: elements)
        if type == .mixed { try data.checkMixed() }
    }

    /// Element indices of a list row (the row already checked).
    @inline(__always)
    func range(_ row: Int) -> Range<Int> {
        let end = Int(truncatingIfNeeded: listEnds[row])
        let start = row == 0 ? 0 : Int(truncatingIfNeeded: listEnds[row - 1])
        return start..<end
    }

    /// The dictionary of a map row from its element range.
    func map(_ range: Range<Int>, values: [Value]? = nil) -> Value {
        guard let keys else { return .map([:]) }
        var out = [String: Value](minimumCapacity: range.count)
        for i in range {
            let key = String(decoding: keys.bytes(at: i), as: UTF8.self)
            out[key] = values?[i] ?? data.value(at: i, type: type)
        }
        return .map(out)
    }

    /// Every row's value.
    func decodeAll(rows: Int) -> [Value] {
        guard isList else { return data.decodeAll(type: type) }
        let flat = data.decodeAll(type: type)
        var out = [Value]()
        out.reserveCapacity(rows)
        if isMap {
            for row in 0..<rows { out.append(map(range(row), values: flat)) }
            return out
        }
        for row in 0..<rows { out.append(.list(Array(flat[range(row)]))) }
        return out
    }
}

/// `count` validated values of one storage kind (a column block without its list wrapper).
/// Indices passed in are the caller's and are already checked against `count`.
struct ClusterColumnSlice {
    let storage: ColumnStorage
    let count: Int
    /// Null bitmap, or nil when no value is null.
    let nulls: UnsafeRawPointer?
    /// `.ints`: values; `.date`: seconds; `.bytes`: end offsets.
    let ints: PackedInts
    /// `.date`: nanoseconds.
    let nanos: PackedInts
    /// `.float`/`.double`/`.objectId`/`.uuid`/`.decimal128`: the fixed-size values; `.bytes`: the concatenated bytes.
    let raw: UnsafeRawPointer

    init(_ r: inout ByteReader, storage: ColumnStorage, count: Int) throws {
        self.storage = storage
        self.count = count
        let flagsAt = r.position
        let flags = try r.u8("column flags")
        guard flags & ~1 == 0 else {
            throw CodecError(offset: flagsAt, "unknown column flags 0x\(String(flags, radix: 16))")
        }
        nulls = flags & 1 != 0 ? try r.take((count + 7) >> 3, "null bitmap") : nil
        var ints = PackedInts.empty
        var nanos = PackedInts.empty
        switch storage {
        case .ints:
            ints = try r.packedInts(count: count, "integers")
            raw = r.base + r.position
        case .date:
            ints = try r.packedInts(count: count, "date seconds")
            let nanosAt = r.position
            nanos = try r.packedInts(count: count, "date nanoseconds")
            // When base and width alone keep every value in range (the usual case: width 0 for
            // whole seconds), no value needs looking at.
            let inRangeByWidth =
                nanos.base >= 0 && nanos.width < 32
                && nanos.base + (Int64(1) << Int64(nanos.width)) - 1 < 1_000_000_000
            if !inRangeByWidth {
                for i in 0..<count {
                    let ns = nanos.base &+ Int64(bitPattern: nanos.offset(i))
                    guard ns >= 0, ns < 1_000_000_000 else {
                        throw CodecError(offset: nanosAt, "nanoseconds \(ns) out of range at \(i)")
                    }
                }
            }
            raw = r.base + r.position
        case .bytes:
            let endsAt = r.position
            ints = try r.packedInts(count: count, "string end offsets")
            let total = try Self.checkEndOffsets(ints, at: endsAt)
            raw = try r.take(total, "string bytes")
        case .float, .double, .objectId, .uuid, .decimal128:
            let (n, overflow) = count.multipliedReportingOverflow(by: storage.rawStride)
            guard !overflow else { throw r.fail("\(count) values do not fit") }
            raw = try r.take(n, "fixed-size values")
        }
        self.ints = ints
        self.nanos = nanos
    }

    /// Checks that end offsets start at ≥ 0 and never decrease; returns the last (0 if none).
    static func checkEndOffsets(_ ends: PackedInts, at offset: Int) throws -> Int {
        // One switch on the width, then a tight loop (every leaf read validates these).
        let last: Int64
        switch ends.width {
        case 8:
            last = try checkAscending(ends, at: offset) { p, i in UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
        case 16:
            last = try checkAscending(ends, at: offset) { p, i in
                UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
            }
        case 32:
            last = try checkAscending(ends, at: offset) { p, i in
                UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
            }
        default: last = try checkAscending(ends, at: offset) { _, i in ends.offset(i) }
        }
        guard last <= Int64(Int32.max) * 2 else { throw CodecError(offset: offset, "end offset \(last) too large") }
        return Int(last)
    }

    /// Checks that the values start at ≥ 0 and never decrease; returns the last (0 if none).
    @inline(__always)
    private static func checkAscending(_ ends: PackedInts, at offset: Int, _ load: (UnsafeRawPointer, Int) -> UInt64)
        throws -> Int64
    {
        var previous: Int64 = 0
        let base = ends.base
        let data = ends.data
        for i in 0..<ends.count {
            let e = base &+ Int64(bitPattern: load(data, i))
            guard e >= previous else {
                throw CodecError(offset: offset, "end offset \(e) at \(i) is below \(previous)")
            }
            previous = e
        }
        return previous
    }

    @inline(__always)
    func isNull(_ i: Int) -> Bool {
        guard let nulls else { return false }
        return nulls.load(fromByteOffset: i >> 3, as: UInt8.self) & (UInt8(1) << UInt8(i & 7)) != 0
    }

    @inline(__always)
    func double(at i: Int) -> Double {
        switch storage {
        case .double:
            Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i << 3, as: UInt64.self)))
        case .float: Double(float(at: i))
        default: 0
        }
    }

    @inline(__always)
    func float(at i: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
    }

    @inline(__always)
    func timestamp(at i: Int) -> Timestamp {
        guard storage == .date else { return Timestamp(seconds: 0) }
        // Nanoseconds were validated to 0..<1e9, so the initializer does not normalise (or overflow).
        return Timestamp(seconds: ints[i], nanoseconds: Int32(truncatingIfNeeded: nanos[i]))
    }

    @inline(__always)
    func bytes(at i: Int) -> UnsafeRawBufferPointer {
        guard storage == .bytes else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let end = Int(truncatingIfNeeded: ints[i])
        let start = i == 0 ? 0 : Int(truncatingIfNeeded: ints[i - 1])
        return UnsafeRawBufferPointer(start: raw + start, count: end - start)
    }

    func objectId(at i: Int) -> ObjectId {
        let p = raw + 12 * i
        return ObjectId(
            words: (
                UInt32(bigEndian: p.loadUnaligned(as: UInt32.self)),
                UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            ))
    }

    func uuid(at i: Int) -> UUID {
        UUID(uuid: (raw + 16 * i).loadUnaligned(as: uuid_t.self))
    }

    /// Any 16 bytes are a decimal128 (non-canonical ones read as zero), so nothing to validate.
    func decimal128(at i: Int) -> Decimal128 {
        let p = raw + 16 * i
        return Decimal128(
            low: UInt64(littleEndian: p.loadUnaligned(as: UInt64.self)),
            high: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    /// The value at `i` for a column of `type`.
    func value(at i: Int, type: PropertyType) -> Value {
        if isNull(i) { return .null }
        switch storage {
        case .ints: return Self.intValue(ints[i], type: type)
        case .float: return .float(float(at: i))
        case .double: return .double(double(at: i))
        case .date: return .date(timestamp(at: i))
        case .bytes: return Self.bytesValue(bytes(at: i), type: type)
        case .objectId: return .objectId(objectId(at: i))
        case .uuid: return .uuid(uuid(at: i))
        case .decimal128: return .decimal128(decimal128(at: i))
        }
    }

    @inline(__always)
    static func intValue(_ v: Int64, type: PropertyType) -> Value {
        switch type {
        case .bool: .bool(v != 0)
        case .object: .link(ObjectKey(v))
        default: .int(v)
        }
    }

    @inline(__always)
    static func bytesValue(_ b: UnsafeRawBufferPointer, type: PropertyType) -> Value {
        switch type {
        case .data: return .data(Data(b))
        // Checked by `checkMixed` when the view was made, so decoding cannot fail here.
        case .mixed: return (try? MixedCodec.decode(b)) ?? .null
        default: return .string(String(decoding: b, as: UTF8.self))
        }
    }

    /// Checks that every non-nil value of a Mixed column decodes (see `MixedCodec`), so later
    /// reads cannot meet bad bytes.
    func checkMixed() throws {
        for i in 0..<count where !isNull(i) {
            let b = bytes(at: i)
            do {
                _ = try MixedCodec.decode(b)
            } catch let error as CodecError {
                let start = i == 0 ? 0 : Int(truncatingIfNeeded: ints[i - 1])
                throw CodecError(offset: error.offset + start, "Mixed value \(i): \(error.reason)")
            }
        }
    }

    /// All `count` values, with one switch for the column rather than one per value.
    func decodeAll(type: PropertyType) -> [Value] {
        var out = [Value]()
        out.reserveCapacity(count)
        switch storage {
        case .ints:
            for i in 0..<count {
                out.append(
                    isNull(i) ? .null : Self.intValue(ints.base &+ Int64(bitPattern: ints.offset(i)), type: type))
            }
        case .float:
            for i in 0..<count { out.append(isNull(i) ? .null : .float(float(at: i))) }
        case .double:
            for i in 0..<count { out.append(isNull(i) ? .null : .double(double(at: i))) }
        case .date:
            for i in 0..<count { out.append(isNull(i) ? .null : .date(timestamp(at: i))) }
        case .bytes:
            for i in 0..<count { out.append(isNull(i) ? .null : Self.bytesValue(bytes(at: i), type: type)) }
        case .objectId:
            for i in 0..<count { out.append(isNull(i) ? .null : .objectId(objectId(at: i))) }
        case .uuid:
            for i in 0..<count { out.append(isNull(i) ? .null : .uuid(uuid(at: i))) }
        case .decimal128:
            for i in 0..<count { out.append(isNull(i) ? .null : .decimal128(decimal128(at: i))) }
        }
        return out
    }
}
