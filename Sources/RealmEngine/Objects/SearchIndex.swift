/// Search indexes: a B+tree of `(indexKey(value), objectKey)` entries per indexed column.
///
/// Integers (and bools) map to an order-preserving 64-bit key, everything else to a 64-bit hash;
/// a lookup collects the entries with the value's key and then checks each candidate's stored
/// value, so hash collisions (and nil sharing a key with a number) never give a wrong answer.
enum SearchIndex {
    /// The 64-bit index key of a value.
    static func key(_ value: Value) -> UInt64 {
        switch value {
        case .null: return 0x6E75_6C6C_6E75_6C6C
        case .bool(let b): return key(int: b ? 1 : 0, type: .bool)
        case .int(let v): return key(int: v, type: .int)
        case .string(let s):
            var s = s
            return s.withUTF8 { Checksum.hash(UnsafeRawBufferPointer($0), seed: 0x5354) }
        case .date(let t):
            return UInt64(bitPattern: t.seconds) &* 1_000_000_007 ^ UInt64(UInt32(bitPattern: t.nanoseconds))
        case .objectId(let o):
            return (UInt64(o.bytes.0) << 32 | UInt64(o.bytes.1)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(o.bytes.2)
        case .uuid(let u):
            return withUnsafeBytes(of: u.uuid) { Checksum.hash($0, seed: 0x5555) }
        case .decimal128(let d):
            // Equal decimals key alike (1.0 and 1.00): the key is of the value's canonical words.
            let words = d.canonical
            return (words.high &* 0x9E37_79B9_7F4A_7C15) ^ words.low ^ 0x4445_4331
        case .float(let f): return UInt64(f.bitPattern)
        case .double(let d): return d.bitPattern
        case .data(let d): return d.withUnsafeBytes { Checksum.hash($0, seed: 0x4441) }
        case .link(let k): return key(int: k.rawValue, type: .object)
        case .typedLink(let l):
            var name = l.className
            return name.withUTF8 { Checksum.hash(UnsafeRawBufferPointer($0), seed: 0x4C4B) }
                ^ UInt64(bitPattern: l.key.rawValue)
        case .list, .map: return 0
        }
    }

    /// The index key of a value of an integer-stored column (`.bool` 0/1, `.object` a link's
    /// key, else an int) from its stored integer: the one rule `key(_:)` and `keys` share.
    @inline(__always)
    static func key(int v: Int64, type: PropertyType) -> UInt64 {
        switch type {
        case .bool: v != 0 ? 1 : 0
        case .object: UInt64(bitPattern: v)
        default: UInt64(bitPattern: v) ^ (1 << 63)
        }
    }

    /// The index keys of `rows` (ascending) of one column of an encoded leaf, as `key(value, type:)` gives
    /// them: integer columns straight from their packed values, others through a `Value`.
    static func keys(_ view: ClusterView, column: Int, rows: [Int]) -> [UInt64] {
        let layout = view.layouts[column]
        if !layout.isList, layout.data.storage == .ints, let last = rows.last {
            let data = layout.data
            precondition(last < view.count, "row \(last) out of range 0..<\(view.count)")
            let values = rows.withUnsafeBufferPointer { data.ints.gather($0) }
            let type = layout.type
            var out = values.map { key(int: $0, type: type) }
            if data.nulls != nil {
                for (j, r) in rows.enumerated() where data.isNull(r) { out[j] = key(.null) }
            }
            return out
        }
        var out = [UInt64]()
        out.reserveCapacity(rows.count)
        for r in rows { out.append(key(view.value(row: r, column: column), type: layout.type)) }
        return out
    }

    /// True when no entry of the index can have key `hi` because every entry sorts before it —
    /// read off the rightmost leaf when this transaction has it loaded (a bulk insert of
    /// increasing primary keys), without a lookup. False means "unknown": look it up.
    static func isPastLastEntry(_ root: TreeChild?, hi: UInt64) -> Bool {
        guard let root else { return true }
        var node = root.node
        while let n = node {
            switch n.body {
            case .inner(let children):
                node = children.last?.node
            case .leaf(.index(let entries)):
                guard let last = entries.last else { return false }
                return last.hi < hi
            case .leaf(.cluster):
                return false
            }
        }
        return false
    }

    /// Object keys whose entry key is `hi` (candidates; callers verify the value).
    static func candidates(_ root: TreeChild?, hi: UInt64, reader: TreeReader) throws -> [ObjectKey] {
        guard let root else { return [] }
        var out: [ObjectKey] = []
        let start = TreeKey(hi: hi, lo: .min)
        // Usually every entry with this key sits in one leaf. The leaf that holds (hi, max) has
        // all of them when it also holds an entry before (hi, min): then none can sit in an
        // earlier leaf, and none in a later one. Otherwise walk from the start.
        var reachedEnd = false
        switch try reader.leaf(root, key: TreeKey(hi: hi, lo: .max)) {
        case .memory(.index(let entries)):
            var i = lowerBound(entries, start)
            reachedEnd = i == 0
            while i < entries.count, entries[i].hi == hi {
                out.append(ObjectKey(entries[i].lo))
                i += 1
            }
        case .file(let payload, let ref):
            let view = try IndexLeafCodec.View(payload, path: reader.bytes.path, ref: ref)
            var i = view.lowerBound(start)
            reachedEnd = i == 0
            while i < view.count {
                let e = view.entry(i)
                guard e.hi == hi else { break }
                out.append(ObjectKey(e.lo))
                i += 1
            }
        default:
            reachedEnd = true
        }
        guard reachedEnd else { return out }
        out.removeAll()
        try reader.forEachLeaf(root, from: start) { leaf in
            switch leaf {
            case .memory(.index(let entries)):
                var i = lowerBound(entries, start)
                while i < entries.count {
                    guard entries[i].hi == hi else { return false }
                    out.append(ObjectKey(entries[i].lo))
                    i += 1
                }
                return true
            case .file(let payload, let ref):
                let view = try IndexLeafCodec.View(payload, path: reader.bytes.path, ref: ref)
                var i = view.lowerBound(start)
                while i < view.count {
                    let e = view.entry(i)
                    guard e.hi == hi else { return false }
                    out.append(ObjectKey(e.lo))
                    i += 1
                }
                return true
            default:
                return true
            }
        }
        return out
    }

    static func lowerBound(_ entries: [TreeKey], _ key: TreeKey) -> Int {
        var lo = 0
        var hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Adds an entry for a value of a column of `type` (write transactions only).
    static func insert(_ root: inout TreeChild?, value: Value, type: PropertyType, key: ObjectKey, writer: TreeWriter)
        throws
    {
        let entry = TreeKey(hi: self.key(value, type: type), lo: key.rawValue)
        // Increasing primary keys (and any value past the last entry) append at the right edge.
        let appended = try writer.appendAtRightEdge(
            root: &root, key: entry, limit: Limits.indexLeafEntries, columns: nil,
            append: { leaf in
                guard case .index(var entries) = leaf else { return }
                leaf = .index([])
                entries.append(entry)
                leaf = .index(entries)
            },
            single: {
                var entries = [TreeKey]()
                entries.reserveCapacity(Limits.indexLeafEntries)
                entries.append(entry)
                return .index(entries)
            })
        if try appended || writer.appendEntryToCommittedLeaf(root: &root, entry: entry) { return }
        try writer.mutate(root: &root, key: entry, columns: nil, emptyLeaf: { .index([]) }) { leaf in
            guard case .index(var entries) = leaf else { return }
            leaf = .index([])
            let i = lowerBound(entries, entry)
            if i == entries.count || entries[i] != entry { entries.insert(entry, at: i) }
            leaf = .index(entries)
        }
    }

    /// Removes an entry for a value of a column of `type` (write transactions only).
    static func remove(_ root: inout TreeChild?, value: Value, type: PropertyType, key: ObjectKey, writer: TreeWriter)
        throws
    {
        guard root != nil else { return }
        let entry = TreeKey(hi: self.key(value, type: type), lo: key.rawValue)
        try writer.mutate(root: &root, key: entry, columns: nil, emptyLeaf: { .index([]) }) { leaf in
            guard case .index(var entries) = leaf else { return }
            leaf = .index([])
            let i = lowerBound(entries, entry)
            if i < entries.count && entries[i] == entry { entries.remove(at: i) }
            leaf = .index(entries)
        }
    }
}
