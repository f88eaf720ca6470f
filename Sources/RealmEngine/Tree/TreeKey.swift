/// The key of a B+tree entry: 128 bits compared as (hi, lo). Cluster trees use `hi = 0` and the
/// object key as `lo`; search indexes use the value's index key as `hi` and the object key as `lo`,
/// so entries with equal values sit next to each other, ordered by object key.
struct TreeKey: Comparable, Hashable {
    var hi: UInt64
    var lo: Int64

    static func < (a: TreeKey, b: TreeKey) -> Bool {
        a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo
    }

    static let min = TreeKey(hi: 0, lo: .min)
}

/// The decoded, mutable form of a leaf inside a write transaction.
enum LeafData {
    case cluster(ClusterData)
    case index([TreeKey])

    var count: Int {
        switch self {
        case .cluster(let c): c.keys.count
        case .index(let e): e.count
        }
    }

    var firstKey: TreeKey? {
        switch self {
        case .cluster(let c): c.keys.first.map { TreeKey(hi: 0, lo: $0) }
        case .index(let e): e.first
        }
    }
}

/// One child reference inside an inner node, or the root of a tree.
struct TreeChild {
    /// The smallest key in the subtree.
    var firstKey: TreeKey
    /// Entries (objects or index entries) in the subtree.
    var count: Int
    /// Where the subtree is stored; 0 when it has never been written.
    var ref: UInt64
    /// The subtree loaded for modification in the current write transaction.
    var node: TreeNode?
}

/// A node loaded into memory by a write transaction. Loading a node means it will be rewritten:
/// its old ref is freed when it is loaded.
final class TreeNode {
    enum Body {
        case leaf(LeafData)
        case inner([TreeChild])
    }
    var body: Body
    init(_ body: Body) { self.body = body }
}

/// Inner node payload: `count u32 | pad u32 | count × (keyHi u64, keyLo i64, ref u64, subtreeCount u64)`.
enum InnerNodeCodec {
    static let entrySize = 32

    static func encode(_ children: [TreeChild]) -> [UInt8] {
        // Stored in place: a small commit re-encodes each inner node on its path (up to
        // ~4 KB), and appending field by field cost more than the rest of the node's work.
        let total = 8 + children.count * entrySize
        return [UInt8](uninitializedCapacity: total) { out, initialized in
            let raw = UnsafeMutableRawBufferPointer(out)
            raw.storeBytes(of: UInt32(children.count).littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
            children.withUnsafeBufferPointer { all in
                var o = 8
                for c in all {
                    raw.storeBytes(of: c.firstKey.hi.littleEndian, toByteOffset: o, as: UInt64.self)
                    raw.storeBytes(of: c.firstKey.lo.littleEndian, toByteOffset: o + 8, as: Int64.self)
                    raw.storeBytes(of: c.ref.littleEndian, toByteOffset: o + 16, as: UInt64.self)
                    raw.storeBytes(of: UInt64(c.count).littleEndian, toByteOffset: o + 24, as: UInt64.self)
                    o += entrySize
                }
            }
            initialized = total
        }
    }

    /// Appends to `out` the payload of `view`'s node with child `i` replaced by `child` (a
    /// path copy: every other entry is copied as it is).
    static func replacing(_ view: View, child i: Int, with child: TreeChild, into out: inout [UInt8]) {
        precondition(i >= 0 && i < view.count, "child \(i) of an inner node of \(view.count)")
        let start = out.count
        let size = 8 + view.count * entrySize
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: view.payload[..<size]))
        out.withUnsafeMutableBytes { raw in
            let o = start + 8 + i * entrySize
            raw.storeBytes(of: child.firstKey.hi.littleEndian, toByteOffset: o, as: UInt64.self)
            raw.storeBytes(of: child.firstKey.lo.littleEndian, toByteOffset: o + 8, as: Int64.self)
            raw.storeBytes(of: child.ref.littleEndian, toByteOffset: o + 16, as: UInt64.self)
            raw.storeBytes(of: UInt64(child.count).littleEndian, toByteOffset: o + 24, as: UInt64.self)
        }
    }

    /// A bounds-checked view of an inner node's payload.
    struct View {
        let payload: UnsafeRawBufferPointer
        let count: Int

        init(_ payload: UnsafeRawBufferPointer, path: String, ref: UInt64) throws {
            guard payload.count >= 8 else {
                throw RealmError.corruptFile(path: path, offset: ref, reason: "inner node too short")
            }
            let n = Int(UInt32(littleEndian: payload.loadUnaligned(as: UInt32.self)))
            guard n > 0, n <= (payload.count - 8) / InnerNodeCodec.entrySize else {
                throw RealmError.corruptFile(
                    path: path, offset: ref, reason: "inner node count \(n) does not fit its node")
            }
            self.payload = payload
            count = n
        }

        @inline(__always) func key(_ i: Int) -> TreeKey {
            let o = 8 + i * InnerNodeCodec.entrySize
            return TreeKey(
                hi: UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: o, as: UInt64.self)),
                lo: Int64(littleEndian: payload.loadUnaligned(fromByteOffset: o + 8, as: Int64.self)))
        }
        @inline(__always) func ref(_ i: Int) -> UInt64 {
            UInt64(
                littleEndian: payload.loadUnaligned(
                    fromByteOffset: 8 + i * InnerNodeCodec.entrySize + 16, as: UInt64.self))
        }
        @inline(__always) func subtreeCount(_ i: Int) -> Int {
            Int(
                truncatingIfNeeded: UInt64(
                    littleEndian: payload.loadUnaligned(
                        fromByteOffset: 8 + i * InnerNodeCodec.entrySize + 24, as: UInt64.self)))
        }

        /// The child whose subtree may hold `key`: the last child whose first key is ≤ key (or 0).
        func childIndex(for key: TreeKey) -> Int {
            var lo = 0
            var hi = count
            while lo < hi {
                let mid = (lo + hi) / 2
                if key < self.key(mid) { hi = mid } else { lo = mid + 1 }
            }
            return Swift.max(0, lo - 1)
        }

        func children() -> [TreeChild] {
            (0..<count).map { TreeChild(firstKey: key($0), count: subtreeCount($0), ref: ref($0), node: nil) }
        }
    }
}

/// Index leaf payload: `count u32`, then the entries' `hi` halves and `lo` halves as two
/// packed-int blocks (`PackedInts`), sorted by (hi, lo). Integer keys are order-preserving and
/// object keys mostly ascend, so an index on an int primary key takes about two bytes an entry.
enum IndexLeafCodec {
    static func encode(_ entries: [TreeKey]) -> [UInt8] {
        let his = entries.map { Int64(bitPattern: $0.hi) }
        let los = entries.map(\.lo)
        let hiPlan = PackPlan(his)
        let loPlan = PackPlan(los)
        var out = [UInt8](repeating: 0, count: 4 + hiPlan.byteSize + loPlan.byteSize)
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var w = ByteWriter(base, capacity: raw.count)
            w.u32(UInt32(entries.count))
            hiPlan.write(his, to: &w)
            loPlan.write(los, to: &w)
        }
        return out
    }

    /// Appends to `out` the payload of `view`'s leaf with `entry` (after every entry) appended:
    /// what `encode` writes for the entries plus `entry`, without unpacking them.
    static func appending(_ view: View, _ entry: TreeKey, into out: inout [UInt8]) {
        precondition(view.count == 0 || view.entry(view.count - 1) < entry, "an appended index entry goes last")
        let hasValue = view.count > 0
        let his = PackedAppend(
            view.his, hasValue: hasValue, added: [Int64(bitPattern: entry.hi)], nulls: [], minWidth: 0)
        let los = PackedAppend(view.los, hasValue: hasValue, added: [entry.lo], nulls: [], minWidth: 0)
        let start = out.count
        let size = 4 + his.size + los.size
        out.append(contentsOf: repeatElement(0, count: size))
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var w = ByteWriter(base + start, capacity: size)
            w.u32(UInt32(view.count + 1))
            his.write(to: &w)
            los.write(to: &w)
        }
    }

    struct View {
        let count: Int
        /// The entries' `hi` and `lo` halves.
        let his: PackedInts
        let los: PackedInts

        init(_ payload: UnsafeRawBufferPointer, path: String, ref: UInt64) throws {
            guard let base = payload.baseAddress, payload.count >= 4 else {
                throw RealmError.corruptFile(path: path, offset: ref, reason: "index leaf too short")
            }
            let n = Int(UInt32(littleEndian: payload.loadUnaligned(as: UInt32.self)))
            guard n <= 1 << 20 else {
                throw RealmError.corruptFile(path: path, offset: ref, reason: "index leaf count does not fit its node")
            }
            var r = ByteReader(base, position: 4, end: payload.count)
            do {
                his = try r.packedInts(count: n, "index keys")
                los = try r.packedInts(count: n, "index object keys")
            } catch let e as CodecError {
                throw e.realmError(path: path, nodeOffset: ref + UInt64(Node.headerSize))
            }
            count = n
        }

        @inline(__always) func entry(_ i: Int) -> TreeKey {
            TreeKey(hi: UInt64(bitPattern: his[i]), lo: los[i])
        }
        /// Every entry (each column unpacked once, not entry by entry).
        func entries() -> [TreeKey] {
            let h = his.unpackAll()
            let l = los.unpackAll()
            let n = Swift.min(count, h.count, l.count)
            return [TreeKey](uninitializedCapacity: n) { out, initialized in
                for i in 0..<n { out[i] = TreeKey(hi: UInt64(bitPattern: h[i]), lo: l[i]) }
                initialized = n
            }
        }
        /// First position whose entry is ≥ key.
        func lowerBound(_ key: TreeKey) -> Int {
            var lo = 0
            var hi = count
            while lo < hi {
                let mid = (lo + hi) / 2
                if entry(mid) < key { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }
}
