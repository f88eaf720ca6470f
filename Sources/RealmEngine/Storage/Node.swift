/// Every structure in the file after the header is a node: a 16-byte header followed by a
/// payload, at an 8-byte-aligned offset (its *ref*; 0 means "none").
///
/// ```
/// 0        4      5       8         12         16
/// | magic  | kind | 0 0 0 | length  | checksum | payload …
/// ```
/// `length` counts the header. `checksum` is the low 32 bits of `Checksum.hash` over the payload,
/// and — in files of read format 3 and later — xored with `Node.placeTag(ref)`, a hash of the
/// node's own ref: the same bytes at another offset (two nodes swapped, a write that landed at
/// the wrong place) fail verification like damaged bytes, instead of being read as a plausible
/// node of the wrong part of a tree (an index leaf that does not hold the key looked for, so a
/// lookup that quietly finds nothing). Files of read formats 1 and 2 keep the payload-only rule
/// for good (both slots of a file name one format, and a file's nodes are all of one rule);
/// `compact` and `writeCopy` write a new file, of the new format. Every read verifies the
/// checksum the first time a snapshot reads the node (`FileBytes.anyNode`, `VerifiedNodes`), and
/// `check` for every reachable node. Every ref and length read from the file is checked against
/// the logical size of the snapshot before it is followed.
enum NodeKind: UInt8 {
    case clusterLeaf = 1
    case inner = 2
    case indexLeaf = 3
    case top = 4
    case schema = 5
    case freeList = 6
    case changeLog = 7
    case commitRecord = 8
    case freeListChunk = 9
}

enum Node {
    static let magic: UInt32 = 0x444E_5452  // "RTND"
    static let headerSize = 16
    static let alignment = 8

    /// Rounds a size up to the allocation unit.
    @inline(__always)
    static func aligned(_ n: Int) -> Int { (n + alignment - 1) & ~(alignment - 1) }

    /// Builds a complete node (header + payload, padded) from a payload.
    static func build(kind: NodeKind, payload: [UInt8]) -> [UInt8] {
        let total = aligned(headerSize + payload.count)
        return payload.withUnsafeBytes { p in
            [UInt8](uninitializedCapacity: total) { buffer, count in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                if let src = p.baseAddress, p.count > 0 {
                    (raw.baseAddress! + headerSize).copyMemory(from: src, byteCount: p.count)
                }
                // Zero the alignment padding (at most 7 bytes).
                for i in (headerSize + p.count)..<total { raw[i] = 0 }
                writeHeader(kind: kind, payloadCount: p.count, into: raw)
                count = total
            }
        }
    }

    /// Starts a node at the end of `buffer`: appends room for its header, for an encoder to
    /// append the payload after; `finish` then completes it. Returns where the node starts.
    static func begin(in buffer: inout [UInt8]) -> Int {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: headerSize))
        return start
    }

    /// Completes the node begun at `start` with `begin` (its payload is the rest of `buffer`):
    /// pads it and fills in its header.
    static func finish(in buffer: inout [UInt8], at start: Int, kind: NodeKind) {
        precondition(start >= 0 && buffer.count - start >= headerSize, "a node begins with room for its header")
        let payloadCount = buffer.count - start - headerSize
        buffer.append(contentsOf: repeatElement(0, count: aligned(payloadCount) - payloadCount))
        buffer.withUnsafeMutableBytes {
            writeHeader(
                kind: kind, payloadCount: payloadCount, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
        }
    }

    /// What a node's stored checksum is xored with for its place, in a file whose checksums bind
    /// nodes to their place (read format 3): a bijective mix of the ref (SplitMix64's finalizer),
    /// cut to 32 bits, so two refs share a tag with a chance of 2^-32.
    @inline(__always)
    static func placeTag(_ ref: UInt64) -> UInt32 {
        var x = ref &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: x ^ (x >> 31))
    }

    /// The checksum a node with `payload` stores at `ref`: the payload's hash, bound to the ref
    /// when `placeBound`.
    @inline(__always)
    static func checksum(_ payload: UnsafeRawBufferPointer, at ref: UInt64, placeBound: Bool) -> UInt32 {
        UInt32(truncatingIfNeeded: Checksum.hash(payload)) ^ (placeBound ? placeTag(ref) : 0)
    }

    /// Binds the node whose bytes start at `node` (built with `build`/`finish`, whose checksum
    /// names no place) to `ref`, or unbinds a node read from `ref` (xor is its own inverse).
    static func bindChecksum(_ node: UnsafeMutableRawBufferPointer, to ref: UInt64) {
        let stored = UInt32(littleEndian: node.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        node.storeBytes(of: (stored ^ placeTag(ref)).littleEndian, toByteOffset: 12, as: UInt32.self)
    }

    /// Writes the header of a node whose payload (`payloadCount` bytes) follows it in `raw`, with
    /// the checksum of the payload alone: a writer binds it to its ref once that is known
    /// (`TreeWriter`, in files of read format 3).
    private static func writeHeader(kind: NodeKind, payloadCount: Int, into raw: UnsafeMutableRawBufferPointer) {
        let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize..<(headerSize + payloadCount)])
        raw.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt32.self)
        raw.storeBytes(of: UInt32(kind.rawValue).littleEndian, toByteOffset: 4, as: UInt32.self)  // kind, 0 0 0
        raw.storeBytes(of: UInt32(headerSize + payloadCount).littleEndian, toByteOffset: 8, as: UInt32.self)
        raw.storeBytes(
            of: UInt32(truncatingIfNeeded: Checksum.hash(payload)).littleEndian, toByteOffset: 12, as: UInt32.self)
    }
}

/// A 64-bit hash for node checksums and string index keys: 8 bytes at a time (a multiply-xorshift
/// mix), not cryptographic.
enum Checksum {
    @inline(__always)
    private static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
        var x = (h ^ v) &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        return x
    }

    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0x1234_5678_9ABC_DEF1) -> UInt64 {
        var h = seed ^ UInt64(bytes.count)
        var i = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return mix(h, 0) }
        // Four words a round: the same sequence of mixes, with a quarter of the loop overhead
        // (every node a commit writes is hashed, so this loop is a commit's hottest).
        while i &+ 32 <= n {
            h = mix(h, base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            h = mix(h, base.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self))
            h = mix(h, base.loadUnaligned(fromByteOffset: i &+ 16, as: UInt64.self))
            h = mix(h, base.loadUnaligned(fromByteOffset: i &+ 24, as: UInt64.self))
            i &+= 32
        }
        while i &+ 8 <= n {
            h = mix(h, base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i &+= 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
            shift += 8
            i += 1
        }
        h = mix(h, tail)
        h ^= h >> 32
        return h &* 0xD6E8_FEB8_6659_FD93 ^ (h >> 31)
    }
}

/// Bounds-checked access to the bytes of one snapshot of the file.
struct FileBytes {
    let base: UnsafeRawPointer
    /// The logical size of the snapshot: no valid ref points at or past it.
    let size: UInt64
    let path: String
    /// Whether node checksums bind each node to its ref (`Node.placeTag`): the rule of the
    /// snapshot's slot (`FileHeader.Slot.bindsNodesToPlace`).
    let placeBound: Bool
    /// The nodes of this snapshot already verified (`VerifiedNodes`); nil verifies every read.
    var verified: VerifiedNodes? = nil

    /// The payload of the node at `ref`, after checking that it lies inside the file and has the
    /// expected kind.
    func node(_ ref: UInt64, kind: NodeKind) throws -> UnsafeRawBufferPointer {
        let (k, payload) = try anyNode(ref)
        guard k == kind.rawValue else {
            throw RealmError.corruptFile(path: path, offset: ref, reason: "expected a \(kind) node, found kind \(k)")
        }
        return payload
    }

    /// The kind and payload of the node at `ref`, whatever its kind (one bounds and magic check,
    /// for readers that branch on the kind). The payload's checksum is verified the first time
    /// this snapshot reads the node (every time without `verified`): damaged bytes are a
    /// `corruptFile` error, never a value.
    func anyNode(_ ref: UInt64) throws -> (kind: UInt8, payload: UnsafeRawBufferPointer) {
        let (_, k) = try header(ref)
        let p = base + Int(ref)
        let exact = Int(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        let payload = UnsafeRawBufferPointer(start: p + Node.headerSize, count: exact - Node.headerSize)
        if !(verified?.contains(ref) ?? false) { try verify(ref, kind: k, payload: payload) }
        return (k, payload)
    }

    /// Checks the stored checksum of the node at `ref` against its payload and remembers it.
    @inline(never)
    private func verify(_ ref: UInt64, kind: UInt8, payload: UnsafeRawBufferPointer) throws {
        let stored = UInt32(littleEndian: (base + Int(ref)).loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        guard Node.checksum(payload, at: ref, placeBound: placeBound) == stored else {
            let name = NodeKind(rawValue: kind).map { "\($0)" } ?? "kind \(kind)"
            let cause =
                placeBound
                ? "its bytes were damaged after they were written, or belong at another place"
                : "its bytes were damaged after they were written"
            throw RealmError.corruptFile(
                path: path, offset: ref, reason: "checksum mismatch in a \(name) node: \(cause)")
        }
        verified?.insert(ref)
    }

    /// The kind and allocated length of the node at `ref`, after the bounds and magic checks —
    /// without hashing its payload (that is `extent`'s job, for `check`).
    @inline(__always)
    func header(_ ref: UInt64) throws -> (length: UInt64, kind: UInt8) {
        guard ref >= UInt64(FileHeader.size), ref % UInt64(Node.alignment) == 0, ref + UInt64(Node.headerSize) <= size
        else {
            throw RealmError.corruptFile(path: path, offset: ref, reason: "a reference points outside the file")
        }
        let p = base + Int(ref)
        guard UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) == Node.magic else {
            throw RealmError.corruptFile(path: path, offset: ref, reason: "no node at this reference (bad magic)")
        }
        let length = UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        guard length >= UInt64(Node.headerSize), ref + length <= size else {
            throw RealmError.corruptFile(path: path, offset: ref, reason: "node length runs past the end of the file")
        }
        return (UInt64(Node.aligned(Int(length))), p.load(fromByteOffset: 4, as: UInt8.self))
    }

    /// The total allocated extent of the node at `ref` (header + payload, aligned), its kind, and
    /// whether its checksum matches. Used by `check` and when freeing.
    func extent(_ ref: UInt64) throws -> (length: UInt64, kind: UInt8, checksumOK: Bool) {
        let (length, kind) = try header(ref)
        let p = base + Int(ref)
        let stored = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        let exact = Int(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        let payload = UnsafeRawBufferPointer(start: p + Node.headerSize, count: exact - Node.headerSize)
        return (length, kind, Node.checksum(payload, at: ref, placeBound: placeBound) == stored)
    }
}
