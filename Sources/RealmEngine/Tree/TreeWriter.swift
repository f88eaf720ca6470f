/// Copy-on-write changes to B+trees inside one write transaction.
///
/// A node is *loaded* (decoded into a `TreeNode`) only to be changed; loading frees its old
/// extent — tagged with the committing version if a committed snapshot may still read it, or
/// reusable at once if this transaction wrote it. Changed nodes are written to free space by
/// `seal`, children before parents; nothing a snapshot can reach is ever overwritten.
///
/// Leaves split when they pass `Limits.clusterRows` / `indexLeafEntries` (or 4 MB of encoded
/// values); a split caused by appending past the last key keeps the full leaf whole and seals it
/// at once, so a bulk insert keeps only the rightmost path in memory. Empty leaves and inner
/// nodes are removed; a root with one inner child collapses.
///
/// The stored state is `@exclusivity(unchecked)`: a small commit touches it a few hundred times,
/// and each dynamically checked access cost ~80 instructions (`swift_beginAccess`) — a tenth of
/// the commit. The writer belongs to one write transaction on one thread, and no method hands out
/// an `inout` to its state across a call back into the writer, so there is no overlapping access
/// for the check to find; the compiler's static checks still apply.
final class TreeWriter {
    let file: DatabaseFile
    @exclusivity(unchecked) var free: FreeSpace
    /// The version this transaction will commit.
    let newVersion: UInt64
    /// Whether the file's node checksums bind nodes to their ref (read format 3): each node is
    /// bound as it is given its place (`enqueue`).
    let placeBound: Bool
    /// Extents written by this transaction (reusable at once when rewritten).
    @exclusivity(unchecked) private(set) var writtenHere = RefSet()
    /// The file's physical size once `sizeKnown`; until then a lower bound: the base version's
    /// logical size, or the size this process's last writer saw, whichever is larger. A small commit that only reuses space inside the
    /// file never needs more, so it never calls `fstat`; the first write or growth past the bound
    /// reads the size (under the write lock only the writer changes it).
    @exclusivity(unchecked) private(set) var physicalSize: UInt64
    @exclusivity(unchecked) private var sizeKnown = false
    /// The file's size when the transaction began (a lower bound until `sizeKnown`), and the old
    /// contents of every byte range it overwrote below that size: enough to put the file back
    /// byte for byte when the transaction is cancelled or its commit fails before the slot is
    /// written ("a failing command never changes the file"). Writes past the old end are undone
    /// by truncating.
    @exclusivity(unchecked) private var originalSize: UInt64
    /// The byte ranges overwritten (`offset`, length) with their old contents back to back in
    /// `undoBytes` — one buffer, not an allocation per write.
    @exclusivity(unchecked) private var undo: [(offset: UInt64, count: Int)] = []
    @exclusivity(unchecked) private var undoBytes: [UInt8] = []

    /// `verified`: the base snapshot's record of verified nodes, shared so nodes it already read
    /// are not hashed again (the refs this writer marks are free in the base version, which
    /// never reads them); nil starts an empty one.
    init(file: DatabaseFile, free: FreeSpace, newVersion: UInt64, placeBound: Bool, verified: VerifiedNodes? = nil)
        throws
    {
        self.file = file
        self.placeBound = placeBound
        self.free = free
        self.free.releaseTag = newVersion
        self.free.preferRuns = true
        self.free.fillsSmallHoles = free.freeBytes * 3 > free.logicalSize
        self.newVersion = newVersion
        self.verified = verified ?? VerifiedNodes(size: free.logicalSize)
        // Both are lower bounds of the physical size (see `DatabaseFile.writerKnownSize`).
        let known = max(free.logicalSize, file.writerKnownSize(startingAt: newVersion - 1) ?? 0)
        physicalSize = known
        originalSize = known
        // A small commit's nodes and the bytes they replace, without regrowing (a grown buffer
        // copies what it held).
        pending.reserveCapacity(16)
        built.reserveCapacity(32 << 10)
        undoBytes.reserveCapacity(32 << 10)
    }

    /// Reads the physical size (once a transaction, and only when it is needed).
    /// Whether this transaction grew the file: its commit then makes the growth durable before
    /// it writes the slot, so no slot on disk ever names more than the file's durable length
    /// (`FileHeader.checkNotTruncated`).
    var grewFile: Bool { sizeKnown && physicalSize > originalSize }

    private func learnSize() throws {
        guard !sizeKnown else { return }
        physicalSize = try file.physicalSize()
        originalSize = physicalSize
        sizeKnown = true
        file.noteWriterSize(physicalSize)
    }

    /// Writes raw bytes for this transaction, remembering what they replace.
    func writeBytes(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        if !sizeKnown && offset + UInt64(bytes.count) > originalSize { try learnSize() }
        if offset < originalSize && !file.isInMemory {
            let end = min(originalSize, offset + UInt64(bytes.count))
            let old = UnsafeRawBufferPointer(start: file.base + Int(offset), count: Int(end - offset))
            undoBytes.append(contentsOf: old)
            undo.append((offset, old.count))
        }
        try file.write(bytes, at: offset)
    }

    /// Puts the file back as it was when the transaction began. Returns the first I/O error
    /// that kept it from doing so (every undo is still tried): free space then differs from
    /// before — no version the file names reaches it, but the older header slot's version may
    /// (it is the base's fallback), so the caller enters the ERROR state.
    @discardableResult
    func rollback() -> Error? {
        var failure: Error?
        pending.removeAll()
        pendingSorted = true
        built.removeAll()
        var end = undoBytes.count
        undoBytes.withUnsafeBytes { old in
            for entry in undo.reversed() {
                end -= entry.count
                do {
                    try file.write(UnsafeRawBufferPointer(rebasing: old[end..<(end + entry.count)]), at: entry.offset)
                } catch {
                    failure = failure ?? error
                }
            }
        }
        undo.removeAll()
        undoBytes.removeAll()
        // Nothing was written past the old end unless the size was read.
        // (A file left longer than it was only holds free space past the logical size.)
        if sizeKnown, (try? file.physicalSize()) ?? 0 > originalSize { try? file.truncate(to: originalSize) }
        return failure
    }

    /// Bytes readable in this transaction: the committed file plus what this transaction wrote.
    var bytes: FileBytes {
        FileBytes(base: file.base, size: free.logicalSize, path: file.path, placeBound: placeBound, verified: verified)
    }
    /// The base version's nodes this transaction has verified, and the refs it wrote itself
    /// (`enqueue`): a node loaded to be changed is checked first, so a damaged one is never
    /// rewritten with a fresh checksum.
    private let verified: VerifiedNodes

    // MARK: Writing and freeing nodes

    /// Writes a node into free space and returns its ref.
    func write(kind: NodeKind, payload: [UInt8]) throws -> UInt64 {
        try write(kind: kind) { $0.append(contentsOf: payload) }
    }

    /// Writes a node whose payload `encode` appends to the buffer it is given (behind bytes it
    /// must leave alone), and returns its ref. The node is built in place, in `built` behind the
    /// nodes still pending: no buffer of its own.
    ///
    /// `replacing`: a node to free once the new one is encoded (before it is allocated, as
    /// `release` then `write` would). A node this transaction wrote is freed first instead:
    /// freeing it may flush the pending nodes, which must not happen under the one being built
    /// (its bytes stay readable until something is written there, after encoding).
    func write(kind: NodeKind, replacing old: UInt64 = 0, _ encode: (inout [UInt8]) throws -> Void) throws -> UInt64 {
        try write(
            kind: kind, replacing: old,
            ifEncoded: {
                try encode(&$0)
                return true
            }) ?? 0
    }

    /// `write(kind:replacing:_:)` for an encoder that may decline (return false): then nothing
    /// is written or freed, and the result is nil.
    func write(kind: NodeKind, replacing old: UInt64 = 0, ifEncoded encode: (inout [UInt8]) throws -> Bool) throws
        -> UInt64?
    {
        var old = old
        if old != 0 && writtenHere.contains(old) {
            try release(old)
            old = 0
        }
        let start = Node.begin(in: &built)
        guard try encode(&built) else {
            built.removeSubrange(start...)
            return nil
        }
        Node.finish(in: &built, at: start, kind: kind)
        try release(old)
        let count = built.count - start
        nodeBytes += count
        if nodeBytes > TreeWriter.smallTransaction { free.preferRuns = false }
        let ref = free.allocate(count)
        if !committing, let area = free.area, area.contains(ref) { earlyAreaWrites.append(ref) }
        try ensureSize(free.logicalSize)
        try enqueue(ref, start: start)
        writtenHere.insert(ref)
        return ref
    }

    /// Writes a built node at `ref` (allocated by the caller): at once, or into `pending` while
    /// `deferWrites` is set.
    func writeNode(_ node: [UInt8], at ref: UInt64) throws {
        let start = built.count
        built.append(contentsOf: node)
        try enqueue(ref, start: start)
    }

    /// Writes the node at `built[start...]` to `ref`: at once (and drops it from `built`), or
    /// into `pending` while `deferWrites` is set. The one place a node meets its ref, so where
    /// its checksum is bound to it (`placeBound`): every node kind, every writer.
    private func enqueue(_ ref: UInt64, start: Int) throws {
        if placeBound {
            built.withUnsafeMutableBytes {
                Node.bindChecksum(UnsafeMutableRawBufferPointer(rebasing: $0[start...]), to: ref)
            }
        }
        verified.insert(ref)
        let count = built.count - start
        guard deferWrites else {
            defer { built.removeSubrange(start...) }
            try built.withUnsafeBytes { try writeBytes(UnsafeRawBufferPointer(rebasing: $0[start...]), at: ref) }
            return
        }
        pending.append((ref, start, count))
        pendingSorted = false
        if built.count > 4 << 20 { try flush() }
    }

    // MARK: Deferred writes (the commit)

    /// While set, `writeNode` keeps nodes in `pending` instead of writing each at once, and
    /// `flush` writes them sorted, one `pwrite` per run of adjacent nodes: the commit's nodes lie
    /// side by side (`FreeSpace.allocate`), so a small commit takes one or two writes, not ten.
    /// Reading back a node of this transaction (`load`, `release`) flushes first.
    @exclusivity(unchecked) var deferWrites = false
    /// The most a transaction may write and still keep its nodes in one run
    /// (`FreeSpace.preferRuns`): past it, holes of any size are filled again.
    static let smallTransaction = 64 << 10
    /// Nodes this transaction wrote into the commit area before its commit and that are still
    /// live. A small transaction allocates in the area of the slot it will write
    /// (`FreeSpace.area`, set by `WriteTransaction`) from its first node on, so its commit
    /// reaches the disk beside that slot. If the transaction grows large, its commit moves these
    /// out again (`outOfCommitArea`, as their parents are written): the full leaves a bulk
    /// insert seals early would otherwise stay in the area for good.
    @exclusivity(unchecked) private var earlyAreaWrites: [UInt64] = []
    /// Set by `commit()`: nodes written from then on are the commit's own, not early ones.
    @exclusivity(unchecked) var committing = false

    /// The ref of the node at `ref` once it is out of the commit area: a node this transaction
    /// wrote there early is copied to general space once the transaction is no longer small,
    /// and its place freed at once (no snapshot saw it). Any other node keeps its ref.
    func outOfCommitArea(_ ref: UInt64) throws -> UInt64 {
        guard !free.preferRuns, let i = earlyAreaWrites.firstIndex(of: ref) else { return ref }
        earlyAreaWrites.remove(at: i)
        try flushBeforeReading(ref)
        let (length, _) = try bytes.header(ref)
        var node = Array(UnsafeRawBufferPointer(start: file.base + Int(ref), count: Int(length)))
        // Its checksum names its old place: unbound here, `enqueue` binds it to the new one.
        if placeBound { node.withUnsafeMutableBytes { Node.bindChecksum($0, to: ref) } }
        let to = free.allocate(node.count)
        try ensureSize(free.logicalSize)
        try writeNode(node, at: to)
        writtenHere.insert(to)
        try release(ref)
        return to
    }
    @exclusivity(unchecked) private var nodeBytes = 0
    /// Nodes not yet written: where each goes and where it lies in `built`, which holds them back
    /// to back (in the order they were built, usually also their order in the file).
    @exclusivity(unchecked) private var pending: [(ref: UInt64, start: Int, count: Int)] = []
    @exclusivity(unchecked) private var built: [UInt8] = []
    /// A run of pending nodes gathered for one write, when they do not lie in `built` in file order.
    @exclusivity(unchecked) private var run: [UInt8] = []

    /// The checksum in the header of the node at `ref` that this transaction wrote: from the
    /// pending node if it is not written yet, else from the file. Sorts `pending` (by ref) once.
    func writtenChecksum(_ ref: UInt64) -> UInt32 {
        if !pendingSorted {
            pending.sort { $0.ref < $1.ref }
            pendingSorted = true
        }
        var lo = 0
        var hi = pending.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pending[mid].ref < ref { lo = mid + 1 } else { hi = mid }
        }
        if lo < pending.count, pending[lo].ref == ref {
            let at = pending[lo].start + 12
            return built.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        }
        return UInt32(littleEndian: (file.base + Int(ref)).loadUnaligned(fromByteOffset: 12, as: UInt32.self))
    }
    @exclusivity(unchecked) private var pendingSorted = true

    /// Writes the pending nodes: one write per run of nodes adjacent in the file, straight from
    /// `built` when they lie there in the same order.
    func flush() throws {
        guard !pending.isEmpty else { return }
        if !pendingSorted { pending.sort { $0.ref < $1.ref } }
        try built.withUnsafeBytes { nodes in
            var i = 0
            while i < pending.count {
                let first = pending[i]
                var end = first.ref + UInt64(first.count)
                var inPlace = true  // the run also lies back to back in `built`
                var j = i + 1
                while j < pending.count, pending[j].ref == end {
                    inPlace = inPlace && pending[j].start == pending[j - 1].start + pending[j - 1].count
                    end += UInt64(pending[j].count)
                    j += 1
                }
                let length = Int(end - first.ref)
                if inPlace {
                    try writeBytes(
                        UnsafeRawBufferPointer(rebasing: nodes[first.start..<(first.start + length)]), at: first.ref)
                } else {
                    run.removeAll(keepingCapacity: true)
                    run.reserveCapacity(length)
                    for k in i..<j {
                        run.append(contentsOf: nodes[pending[k].start..<(pending[k].start + pending[k].count)])
                    }
                    try run.withUnsafeBytes { try writeBytes($0, at: first.ref) }
                }
                i = j
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingSorted = true
        built.removeAll(keepingCapacity: true)
    }

    /// Runs `body` with writes deferred (`deferWrites`), then writes what it left pending — for
    /// an object-level step that writes several nodes (a row, its index entries and the inner
    /// nodes above them), so that they reach the file in one `pwrite` per run instead of one
    /// each. Only the writer may read the file inside `body` (it flushes before reading back a
    /// node of this transaction); everything is written when this returns or throws.
    func batchingWrites<T>(_ body: () throws -> T) throws -> T {
        if deferWrites { return try body() }
        deferWrites = true
        let result: T
        do {
            result = try body()
        } catch {
            deferWrites = false
            try? flush()  // the error to report is `body`'s; a failed flush leaves `pending` for the next
            throw error
        }
        deferWrites = false
        try flush()
        return result
    }

    /// Flushes before reading back a node this transaction may not have written yet.
    @inline(__always)
    private func flushBeforeReading(_ ref: UInt64) throws {
        if !pending.isEmpty && writtenHere.contains(ref) { try flush() }
    }

    /// Grows the file to hold `size` bytes, in large steps so that bulk writes do not grow it per
    /// node and small commits mostly overwrite blocks an earlier commit already wrote.
    func ensureSize(_ size: UInt64) throws {
        guard size > physicalSize else { return }
        try learnSize()
        guard size > physicalSize else { return }
        // Grow in steps proportional to the file, so bulk writes do not grow it per node, and
        // a small file does not jump by a megabyte of zeros on its first write.
        let step = physicalSize < 8 << 20 ? max(physicalSize / 4, 64 << 10) : max(physicalSize / 8, 1 << 20)
        let target = max(size, min(physicalSize + step, UInt64(file.reservedBytes)))
        try file.grow(from: physicalSize, to: target)
        physicalSize = target
    }

    /// Frees the node at `ref` (a no-op for 0).
    func release(_ ref: UInt64) throws {
        guard ref != 0 else { return }
        try flushBeforeReading(ref)
        let (length, _) = try bytes.header(ref)
        if writtenHere.remove(ref) {
            if !earlyAreaWrites.isEmpty, let i = earlyAreaWrites.firstIndex(of: ref) { earlyAreaWrites.remove(at: i) }
            free.free(offset: ref, length: length, freedIn: 0)
        } else {
            free.free(offset: ref, length: length, freedIn: newVersion)
        }
    }

    // MARK: Loading

    /// Decodes the node behind `child` for modification (once) and frees its old extent.
    func load(_ child: inout TreeChild, columns: [Property]?) throws -> TreeNode {
        if let node = child.node { return node }
        let node: TreeNode
        try flushBeforeReading(child.ref)
        let b = bytes
        let (kind, payload) = try b.anyNode(child.ref)
        switch kind {
        case NodeKind.inner.rawValue:
            node = TreeNode(.inner(try InnerNodeCodec.View(payload, path: b.path, ref: child.ref).children()))
        case NodeKind.clusterLeaf.rawValue:
            node = TreeNode(
                .leaf(
                    .cluster(
                        try ClusterAccess(.file(payload, ref: child.ref), columns: columns ?? [], path: b.path).decode()
                    )))
        case NodeKind.indexLeaf.rawValue:
            node = TreeNode(.leaf(.index(try IndexLeafCodec.View(payload, path: b.path, ref: child.ref).entries())))
        default:
            throw RealmError.corruptFile(
                path: b.path, offset: child.ref, reason: "unexpected node kind \(kind) in a tree")
        }
        try release(child.ref)
        child.ref = 0
        child.node = node
        return node
    }

    // MARK: Mutation

    /// Applies `body` to the leaf that holds (or should hold) `key` in the tree rooted at `root`,
    /// then splits, removes or collapses nodes as needed. An empty tree gets a new leaf from
    /// `emptyLeaf`. `bigValues` asks for a size check of the leaf (values over a few KB).
    func mutate(
        root: inout TreeChild?, key: TreeKey, columns: [Property]?, emptyLeaf: () -> LeafData,
        bigValues: Bool = false, _ body: (inout LeafData) throws -> Void
    ) throws {
        var top = root ?? TreeChild(firstKey: key, count: 0, ref: 0, node: TreeNode(.leaf(emptyLeaf())))
        var replacement = try mutate(&top, key: key, columns: columns, bigValues: bigValues, body).array
        while replacement.count > Limits.innerFanout {
            replacement = splitInner(replacement)
        }
        switch replacement.count {
        case 0:
            root = nil
        case 1:
            root = collapsed(replacement[0])
        default:
            root = innerChild(replacement)
        }
    }

    /// What replaces a subtree after a change: nothing (it became empty), itself, or the pieces
    /// it split into. `.one` keeps the common case free of array allocations.
    private enum Parts {
        case none
        case one(TreeChild)
        case many([TreeChild])

        var array: [TreeChild] {
            switch self {
            case .none: []
            case .one(let c): [c]
            case .many(let cs): cs
            }
        }
    }

    private func mutate(
        _ child: inout TreeChild, key: TreeKey, columns: [Property]?, bigValues: Bool,
        _ body: (inout LeafData) throws -> Void
    ) throws -> Parts {
        let node = try load(&child, columns: columns)
        switch node.body {
        case .leaf(var leaf):
            node.body = .inner([])  // drop the reference so `leaf` is uniquely owned while mutated
            let lastBefore = lastKey(leaf)
            do { try body(&leaf) } catch {
                node.body = .leaf(leaf)
                throw error
            }
            if leaf.count == 0 { return .none }
            let appended = lastBefore.map { key > $0 } ?? false
            if !needsSplit(leaf, columns: columns, bigValues: bigValues) {
                let first = leaf.firstKey ?? .min
                let count = leaf.count
                node.body = .leaf(leaf)
                return .one(TreeChild(firstKey: first, count: count, ref: 0, node: node))
            }
            return .many(try splitLeaf(leaf, appended: appended, columns: columns))
        case .inner(var children):
            node.body = .inner([])
            let i = childIndex(children, key)
            let before = children[i].count
            let parts = try mutate(&children[i], key: key, columns: columns, bigValues: bigValues, body)
            if case .one(let c) = parts {
                // The common case: one subtree changed in place; adjust the count, no re-summing.
                children[i] = c
                let first = children[0].firstKey
                node.body = .inner(children)
                return .one(TreeChild(firstKey: first, count: child.count - before + c.count, ref: 0, node: node))
            }
            let pieces = parts.array
            let appended = i == children.count - 1 && pieces.count > 1
            children.replaceSubrange(i...i, with: pieces)
            if children.isEmpty { return .none }
            if children.count <= Limits.innerFanout {
                node.body = .inner(children)
                return .one(summary(node, children))
            }
            if appended {
                // Keep the full left node whole and seal it: bulk appends stay on the right edge.
                let left = Array(children[..<(children.count - 1)])
                var leftChild = innerChild(left)
                try sealOutsideCommitArea(&leftChild, columns: columns)
                return .many([leftChild, innerChild([children[children.count - 1]])])
            }
            return .many(splitInner(children))
        }
    }

    /// A new root without the chain of single-child inner nodes an edit can leave on top.
    func collapsed(_ root: TreeChild) -> TreeChild {
        var only = root
        while let node = only.node, case .inner(let children) = node.body, children.count == 1 {
            only = children[0]
        }
        return only
    }

    private func needsSplit(_ leaf: LeafData, columns: [Property]?, bigValues: Bool) -> Bool {
        switch leaf {
        case .index(let entries):
            return entries.count > Limits.indexLeafEntries
        case .cluster(let cluster):
            let n = cluster.keys.count
            if n > Limits.clusterRows { return true }
            if bigValues && n > 1, let cols = columns {
                return ClusterCodec.encodedSize(cluster, columns: cols) > Limits.bigLeafBytes
            }
            return false
        }
    }

    private func lastKey(_ leaf: LeafData) -> TreeKey? {
        switch leaf {
        case .cluster(let c): c.keys.last.map { TreeKey(hi: 0, lo: $0) }
        case .index(let e): e.last
        }
    }

    private func childIndex(_ children: [TreeChild], _ key: TreeKey) -> Int {
        var lo = 0
        var hi = children.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if key < children[mid].firstKey { hi = mid } else { lo = mid + 1 }
        }
        return max(0, lo - 1)
    }

    private func summary(_ node: TreeNode, _ children: [TreeChild]) -> TreeChild {
        TreeChild(firstKey: children[0].firstKey, count: children.reduce(0) { $0 + $1.count }, ref: 0, node: node)
    }

    private func innerChild(_ children: [TreeChild]) -> TreeChild {
        summary(TreeNode(.inner(children)), children)
    }

    private func leafChild(_ leaf: LeafData) -> TreeChild {
        TreeChild(firstKey: leaf.firstKey ?? .min, count: leaf.count, ref: 0, node: TreeNode(.leaf(leaf)))
    }

    private func splitInner(_ children: [TreeChild]) -> [TreeChild] {
        var out: [TreeChild] = []
        var start = 0
        let pieces = (children.count + Limits.innerFanout - 1) / Limits.innerFanout
        let size = (children.count + pieces - 1) / pieces
        while start < children.count {
            let end = min(children.count, start + size)
            out.append(innerChild(Array(children[start..<end])))
            start = end
        }
        return out
    }

    /// Splits an overfull leaf. A split caused by appending past the last key keeps the full
    /// left part whole (and seals it) and starts the right part with room to grow.
    private func splitLeaf(_ leaf: LeafData, appended: Bool, columns: [Property]?) throws -> [TreeChild] {
        switch leaf {
        case .index(let entries):
            if appended {
                var left = leafChild(.index(Array(entries.dropLast())))
                try sealOutsideCommitArea(&left, columns: columns)
                var right = [TreeKey]()
                right.reserveCapacity(Limits.indexLeafEntries + 1)
                right.append(entries[entries.count - 1])
                return [left, leafChild(.index(right))]
            }
            let mid = entries.count / 2
            return [leafChild(.index(Array(entries[..<mid]))), leafChild(.index(Array(entries[mid...])))]
        case .cluster(let cluster):
            let n = cluster.keys.count
            let cut = appended ? n - 1 : n / 2
            var left = leafChild(.cluster(cluster.slice(0..<cut)))
            let right = leafChild(.cluster(cluster.slice(cut..<n, reserve: appended ? Limits.clusterRows + 1 : 0)))
            if appended { try sealOutsideCommitArea(&left, columns: columns) }
            return [left, right]
        }
    }

    // MARK: Sealing

    /// Writes every loaded node under `child` (children first) and drops it from memory.
    func seal(_ child: inout TreeChild, columns: [Property]?) throws {
        guard let node = child.node else { return }
        switch node.body {
        case .inner(var children):
            // Only loaded children need writing; a small commit loads one path of a wide node.
            for i in children.indices where children[i].node != nil { try seal(&children[i], columns: columns) }
            // A transaction grown large moves its early nodes out of the commit area as their
            // parent is written (at its commit, or when a full inner node is sealed on the way).
            if !earlyAreaWrites.isEmpty && !free.preferRuns {
                for i in children.indices where children[i].node == nil && earlyAreaWrites.contains(children[i].ref) {
                    children[i].ref = try outOfCommitArea(children[i].ref)
                }
            }
            child.ref = try write(kind: .inner, payload: InnerNodeCodec.encode(children))
        case .leaf(.cluster(let c)):
            child.ref = try write(kind: .clusterLeaf) { ClusterCodec.encode(c, columns: columns ?? [], into: &$0) }
        case .leaf(.index(let e)):
            child.ref = try write(kind: .indexLeaf, payload: IndexLeafCodec.encode(e))
        }
        child.node = nil
    }

    /// `seal` for the full left part of a split at the right edge: appends never touch it
    /// again, so it goes to general space — left in the commit area, it would stay there for good
    /// and crowd out the small commits the area is for.
    private func sealOutsideCommitArea(_ child: inout TreeChild, columns: [Property]?) throws {
        let area = free.area
        free.area = nil
        defer { free.area = area }
        try seal(&child, columns: columns)
    }

    /// Frees every node of a committed tree (for deleting a table's contents or an index).
    func releaseTree(_ child: TreeChild) throws {
        if let node = child.node {
            if case .inner(let children) = node.body {
                for c in children { try releaseTree(c) }
            }
            return
        }
        guard child.ref != 0 else { return }
        try flushBeforeReading(child.ref)
        let b = bytes
        let (_, kind) = try b.header(child.ref)
        if kind == NodeKind.inner.rawValue {
            let view = try InnerNodeCodec.View(try b.node(child.ref, kind: .inner), path: b.path, ref: child.ref)
            for c in view.children() { try releaseTree(c) }
        }
        try release(child.ref)
    }
}

extension ClusterData {
    /// The rows in `range` as a new cluster.
    func slice(_ range: Range<Int>, reserve: Int = 0) -> ClusterData {
        func part<T>(_ a: [T]) -> [T] {
            var out = [T]()
            out.reserveCapacity(Swift.max(reserve, range.count))
            out.append(contentsOf: a[range])
            return out
        }
        return ClusterData(keys: part(keys), columns: columns.map(part))
    }
}
