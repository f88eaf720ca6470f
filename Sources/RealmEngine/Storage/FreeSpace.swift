/// The free-space manager.
///
/// Invariants (checked by `check`, 1 and 4; the others by the tests named below):
/// 1. The extents of the free list, the nodes reachable from the current version and the header
///    tile `[0, logicalSize)` exactly: no byte is both free and live, none is lost.
/// 2. An extent carries the version of the commit that freed it (`freedIn`) and, when this
///    process knows it, the version of the commit that wrote it (`bornIn`; 0 = unknown). Nodes
///    freed by the commit that made version F were reachable from the versions `bornIn ..< F`
///    and from no other. So an extent is reusable only when no version in `pinned` (the versions
///    readers hold, and the base version this transaction builds on) lies in `bornIn ..< F`; an
///    unknown `bornIn` counts as 0, which is the same as "no pin below F" (`freedIn <=
///    reusableUpTo`). `freedIn == 0` marks space allocated and freed inside the current,
///    uncommitted transaction: no snapshot has ever seen it. A reusable extent stays reusable:
///    a reader pins only a version that was the newest when it pinned (LMDB's loop, also for a
///    reader moving forward: `LockFile.advance`), and every extent in the list was freed at or
///    before the newest version, so no new pin lands in its range — which is also why pins that
///    are all at or above `bornIn` make a known `bornIn` worth no more than 0 (`pruneBirths`).
///    (`FreeSpaceTests`, `PinnedReaderSpaceTests`.)
/// 3. The free list itself is written copy-on-write like every other node: the list that a
///    commit publishes already counts its own nodes as used and the previous list's changed
///    nodes as free (`FreeSpace+Chunks.swift`).
/// 4. The extents are kept in *chunks*, one per `window` (1 MiB) of the file holding the extents
///    that start in it — in memory and in the file alike. A commit rewrites only the chunks it
///    changed, and a search skips chunks that cannot hold a fitting extent, so a small commit
///    costs the same with ten free extents or a hundred thousand.
/// 5. In a file of the paired layout, free space in the commit areas (`FileHeader.Layout`) is
///    taken only by small transactions, for the area beside the slot they will write (`area`),
///    and no extent reaches across the areas' end: general allocation never lands there.
///
/// Where `bornIn` comes from. The file stores only `freedIn` (the on-disk list is unchanged, so
/// older files and older programs read it as before). This process remembers the version each
/// node it allocated was written in (`births`, by offset, carried from commit to commit by
/// `SharedFile` with the free list it belongs to) and tags an extent with it when the node is
/// freed. A list loaded from the file — after a reopen, or after another process committed —
/// starts with every `bornIn` unknown: less space is reused, never space a reader needs. An
/// entry of `births` is right whenever it is there: it is added when the node is allocated by
/// a commit that then succeeded, and removed when the node is freed, and the chain of commits
/// it follows is this process's alone (the cache is used only when the base is its own last
/// commit). A transaction that rolls back takes its `births` with it.
///
/// If the process dies during a transaction, nothing of it is published: the committed slot
/// still names the old free list, in which every extent this transaction wrote into was free.
struct FreeSpace {
    struct Extent: Equatable {
        var offset: UInt64
        var length: UInt64
        var freedIn: UInt64
        /// The version whose commit wrote what was freed here, 0 if unknown (invariant 2).
        var bornIn: UInt64 = 0
    }

    /// The extents that start in one window of the file, and what the search knows about them.
    struct Chunk {
        var window: UInt64
        /// Sorted by offset, non-overlapping, every offset inside the window.
        var extents: [Extent] = []
        /// The chunk's node in the committed file; 0 once released (changed, or never written).
        var ref: UInt64 = 0
        /// The allocated length of that node.
        var nodeLength: UInt64 = 0
        /// Changed since its node was written.
        var changed = true
        /// Search cache, valid while `scanned` (`cacheHolds`): the longest reusable extent; the
        /// oldest tag among the waiting extents of unknown birth (they become reusable only once
        /// `reusableUpTo` reaches it); and the pins that kept the waiting extents of known birth
        /// from reuse (they become reusable only once such a pin is gone — a new pin never
        /// blocks an extent, invariant 2).
        var scanned = false
        var longestReusable: UInt64 = 0
        var oldestWaiting: UInt64 = .max
        var blockers: [UInt64] = []
        /// Room reserved for the chunk's new node during `persist`.
        var reserved: (ref: UInt64, size: Int)?
    }

    /// Bytes of file whose extents one chunk holds.
    static let window: UInt64 = 1 << 20

    /// Sorted by window; may hold empty chunks until the next `persist` releases their nodes.
    private(set) var chunks: [Chunk] = []
    /// The logical end of the file: space past it is allocated by growing.
    private(set) var logicalSize: UInt64
    /// Versions at or below this can be reused (the oldest pinned version; `.max` if none).
    var reusableUpTo: UInt64
    /// Every version a reader holds and the base version, ascending (invariant 2). Empty: only
    /// `reusableUpTo` is known, and an extent is reusable only by it.
    var pinned: [UInt64] = [] {
        didSet { minimumPinned = pinned.first ?? .max }
    }
    private var minimumPinned: UInt64 = .max
    /// The version each live node this process wrote was written in, by offset (see "Where
    /// `bornIn` comes from"). Allocation adds this transaction's nodes (`releaseTag`); freeing
    /// moves the entry onto the extent.
    var births: [UInt64: UInt64] = [:]
    /// How many `births` there were after the last `pruneBirths`, so it runs only as they double.
    private var birthsAfterPrune = 0
    /// The version committing this transaction: the tag of the chunk nodes `persist` frees.
    var releaseTag: UInt64 = 0
    /// The end of this transaction's last allocation, where the next one continues if it can.
    private var cursor: UInt64?
    /// Set while a small transaction writes its nodes: a run that cannot start in a hole of
    /// `runLength` starts at the end of the file rather than in a smaller hole, so that the
    /// commit reaches the disk as one write, not two or three (`TreeWriter.smallTransaction`). The end then moves on by at most
    /// a few commits' worth: what those commits free joins into holes big enough for runs.
    var preferRuns = false
    /// Set when more than a third of the file is free (`TreeWriter.init`): a small transaction
    /// that finds no hole of `runLength` then takes a smaller hole rather than the end of the
    /// file. Without it, random one-object updates leave holes too small for a run behind and
    /// the file settles near 3× its live data; with it, near 1.5× (issue 30) — such a commit
    /// may take a write or two more.
    var fillsSmallHoles = false
    /// The commit areas of a paired-layout file (`FileHeader.Layout`), empty otherwise. Space
    /// in them is allocated only for a small commit, into `area`; no extent joins across their
    /// end (`areasEnd`), so free space there never leaks into general allocation.
    var areas: [Range<UInt64>] = []
    /// The area beside the slot this commit will write: while `preferRuns` holds, allocation
    /// tries it first, from its start, so the commit's nodes follow the slot's page.
    var area: Range<UInt64>?
    /// The end of the commit areas (0 without areas): general allocation starts here.
    private var areasEnd: UInt64 { areas.last?.upperBound ?? 0 }

    init(logicalSize: UInt64, reusableUpTo: UInt64) {
        self.logicalSize = logicalSize
        self.reusableUpTo = reusableUpTo
    }

    init(chunks: [Chunk], logicalSize: UInt64, reusableUpTo: UInt64) {
        self.chunks = chunks
        self.logicalSize = logicalSize
        self.reusableUpTo = reusableUpTo
    }

    /// The free extents, chunked (what `SharedFile` keeps for the next transaction).
    var extents: [Chunk] { chunks }

    /// Every free extent in order (for `check` and tests; O(n)).
    var allExtents: [Extent] { chunks.flatMap(\.extents) }

    /// Total bytes in the free list.
    var freeBytes: UInt64 { chunks.reduce(0) { $0 + $1.extents.reduce(0) { $0 + $1.length } } }

    /// Whether an extent can be reused now (invariant 2): freed at or before the oldest pin, or
    /// reachable only from versions no reader holds.
    @inline(__always)
    func isReusable(_ e: Extent) -> Bool {
        if e.freedIn <= reusableUpTo { return true }
        return e.bornIn != 0 && !pinned.isEmpty && pinBlocking(e) == nil
    }

    /// The oldest pinned version in `e.bornIn ..< e.freedIn` (what keeps `e` from reuse), if any.
    func pinBlocking(_ e: Extent) -> UInt64? {
        let i = firstPin(atOrAbove: e.bornIn)
        return i < pinned.count && pinned[i] < e.freedIn ? pinned[i] : nil
    }

    private func firstPin(atOrAbove version: UInt64) -> Int {
        var lo = 0
        var hi = pinned.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pinned[mid] < version { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether a chunk's search cache still holds: nothing waiting in it can have become
    /// reusable (invariant 2: only a pin going away, or the oldest pin passing a tag, does that).
    @inline(__always)
    private func cacheHolds(_ c: borrowing Chunk) -> Bool {
        guard c.scanned, reusableUpTo < c.oldestWaiting else { return false }
        for p in c.blockers {
            let i = firstPin(atOrAbove: p)
            if i == pinned.count || pinned[i] != p { return false }
        }
        return true
    }

    /// Whether two adjacent extents may become one without losing anything: equal tags, or both
    /// reusable already (they stay reusable, invariant 2; the merged extent is tagged so that it
    /// is reusable too, `merged`). Merging a reusable extent into a younger neighbour would make
    /// it wait for the neighbour's tag — and the space a commit frees always lies next to what
    /// the previous commit freed, so the tag of a growing run would move forward every commit
    /// and the run would never be reused.
    @inline(__always)
    private func canMerge(_ a: Extent, _ b: Extent) -> Bool {
        (a.freedIn == b.freedIn && a.bornIn == b.bornIn) || (isReusable(a) && isReusable(b))
    }

    /// The tags of `a` and `b` joined (`canMerge` allowed it): the same tags, or, for two
    /// reusable extents, the newer `freedIn` with an empty range of versions (`bornIn ==
    /// freedIn`), which no pin can block. The file stores only `freedIn`; read back, such an
    /// extent waits for the oldest pin to pass it, as every extent of unknown birth does.
    @inline(__always)
    private func merged(_ a: Extent, _ b: Extent) -> (freedIn: UInt64, bornIn: UInt64) {
        if a.freedIn == b.freedIn && a.bornIn == b.bornIn { return (a.freedIn, a.bornIn) }
        let f = max(a.freedIn, b.freedIn)
        return (f, f <= reusableUpTo ? 0 : f)
    }

    /// Drops the `births` that can no longer matter: a node written at or before the oldest pin
    /// (readers' and the base) is, when freed, as reusable as one of unknown birth, and stays so
    /// (invariant 2). Runs only when `births` has doubled since the last time.
    mutating func pruneBirths() {
        guard births.count > 2 * birthsAfterPrune + 256 else { return }
        let floor = min(reusableUpTo, minimumPinned)
        births = births.filter { $0.value > floor }
        birthsAfterPrune = births.count
    }

    // MARK: Positions

    @inline(__always)
    static func window(of offset: UInt64) -> UInt64 { offset / window }

    /// The index of the chunk of `window`, or where it would be inserted.
    private func chunkIndex(_ window: UInt64) -> (index: Int, found: Bool) {
        var lo = 0
        var hi = chunks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if chunks[mid].window < window { lo = mid + 1 } else { hi = mid }
        }
        return (lo, lo < chunks.count && chunks[lo].window == window)
    }

    /// The index of the chunk of `window`, inserting an empty one if there is none.
    private mutating func chunk(for window: UInt64) -> Int {
        let (i, found) = chunkIndex(window)
        if !found { chunks.insert(Chunk(window: window), at: i) }
        return i
    }

    /// The index of the first extent of chunk `c` whose offset is at least `offset`.
    private func extentIndex(_ c: Int, atOrAfter offset: UInt64) -> Int {
        let list = chunks[c].extents
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].offset < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Marks chunk `c` changed (its node must be rewritten) and its search cache stale.
    @inline(__always)
    private mutating func touch(_ c: Int) {
        chunks[c].changed = true
        chunks[c].scanned = false
    }

    /// The position of the last extent before `offset`, and of the first at or after it.
    private func neighbours(of offset: UInt64) -> (before: (Int, Int)?, after: (Int, Int)?) {
        let (c, found) = chunkIndex(FreeSpace.window(of: offset))
        var before: (Int, Int)?
        var after: (Int, Int)?
        if found {
            let i = extentIndex(c, atOrAfter: offset)
            if i > 0 { before = (c, i - 1) }
            if i < chunks[c].extents.count { after = (c, i) }
        }
        if before == nil {
            var p = c - 1
            while p >= 0, chunks[p].extents.isEmpty { p -= 1 }
            if p >= 0 { before = (p, chunks[p].extents.count - 1) }
        }
        if after == nil {
            var n = found ? c + 1 : c
            while n < chunks.count, chunks[n].extents.isEmpty { n += 1 }
            if n < chunks.count { after = (n, 0) }
        }
        return (before, after)
    }

    // MARK: Allocation

    /// Allocates `length` (aligned) bytes. Continues the transaction's current run (the space
    /// right after its last allocation) when it can, so that the nodes of a small commit lie side
    /// by side and reach the file in one or two writes; else starts a run in the first reusable
    /// hole of at least `runLength` bytes, else first fit, else at the end. Adjacent reusable
    /// extents are joined on the way.
    mutating func allocate(_ length: Int) -> UInt64 {
        let n = UInt64(Node.aligned(length))
        let offset: UInt64
        if placeApart {
            offset = takeApart(n)
        } else {
            offset = take(n)
            cursor = offset + n
        }
        if releaseTag != 0 { births[offset] = releaseTag }
        return offset
    }

    /// Set while a node that will outlive many commits is allocated (a sealed change-log chunk,
    /// kept as long as a reader far behind needs it): it goes to the lowest reusable hole that
    /// holds it outside the commit areas, or the end of the file, and the transaction's run goes
    /// on where it was. Placed in the run, such nodes would split the holes the following small
    /// commits need (`runLength`) for as long as the reader stays.
    var placeApart = false

    private mutating func takeApart(_ n: UInt64) -> UInt64 {
        var ci = 0
        while ci < chunks.count {
            if chunks[ci].extents.isEmpty || (chunks[ci].longestReusable < n && cacheHolds(chunks[ci])) {
                ci += 1
                continue
            }
            var i = 0
            while i < chunks[ci].extents.count {
                let e = chunks[ci].extents[i]
                if e.offset >= areasEnd, isReusable(e) {
                    if mayJoin(ci, i) { joinReusable(ci, i) }
                    if chunks[ci].extents[i].length >= n { return carve(ci, i, n) }
                }
                i += 1
            }
            ci += 1
        }
        let offset = logicalSize
        logicalSize += n
        return offset
    }

    /// A run starts in a hole at least this big when there is one: room for a small commit.
    static let runLength: UInt64 = 32 << 10

    private mutating func take(_ n: UInt64) -> UInt64 {
        if preferRuns, let a = area, let offset = take(n, in: a) { return offset }
        if let c = cursor, c >= areasEnd {
            if c == logicalSize {
                logicalSize += n
                return c
            }
            if let (ci, i) = reusableExtent(at: c) {
                if chunks[ci].extents[i].length >= n { return carve(ci, i, n) }
                if c + chunks[ci].extents[i].length == logicalSize {
                    chunks[ci].extents.remove(at: i)
                    touch(ci)
                    logicalSize = c + n
                    return c
                }
            }
        }
        if let (ci, i) = search(n),
            !preferRuns || fillsSmallHoles || chunks[ci].extents[i].length >= FreeSpace.runLength
        {
            return carve(ci, i, n)
        }
        // Take a trailing free extent if it touches the end.
        if let ci = chunks.lastIndex(where: { !$0.extents.isEmpty }), let last = chunks[ci].extents.last,
            last.offset + last.length == logicalSize, last.offset >= areasEnd, isReusable(last)
        {
            chunks[ci].extents.removeLast()
            touch(ci)
            logicalSize = last.offset + n
            return last.offset
        }
        let offset = logicalSize
        logicalSize += n
        return offset
    }

    /// Allocation inside the commit area `a`: the run goes on if the space after it is free and
    /// inside the area, else the first reusable extent of the area that holds `n` bytes — the
    /// lowest, nearest the slot's page. Nil when the area has no room.
    private mutating func take(_ n: UInt64, in a: Range<UInt64>) -> UInt64? {
        if let c = cursor, a.contains(c), c + n <= a.upperBound, let (ci, i) = reusableExtent(at: c),
            chunks[ci].extents[i].length >= n
        {
            return carve(ci, i, n)
        }
        var ci = chunkIndex(FreeSpace.window(of: a.lowerBound)).index
        while ci < chunks.count, chunks[ci].window <= FreeSpace.window(of: a.upperBound - 1) {
            var i = extentIndex(ci, atOrAfter: a.lowerBound)
            while i < chunks[ci].extents.count, chunks[ci].extents[i].offset + n <= a.upperBound {
                if isReusable(chunks[ci].extents[i]) {
                    joinReusable(ci, i)
                    if chunks[ci].extents[i].length >= n { return carve(ci, i, n) }
                }
                i += 1
            }
            ci += 1
        }
        return nil
    }

    /// The reusable extent starting exactly at `offset` (where the run would go on), joined with
    /// the reusable extents after it; split off first if a longer one runs across `offset`.
    private mutating func reusableExtent(at offset: UInt64) -> (Int, Int)? {
        splitAt(offset)
        let (ci, found) = chunkIndex(FreeSpace.window(of: offset))
        guard found else { return nil }
        let i = extentIndex(ci, atOrAfter: offset)
        guard i < chunks[ci].extents.count, chunks[ci].extents[i].offset == offset,
            isReusable(chunks[ci].extents[i])
        else { return nil }
        joinReusable(ci, i)
        return (ci, i)
    }

    /// If a reusable extent runs across `offset` (space freed just before the run's end joined
    /// the hole after it), splits it there so the run can go on at `offset`.
    private mutating func splitAt(_ offset: UInt64) {
        let (before, _) = neighbours(of: offset)
        guard let (ci, i) = before else { return }
        let e = chunks[ci].extents[i]
        guard e.offset < offset, offset < e.offset + e.length, isReusable(e) else { return }
        chunks[ci].extents[i].length = offset - e.offset
        touch(ci)
        var rest = e
        rest.offset = offset
        rest.length = e.offset + e.length - offset
        let c = chunk(for: FreeSpace.window(of: offset))
        chunks[c].extents.insert(rest, at: extentIndex(c, atOrAfter: offset))
        touch(c)
    }

    /// The first reusable extent of at least `runLength` (and `n`) bytes, else the first of at
    /// least `n`. Skips chunks whose cached longest reusable extent is too short.
    private mutating func search(_ n: UInt64) -> (Int, Int)? {
        let run = max(n, FreeSpace.runLength)
        var fit: (Int, Int)?
        var ci = 0
        while ci < chunks.count {
            let want = fit == nil ? n : run
            let c = chunks[ci]
            if c.extents.isEmpty || (c.longestReusable < want && cacheHolds(c)) {
                ci += 1
                continue
            }
            var longest: UInt64 = 0
            var waiting: UInt64 = .max
            var blockers: [UInt64] = []
            var i = 0
            while i < chunks[ci].extents.count {
                let e = chunks[ci].extents[i]
                if e.offset < areasEnd {
                    i += 1
                    continue
                }
                if isReusable(e) {
                    if mayJoin(ci, i) { joinReusable(ci, i) }
                    let length = chunks[ci].extents[i].length
                    if length >= run { return (ci, i) }
                    if fit == nil, length >= n { fit = (ci, i) }
                    longest = max(longest, length)
                } else if e.bornIn != 0, let p = pinBlocking(e) {
                    if !blockers.contains(p) { blockers.append(p) }
                } else {
                    waiting = min(waiting, e.freedIn)
                }
                i += 1
            }
            chunks[ci].scanned = true
            chunks[ci].longestReusable = longest
            chunks[ci].oldestWaiting = waiting
            chunks[ci].blockers = blockers
            ci += 1
        }
        return fit
    }

    /// Takes `n` bytes from the front of extent `i` of chunk `ci`; what is left moves to the
    /// chunk of its new start if that lies in the next window.
    private mutating func carve(_ ci: Int, _ i: Int, _ n: UInt64) -> UInt64 {
        var e = chunks[ci].extents[i]
        let offset = e.offset
        touch(ci)
        if e.length == n {
            chunks[ci].extents.remove(at: i)
            return offset
        }
        e.offset += n
        e.length -= n
        let w = FreeSpace.window(of: e.offset)
        if w == chunks[ci].window {
            chunks[ci].extents[i] = e
        } else {
            chunks[ci].extents.remove(at: i)
            let d = chunk(for: w)
            chunks[d].extents.insert(e, at: 0)
            touch(d)
        }
        return offset
    }

    /// Whether the extent after extent `i` of chunk `ci` may touch it (cheap, no search).
    @inline(__always)
    private func mayJoin(_ ci: Int, _ i: Int) -> Bool {
        let e = chunks[ci].extents[i]
        if i + 1 < chunks[ci].extents.count { return chunks[ci].extents[i + 1].offset == e.offset + e.length }
        // The next extent lies in a later window: it can touch only an extent reaching past this one.
        return e.offset + e.length >= (chunks[ci].window + 1) * FreeSpace.window
    }

    /// Joins the reusable extents that directly follow extent `i` of chunk `ci` (itself
    /// reusable) into it, across chunks too.
    private mutating func joinReusable(_ ci: Int, _ i: Int) {
        while true {
            let e = chunks[ci].extents[i]
            let next: (Int, Int)
            if i + 1 < chunks[ci].extents.count {
                next = (ci, i + 1)
            } else if e.offset + e.length >= (chunks[ci].window + 1) * FreeSpace.window,
                let n = chunks[(ci + 1)...].firstIndex(where: { !$0.extents.isEmpty })
            {
                next = (n, 0)
            } else {
                return
            }
            let f = chunks[next.0].extents[next.1]
            guard e.offset + e.length == f.offset, f.offset != areasEnd, isReusable(f) else { return }
            chunks[ci].extents[i].length += f.length
            (chunks[ci].extents[i].freedIn, chunks[ci].extents[i].bornIn) = merged(e, f)
            chunks[next.0].extents.remove(at: next.1)
            touch(ci)
            touch(next.0)
        }
    }

    // MARK: Freeing

    /// Returns an extent to the free list, tagged with the version that frees it and, if known,
    /// the one that wrote it (`births`), joining it with its neighbours where the tags allow
    /// (`canMerge`).
    mutating func free(offset: UInt64, length: UInt64, freedIn: UInt64) {
        let n = UInt64(Node.aligned(Int(length)))
        guard n > 0 else { return }
        let born = births.removeValue(forKey: offset) ?? 0
        var e = Extent(offset: offset, length: n, freedIn: freedIn, bornIn: freedIn == 0 ? 0 : born)
        let (before, after) = neighbours(of: offset)
        if let (bc, bi) = before {
            let b = chunks[bc].extents[bi]
            if b.offset + b.length == e.offset, e.offset != areasEnd, canMerge(b, e) {
                // The predecessor grows; it keeps its place.
                chunks[bc].extents[bi].length += e.length
                (chunks[bc].extents[bi].freedIn, chunks[bc].extents[bi].bornIn) = merged(b, e)
                touch(bc)
                if let (ac, ai) = after {
                    let a = chunks[ac].extents[ai]
                    let grown = chunks[bc].extents[bi]
                    if grown.offset + grown.length == a.offset, a.offset != areasEnd, canMerge(grown, a) {
                        chunks[bc].extents[bi].length += a.length
                        (chunks[bc].extents[bi].freedIn, chunks[bc].extents[bi].bornIn) = merged(grown, a)
                        chunks[ac].extents.remove(at: ai)
                        touch(ac)
                    }
                }
                return
            }
        }
        if let (ac, ai) = after {
            let a = chunks[ac].extents[ai]
            if e.offset + e.length == a.offset, a.offset != areasEnd, canMerge(a, e) {
                e.length += a.length
                (e.freedIn, e.bornIn) = merged(e, a)
                chunks[ac].extents.remove(at: ai)
                touch(ac)
            }
        }
        let c = chunk(for: FreeSpace.window(of: offset))
        chunks[c].extents.insert(e, at: extentIndex(c, atOrAfter: offset))
        touch(c)
    }

    /// Drops the trailing free extent (if any) so the file can be truncated; returns the new size.
    mutating func trimEnd() -> UInt64 {
        if let ci = chunks.lastIndex(where: { !$0.extents.isEmpty }), let last = chunks[ci].extents.last,
            last.offset + last.length == logicalSize, last.offset >= areasEnd, isReusable(last)
        {
            chunks[ci].extents.removeLast()
            touch(ci)
            logicalSize = last.offset
            // The run cannot go on past the new end: it starts afresh.
            if let c = cursor, c > logicalSize { cursor = nil }
        }
        return logicalSize
    }

    /// The bytes at the end of the file that `trimEnd` would drop, extent by extent: reusable
    /// free extents (no pinned version reaches them, invariant 2) that run up to `logicalSize`.
    var trailingReusable: UInt64 {
        var end = logicalSize
        for chunk in chunks.reversed() {
            for e in chunk.extents.reversed() {
                guard e.offset + e.length == end, e.offset >= areasEnd, isReusable(e) else { return logicalSize - end }
                end = e.offset
            }
        }
        return logicalSize - end
    }

    /// Moves the logical end of the file down past its trailing reusable free space when there is
    /// at least `threshold` bytes of it (`TrailingSpace`); returns whether it did. The space past
    /// the new end is then in no list: the version being committed does not name it, and it is
    /// allocated again only by growing.
    @discardableResult
    mutating func trimTrailing(atLeast threshold: UInt64) -> Bool {
        guard trailingReusable >= max(threshold, 1) else { return false }
        var size = logicalSize
        while true {
            let next = trimEnd()
            if next == size { return true }
            size = next
        }
    }

    // MARK: For `persist` (FreeSpace+Chunks.swift)

    /// Frees the committed node of every changed chunk (tagged `releaseTag`: the previous version
    /// reaches it). Freeing changes more chunks; repeats until none is left.
    mutating func releaseChangedChunkNodes() {
        var c = 0
        while c < chunks.count {
            guard chunks[c].changed && chunks[c].ref != 0 else {
                c += 1
                continue
            }
            let (ref, length) = (chunks[c].ref, chunks[c].nodeLength)
            chunks[c].ref = 0
            free(offset: ref, length: length, freedIn: releaseTag)
            c = 0  // freeing may have inserted a chunk before `c` or changed an earlier one
        }
    }

    /// Sets the reservation of the chunk of `window` (which must exist).
    mutating func setReservation(window: UInt64, _ reservation: (ref: UInt64, size: Int)?) {
        let (c, found) = chunkIndex(window)
        precondition(found, "reservation for a chunk that does not exist")
        chunks[c].reserved = reservation
    }

    /// Marks every reserved chunk written at its reservation, and drops empty chunks (their
    /// nodes were released).
    mutating func chunksWritten() {
        for c in chunks.indices {
            if let r = chunks[c].reserved {
                chunks[c].ref = r.ref
                chunks[c].nodeLength = UInt64(r.size)
                chunks[c].reserved = nil
                chunks[c].changed = false
            }
        }
        chunks.removeAll { $0.extents.isEmpty && $0.ref == 0 }
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
