/// The free-space manager.
///
/// Invariants (checked by `check`):
/// 1. The extents of the free list, the nodes reachable from the current version and the header
///    tile `[0, logicalSize)` exactly: no byte is both free and live, none is lost.
/// 2. An extent carries the version of the commit that freed it (`freedIn`). Nodes freed by the
///    commit that made version V were reachable from V − 1 and maybe older versions, never from V
///    or later. So an extent is reusable only when no reader holds a version older than `freedIn`
///    (`oldestPinned >= freedIn`). `freedIn == 0` marks space allocated and freed inside the
///    current, uncommitted transaction: no snapshot has ever seen it.
/// 3. The free list itself is a node written copy-on-write like every other: the list that a
///    commit publishes already counts its own node as used and the previous list's node as free.
///
/// If the process dies during a transaction, nothing of it is published: the committed slot
/// still names the old free list, in which every extent this transaction wrote into was free.
struct FreeSpace {
    struct Extent: Equatable {
        var offset: UInt64
        var length: UInt64
        var freedIn: UInt64
    }

    /// Sorted by offset, non-overlapping.
    private(set) var extents: [Extent] = []
    /// The logical end of the file: space past it is allocated by growing.
    private(set) var logicalSize: UInt64
    /// Versions at or below this can be reused (the oldest pinned version; `.max` if none).
    var reusableUpTo: UInt64
    /// The end of this transaction's last allocation, where the next one continues if it can.
    private var cursor: UInt64?

    init(logicalSize: UInt64, reusableUpTo: UInt64) {
        self.logicalSize = logicalSize
        self.reusableUpTo = reusableUpTo
    }

    /// Total bytes in the free list.
    var freeBytes: UInt64 { extents.reduce(0) { $0 + $1.length } }

    /// Whether an extent tagged `freedIn` can be reused now.
    @inline(__always)
    func isReusable(_ freedIn: UInt64) -> Bool { freedIn <= reusableUpTo }

    /// Whether two adjacent extents may become one. The merged extent takes the newer tag, so
    /// merging is only allowed when that loses nothing: equal tags, or both reusable already
    /// (the oldest pinned version never moves back, so they stay reusable). Merging a reusable
    /// extent into a younger neighbour would make it wait for the neighbour's tag — and the
    /// space a commit frees always lies next to what the previous commit freed, so the tag of a
    /// growing run would move forward every commit and the run would never be reused.
    @inline(__always)
    private func canMerge(_ a: UInt64, _ b: UInt64) -> Bool { a == b || (isReusable(a) && isReusable(b)) }

    /// Allocates `length` (aligned) bytes. Continues the transaction's current run (the space
    /// right after its last allocation) when it can, so that the nodes of a small commit lie side
    /// by side and reach the file in one or two writes; else starts a run in the first reusable
    /// hole of at least `runLength` bytes, else first fit, else at the end. Adjacent reusable
    /// extents are joined on the way.
    mutating func allocate(_ length: Int) -> UInt64 {
        let n = UInt64(Node.aligned(length))
        let offset = take(n)
        cursor = offset + n
        return offset
    }

    /// A run starts in a hole at least this big when there is one: room for a small commit.
    static let runLength: UInt64 = 32 << 10

    private mutating func take(_ n: UInt64) -> UInt64 {
        if let c = cursor {
            if c == logicalSize {
                logicalSize += n
                return c
            }
            let i = firstIndex(atOrAfter: c)
            if i < extents.count, extents[i].offset == c, isReusable(extents[i].freedIn) {
                joinReusable(at: i)
                if extents[i].length >= n { return carve(i, n) }
                if c + extents[i].length == logicalSize {
                    extents.remove(at: i)
                    logicalSize = c + n
                    return c
                }
            }
        }
        var fit: Int?
        var i = 0
        while i < extents.count {
            if isReusable(extents[i].freedIn) {
                joinReusable(at: i)
                if extents[i].length >= max(n, FreeSpace.runLength) { return carve(i, n) }
                if fit == nil, extents[i].length >= n { fit = i }
            }
            i += 1
        }
        if let fit { return carve(fit, n) }
        // Take a trailing free extent if it touches the end.
        if let last = extents.last, last.offset + last.length == logicalSize, isReusable(last.freedIn) {
            extents.removeLast()
            logicalSize = last.offset + n
            return last.offset
        }
        let offset = logicalSize
        logicalSize += n
        return offset
    }

    /// Takes `n` bytes from the front of extent `i`.
    private mutating func carve(_ i: Int, _ n: UInt64) -> UInt64 {
        let offset = extents[i].offset
        if extents[i].length == n {
            extents.remove(at: i)
        } else {
            extents[i].offset += n
            extents[i].length -= n
        }
        return offset
    }

    /// Joins the reusable extents that directly follow extent `i` (itself reusable) into it.
    private mutating func joinReusable(at i: Int) {
        while i + 1 < extents.count, extents[i].offset + extents[i].length == extents[i + 1].offset,
              isReusable(extents[i + 1].freedIn) {
            extents[i].length += extents[i + 1].length
            extents[i].freedIn = max(extents[i].freedIn, extents[i + 1].freedIn)
            extents.remove(at: i + 1)
        }
    }

    /// The index of the first extent whose offset is at least `offset`.
    private func firstIndex(atOrAfter offset: UInt64) -> Int {
        var lo = 0, hi = extents.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if extents[mid].offset < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Returns an extent to the free list, tagged with the version that frees it.
    mutating func free(offset: UInt64, length: UInt64, freedIn: UInt64) {
        let n = UInt64(Node.aligned(Int(length)))
        guard n > 0 else { return }
        var e = Extent(offset: offset, length: n, freedIn: freedIn)
        var lo = firstIndex(atOrAfter: offset)
        // Coalesce with neighbours where the tags allow it (`canMerge`).
        if lo > 0, extents[lo - 1].offset + extents[lo - 1].length == e.offset, canMerge(e.freedIn, extents[lo - 1].freedIn) {
            e.offset = extents[lo - 1].offset
            e.length += extents[lo - 1].length
            e.freedIn = max(e.freedIn, extents[lo - 1].freedIn)
            extents.remove(at: lo - 1)
            lo -= 1
        }
        if lo < extents.count, e.offset + e.length == extents[lo].offset, canMerge(e.freedIn, extents[lo].freedIn) {
            e.length += extents[lo].length
            e.freedIn = max(e.freedIn, extents[lo].freedIn)
            extents.remove(at: lo)
        }
        extents.insert(e, at: lo)
    }

    /// Drops the trailing free extent (if any) so the file can be truncated; returns the new size.
    mutating func trimEnd() -> UInt64 {
        if let last = extents.last, last.offset + last.length == logicalSize, isReusable(last.freedIn) {
            extents.removeLast()
            logicalSize = last.offset
        }
        return logicalSize
    }

    // MARK: Encoding (the payload of a `.freeList` node)

    /// `count u64`, then per extent three LEB128 varints: the gap from the previous extent's end,
    /// the length, and the freeing version — about 8 bytes an extent instead of 24, which
    /// matters because every commit rewrites the list.
    func payload() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(8 + extents.count * 9)
        out.appendLE(UInt64(extents.count))
        var end = UInt64(FileHeader.size)
        for e in extents {
            FreeSpace.varint(e.offset - end, into: &out)
            FreeSpace.varint(e.length, into: &out)
            FreeSpace.varint(e.freedIn, into: &out)
            end = e.offset + e.length
        }
        return out
    }

    /// Bytes one more allocation can add to the encoding (a split or removed extent changes at
    /// most two entries by at most three varints each).
    static let slackPerChange = 60

    @inline(__always)
    static func varint(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func decode(_ payload: UnsafeRawBufferPointer, logicalSize: UInt64, path: String, ref: UInt64) throws -> [Extent] {
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
        var end = UInt64(FileHeader.size)
        for i in 0..<Int(n) {
            let gap = try next(), length = try next(), freedIn = try next()
            let (offset, o1) = end.addingReportingOverflow(gap)
            let (stop, o2) = offset.addingReportingOverflow(length)
            guard !o1, !o2, length > 0, stop <= logicalSize, offset % UInt64(Node.alignment) == 0 else {
                throw corrupt("free list entry \(i) is out of order or out of bounds")
            }
            out.append(Extent(offset: offset, length: length, freedIn: freedIn))
            end = stop
        }
        return out
    }

    init(extents: [Extent], logicalSize: UInt64, reusableUpTo: UInt64) {
        self.extents = extents
        self.logicalSize = logicalSize
        self.reusableUpTo = reusableUpTo
    }
}

extension Array where Element == UInt8 {
    /// Appends `v` little-endian. Through a typed buffer, so `append(contentsOf:)` takes its
    /// contiguous (memcpy) path: a raw buffer went byte by byte through the generic iterator,
    /// which was an eighth of the CPU time of a small commit (the encoders of every node use it).
    @inline(__always)
    mutating func appendLE<T: FixedWidthInteger>(_ v: T) {
        var x = v.littleEndian
        Swift.withUnsafeBytes(of: &x) { append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }
}
