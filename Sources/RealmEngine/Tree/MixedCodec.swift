import Foundation

/// The stored bytes of one Mixed value: a Mixed column is a string/data column (`.bytes`
/// storage: end offsets, then the bytes) whose non-nil values are these encodings, so nested
/// lists and dictionaries live inside their row's value and need no column of their own.
///
/// # Encoding (little-endian, no alignment)
/// ```
///  u8 tag, then by tag:
///   0 nil (only inside a list or dictionary: a column's nil is its null bitmap)
///   1 false   2 true
///   3 int       i64
///   4 float     u32 IEEE bits        5 double  u64 IEEE bits (NaN payloads and −0 kept)
///   6 string    u32 length, UTF-8    7 data    u32 length, bytes
///   8 date      i64 seconds, i32 nanoseconds (0..<1e9)
///   9 objectId  12 bytes (big-endian words)     10 uuid  16 bytes
///  11 decimal128 u64 low, u64 high
///  12 link      u32 length, class name (UTF-8), i64 object key
///  13 list      u32 count, count values
///  14 dictionary u32 count, count × (u32 length, key UTF-8, value), keys strictly ascending by bytes
/// ```
/// `decode` checks everything (lengths inside the bytes, valid UTF-8 for names, keys in order,
/// nesting at most `Value.maxMixedDepth`, no bytes left over), so a corrupt value is a
/// `CodecError`, found when the leaf is first read, never a wrong value later.
enum MixedCodec {
    private enum Tag: UInt8 {
        case null = 0
        case falseValue, trueValue, int, float, double, string, data, date, objectId, uuid, decimal128, link, list, map
    }

    /// What a column block of `type` stores for `value`: for a Mixed column, nil or the
    /// value's encoding as data; for any other column, the value itself.
    @inline(__always)
    static func stored(_ value: Value, in type: PropertyType) -> Value {
        guard type == .mixed, !value.isNull else { return value }
        return .data(encode(value))
    }

    /// The stored bytes of `value` (already checked: no untyped link, depth within bounds).
    static func encode(_ value: Value) -> Data {
        var out = [UInt8]()
        append(value, to: &out)
        return Data(out)
    }

    private static func append(_ value: Value, to out: inout [UInt8]) {
        func tag(_ t: Tag) { out.append(t.rawValue) }
        func u32(_ v: Int) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { out.append(contentsOf: $0) }
        }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func bytes(_ s: String) {
            u32(s.utf8.count)
            out.append(contentsOf: s.utf8)
        }
        switch value {
        case .null: tag(.null)
        case .bool(let b): tag(b ? .trueValue : .falseValue)
        case .int(let i):
            tag(.int)
            u64(UInt64(bitPattern: i))
        case .float(let f):
            tag(.float)
            withUnsafeBytes(of: f.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        case .double(let d):
            tag(.double)
            u64(d.bitPattern)
        case .string(let s):
            tag(.string)
            bytes(s)
        case .data(let d):
            tag(.data)
            u32(d.count)
            out.append(contentsOf: d)
        case .date(let t):
            tag(.date)
            u64(UInt64(bitPattern: t.seconds))
            withUnsafeBytes(of: t.nanoseconds.littleEndian) { out.append(contentsOf: $0) }
        case .objectId(let id):
            tag(.objectId)
            for w in [id.bytes.0, id.bytes.1, id.bytes.2] {
                withUnsafeBytes(of: w.bigEndian) { out.append(contentsOf: $0) }
            }
        case .uuid(let u):
            tag(.uuid)
            withUnsafeBytes(of: u.uuid) { out.append(contentsOf: $0) }
        case .decimal128(let d):
            tag(.decimal128)
            u64(d.low)
            u64(d.high)
        case .typedLink(let l):
            tag(.link)
            bytes(l.className)
            u64(UInt64(bitPattern: l.key.rawValue))
        case .link(let k):
            // Coercion turns every link in a Mixed value into a typed one; an untyped link here
            // is the engine's bug, kept as a nil rather than a link to the wrong class.
            assertionFailure("untyped link \(k) in a Mixed value")
            tag(.null)
        case .list(let items):
            tag(.list)
            u32(items.count)
            for item in items { append(item, to: &out) }
        case .map:
            let entries = value.sortedEntries
            tag(.map)
            u32(entries.count)
            for (key, v) in entries {
                bytes(key)
                append(v, to: &out)
            }
        }
    }

    /// The value stored in `bytes`; throws `CodecError` (offsets relative to `bytes`) for any
    /// bytes `encode` cannot have written.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> Value {
        guard let base = bytes.baseAddress else { throw CodecError(offset: 0, "an empty Mixed value") }
        var r = ByteReader(base, end: bytes.count)
        let value = try read(&r, depth: 0)
        guard r.remaining == 0 else { throw r.fail("\(r.remaining) bytes after a Mixed value") }
        return value
    }

    private static func read(_ r: inout ByteReader, depth: Int) throws -> Value {
        let at = r.position
        guard let tag = Tag(rawValue: try r.u8("Mixed type")) else {
            throw CodecError(offset: at, "unknown Mixed type")
        }
        func u64() throws -> UInt64 {
            UInt64(littleEndian: try r.take(8, "Mixed value").loadUnaligned(as: UInt64.self))
        }
        func u32() throws -> Int {
            Int(UInt32(littleEndian: try r.take(4, "Mixed length").loadUnaligned(as: UInt32.self)))
        }
        func text(_ what: String) throws -> String {
            let n = try u32()
            let p = try r.take(n, what)
            guard let s = String(validating: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self) else {
                throw r.fail("\(what) is not UTF-8")
            }
            return s
        }
        func nested() throws -> Int {
            guard depth < Value.maxMixedDepth else {
                throw CodecError(offset: at, "Mixed value nested deeper than \(Value.maxMixedDepth)")
            }
            let count = try u32()
            // Every element takes at least one byte: a count beyond the bytes left is corrupt
            // (and must not size an allocation).
            guard count <= r.remaining else {
                throw CodecError(offset: at, "\(count) Mixed elements in \(r.remaining) bytes")
            }
            return count
        }
        switch tag {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .int: return .int(Int64(bitPattern: try u64()))
        case .float:
            return .float(
                Float(bitPattern: UInt32(littleEndian: try r.take(4, "float").loadUnaligned(as: UInt32.self))))
        case .double: return .double(Double(bitPattern: try u64()))
        case .string: return .string(try text("Mixed string"))
        case .data:
            let n = try u32()
            return .data(Data(UnsafeRawBufferPointer(start: try r.take(n, "Mixed data"), count: n)))
        case .date:
            let seconds = Int64(bitPattern: try u64())
            let nanos = Int32(littleEndian: try r.take(4, "nanoseconds").loadUnaligned(as: Int32.self))
            guard (0..<1_000_000_000).contains(nanos) else { throw r.fail("nanoseconds \(nanos) out of range") }
            return .date(Timestamp(seconds: seconds, nanoseconds: nanos))
        case .objectId:
            let p = try r.take(12, "objectId")
            return .objectId(
                ObjectId(
                    words: (
                        UInt32(bigEndian: p.loadUnaligned(as: UInt32.self)),
                        UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                        UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
                    )))
        case .uuid: return .uuid(UUID(uuid: try r.take(16, "uuid").loadUnaligned(as: uuid_t.self)))
        case .decimal128:
            let low = try u64()
            return .decimal128(Decimal128(low: low, high: try u64()))
        case .link:
            let name = try text("link class")
            guard !name.isEmpty else { throw r.fail("a Mixed link names no class") }
            return .typedLink(TypedLink(className: name, key: ObjectKey(Int64(bitPattern: try u64()))))
        case .list:
            let count = try nested()
            var items = [Value]()
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try read(&r, depth: depth + 1)) }
            return .list(items)
        case .map:
            let count = try nested()
            var entries = [String: Value](minimumCapacity: count)
            var previous: String?
            for _ in 0..<count {
                let keyAt = r.position
                let key = try text("dictionary key")
                if let previous, ValueOrder.bytes(previous, key) >= 0 {
                    throw CodecError(offset: keyAt, "Mixed dictionary keys do not ascend at '\(key)'")
                }
                previous = key
                entries[key] = try read(&r, depth: depth + 1)
            }
            return .map(entries)
        }
    }
}
