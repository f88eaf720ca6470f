/// The free list in the file, and how a commit writes it.
///
/// ```
/// root  (.freeList)      "FSCHUNKS" u64 | count u64 | count × (window u64 | chunk ref u64)
/// chunk (.freeListChunk) count u64 | per extent three LEB128 varints: the gap from the previous
///                        extent's end (the window's start for the first), the length, the
///                        freeing version
/// ```
/// Windows ascend; every extent of a chunk starts inside its window. A commit rewrites the root
/// (16 bytes a window) and the chunks it changed — not the whole list.
///
/// Write format 1 kept the whole list in the root (`count u64`, then the same varints counted
/// from the end of the header). `load` still reads it, as chunks that are all changed, so the
/// first commit writes the chunked form (and write format 2 in its slot).
///
/// `persist` is a fixed point: freeing the old nodes of changed chunks changes more chunks, and
/// reserving room for the new nodes (and the root, and the commit record) changes more still.
/// It repeats until every changed chunk has room for its exact encoding, then encodes. Every
/// step only frees or allocates through `free`/`allocate`, so invariant 1 holds throughout.
extension FreeSpace {
    static let rootMarker: UInt64 = 0x5354_4E55_4843_5346  // "FSCHUNKS" little-endian

    /// The root payload naming every written chunk (an empty list for a new file).
    func payload() -> [UInt8] {
        var n = 0
        for i in chunks.indices where chunks[i].ref != 0 { n += 1 }
        return [UInt8](uninitializedCapacity: 16 + n * 16) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.storeBytes(of: FreeSpace.rootMarker.littleEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: UInt64(n).littleEndian, toByteOffset: 8, as: UInt64.self)
            var at = 16
            for i in chunks.indices where chunks[i].ref != 0 {
                raw.storeBytes(of: chunks[i].window.littleEndian, toByteOffset: at, as: UInt64.self)
                raw.storeBytes(of: chunks[i].ref.littleEndian, toByteOffset: at + 8, as: UInt64.self)
                at += 16
            }
            count = at
        }
    }

    /// A chunk's payload, padded with zeros to `size` bytes (at least its exact size).
    static func chunkPayload(_ c: borrowing Chunk, size: Int? = nil) -> [UInt8] {
        let exact = chunkPayloadSize(c)
        let total = max(exact, size ?? exact)
        return [UInt8](uninitializedCapacity: total) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.storeBytes(of: UInt64(c.extents.count).littleEndian, toByteOffset: 0, as: UInt64.self)
            var at = 8
            @inline(__always) func put(_ value: UInt64) {
                var v = value
                while v >= 0x80 {
                    raw[at] = UInt8(truncatingIfNeeded: v) | 0x80
                    at += 1
                    v >>= 7
                }
                raw[at] = UInt8(v)
                at += 1
            }
            var end = c.window * window
            for e in c.extents {
                put(e.offset - end)
                put(e.length)
                put(e.freedIn)
                end = e.offset + e.length
            }
            while at < total {
                raw[at] = 0
                at += 1
            }
            count = total
        }
    }

    /// The size of `chunkPayload(c)` without building it.
    static func chunkPayloadSize(_ c: borrowing Chunk) -> Int {
        @inline(__always) func size(_ v: UInt64) -> Int { v == 0 ? 1 : (64 - v.leadingZeroBitCount + 6) / 7 }
        var n = 8
        var end = c.window * window
        for e in c.extents {
            n += size(e.offset - end) + size(e.length) + size(e.freedIn)
            end = e.offset + e.length
        }
        return n
    }

    @inline(__always)
    static func varint(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    // MARK: Reading

    /// The free list whose root is at `ref`, chunked; every ref and extent bounds-checked.
    static func load(_ bytes: FileBytes, ref: UInt64) throws -> [Chunk] {
        func corrupt(_ at: UInt64, _ reason: String) -> RealmError {
            RealmError.corruptFile(path: bytes.path, offset: at, reason: reason)
        }
        let p = try bytes.node(ref, kind: .freeList)
        guard p.count >= 8, UInt64(littleEndian: p.loadUnaligned(as: UInt64.self)) == rootMarker else {
            // Write format 1: the whole list in one node.
            return chunked(try decode(p, logicalSize: bytes.size, path: bytes.path, ref: ref))
        }
        guard p.count >= 16 else { throw corrupt(ref, "free list root too short") }
        let n = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        guard n <= UInt64(p.count - 16) / 16 else { throw corrupt(ref, "free list root count exceeds its node") }
        var out: [Chunk] = []
        out.reserveCapacity(Int(n))
        var end = UInt64(FileHeader.size)
        for i in 0..<Int(n) {
            let w = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 16 + i * 16, as: UInt64.self))
            let chunkRef = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 24 + i * 16, as: UInt64.self))
            guard out.last.map({ $0.window < w }) ?? true, w <= bytes.size / window else {
                throw corrupt(ref, "free list chunk \(i) is out of order")
            }
            let (length, _) = try bytes.header(chunkRef)
            let extents = try decodeChunk(
                try bytes.node(chunkRef, kind: .freeListChunk), window: w, logicalSize: bytes.size,
                path: bytes.path, ref: chunkRef)
            guard let first = extents.first, first.offset >= end else {
                throw corrupt(chunkRef, "free list chunk is empty or overlaps the previous one")
            }
            end = extents[extents.count - 1].offset + extents[extents.count - 1].length
            out.append(Chunk(window: w, extents: extents, ref: chunkRef, nodeLength: length, changed: false))
        }
        return out
    }

    static func decodeChunk(
        _ payload: UnsafeRawBufferPointer, window w: UInt64, logicalSize: UInt64, path: String,
        ref: UInt64
    ) throws -> [Extent] {
        let start = w * window
        let extents = try decodeVarints(payload, from: start, logicalSize: logicalSize, path: path, ref: ref)
        guard extents.allSatisfy({ $0.offset < start + window }) else {
            throw RealmError.corruptFile(
                path: path, offset: ref, reason: "free list chunk holds an extent outside its window")
        }
        return extents
    }

    /// Write format 1: the whole list, counted from the end of the header.
    static func decode(_ payload: UnsafeRawBufferPointer, logicalSize: UInt64, path: String, ref: UInt64) throws
        -> [Extent]
    {
        try decodeVarints(payload, from: UInt64(FileHeader.size), logicalSize: logicalSize, path: path, ref: ref)
    }

    private static func decodeVarints(
        _ payload: UnsafeRawBufferPointer, from start: UInt64, logicalSize: UInt64, path: String,
        ref: UInt64
    ) throws -> [Extent] {
        func corrupt(_ reason: String) -> RealmError { RealmError.corruptFile(path: path, offset: ref, reason: reason) }
        guard payload.count >= 8 else { throw corrupt("free list too short") }
        let n = payload.loadUnaligned(as: UInt64.self).littleEndian
        guard n <= UInt64(payload.count - 8) / 3 else { throw corrupt("free list count exceeds its node") }
        var at = 8
        func next() throws -> UInt64 {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard at < payload.count, shift < 64 else { throw corrupt("free list entry runs past its node") }
                let b = payload[at]
                at += 1
                v |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return v }
                shift += 7
            }
        }
        var out: [Extent] = []
        out.reserveCapacity(Int(n))
        var end = start
        for i in 0..<Int(n) {
            let gap = try next()
            let length = try next()
            let freedIn = try next()
            let (offset, o1) = end.addingReportingOverflow(gap)
            let (stop, o2) = offset.addingReportingOverflow(length)
            guard !o1, !o2, length > 0, offset >= UInt64(FileHeader.size), stop <= logicalSize,
                offset % UInt64(Node.alignment) == 0
            else {
                throw corrupt("free list entry \(i) is out of order or out of bounds")
            }
            out.append(Extent(offset: offset, length: length, freedIn: freedIn))
            end = stop
        }
        return out
    }

    /// A flat list as chunks that are all changed (none has a node yet).
    static func chunked(_ extents: [Extent]) -> [Chunk] {
        var out: [Chunk] = []
        for e in extents {
            let w = e.offset / window
            if out.last?.window != w { out.append(Chunk(window: w)) }
            out[out.count - 1].extents.append(e)
        }
        return out
    }

    /// Write format 1's encoding (tests build old files with it).
    static func legacyPayload(_ extents: [Extent]) -> [UInt8] {
        var out = [UInt8]()
        out.appendLE(UInt64(extents.count))
        var end = UInt64(FileHeader.size)
        for e in extents {
            varint(e.offset - end, into: &out)
            varint(e.length, into: &out)
            varint(e.freedIn, into: &out)
            end = e.offset + e.length
        }
        return out
    }

    // MARK: Writing (the commit)

    /// The nodes a commit writes for the free list.
    struct Persisted {
        var rootRef: UInt64
        /// Every changed chunk's node and the root, built to fill their reservations exactly.
        var nodes: [(ref: UInt64, node: [UInt8])]
        /// Room for the commit record, if `recordSize` asked for one.
        var record: (ref: UInt64, size: Int)?
    }

    /// Frees the old nodes of changed chunks, reserves room for their new nodes, the root and
    /// the commit record (`recordSize(n)`: its size when the list writes `n` nodes, nil for no
    /// record), until nothing changes, then builds the nodes. Allocation continues the commit's
    /// run, so the list's nodes land beside the commit's other nodes.
    mutating func persist(recordSize: (Int) -> Int?) throws -> Persisted {
        var root: (ref: UInt64, size: Int)?
        var record: (ref: UInt64, size: Int)?
        // New room first, then the old back: the run goes on after the new room.
        func replace(_ old: (ref: UInt64, size: Int)?, need: Int, in space: inout FreeSpace) -> (ref: UInt64, size: Int)
        {
            let size = Node.aligned(need + 64 + need / 8)
            let ref = space.allocate(size)
            if let old { space.free(offset: old.ref, length: UInt64(old.size), freedIn: 0) }
            return (ref, size)
        }
        settle: for _ in 0..<10_000 {
            releaseChangedChunkNodes()
            if reserveOneChunk() { continue }
            var listed = 0
            var reservedChunks = 0
            for i in chunks.indices {
                if !chunks[i].extents.isEmpty { listed += 1 }
                if chunks[i].reserved != nil { reservedChunks += 1 }
            }
            let rootNeed = Node.aligned(Node.headerSize + 16 + 16 * listed)
            if (root?.size ?? 0) < rootNeed {
                root = replace(root, need: rootNeed, in: &self)
                continue
            }
            if let need = recordSize(reservedChunks + 1), (record?.size ?? 0) < need {
                record = replace(record, need: need, in: &self)
                continue
            }
            guard let root else { break }
            var out: [(ref: UInt64, node: [UInt8])] = []
            for c in chunks {
                guard let r = c.reserved else { continue }
                guard FreeSpace.chunkPayloadSize(c) <= r.size - Node.headerSize else { break settle }
                out.append(
                    (
                        r.ref,
                        Node.build(
                            kind: .freeListChunk, payload: FreeSpace.chunkPayload(c, size: r.size - Node.headerSize))
                    ))
            }
            chunksWritten()
            var payload = self.payload()
            guard payload.count <= root.size - Node.headerSize else { break }
            payload += [UInt8](repeating: 0, count: root.size - Node.headerSize - payload.count)
            out.append((root.ref, Node.build(kind: .freeList, payload: payload)))
            return Persisted(rootRef: root.ref, nodes: out, record: record)
        }
        // Our bug, never bad input: refuse the commit (it rolls back) rather than write a wrong list.
        throw RealmError.internalError("internal error: the free list did not settle; the commit was cancelled")
    }

    /// Gives the first changed chunk whose reservation does not fit its exact encoding a new
    /// one (or drops the reservation of a chunk that became empty). Returns whether it did.
    private mutating func reserveOneChunk() -> Bool {
        for i in chunks.indices where chunks[i].changed {
            let need =
                chunks[i].extents.isEmpty ? 0 : Node.aligned(Node.headerSize + FreeSpace.chunkPayloadSize(chunks[i]))
            let old = chunks[i].reserved
            let have = old?.size ?? 0
            if need == 0 && have == 0 { continue }
            if need == 0 || need > have {
                let window = chunks[i].window
                setReservation(window: window, nil)
                if need > 0 {
                    let size = Node.aligned(need + 64 + need / 8)
                    let ref = allocate(size)
                    setReservation(window: window, (ref, size))
                }
                // The old room goes back after the new is taken, so the run goes on.
                if let old { free(offset: old.ref, length: UInt64(old.size), freedIn: 0) }
                return true
            }
        }
        return false
    }
}

extension FreeSpace {
    /// Throws `corruptFile` if a free extent overlaps a header page (`FileHeader.Layout`): a
    /// commit would otherwise write a node over a slot.
    static func checkClear(_ pages: [Range<UInt64>], chunks: [Chunk], path: String, ref: UInt64) throws {
        for page in pages {
            for c in chunks.prefix(while: { $0.window <= FreeSpace.window(of: page.upperBound - 1) }) {
                if c.extents.contains(where: { $0.offset < page.upperBound && page.lowerBound < $0.offset + $0.length })
                {
                    throw RealmError.corruptFile(
                        path: path, offset: ref, reason: "the free list overlaps the header at \(page.lowerBound)")
                }
            }
        }
    }
}
