/// Editing many leaves of a cluster tree in one pass, for bulk updates and deletes.
///
/// A leaf still in the file is edited in its encoded form (`ClusterCodec.replacingColumn`,
/// `removingRows`) and written straight back — it is never decoded into values. A leaf that
/// this transaction already loaded is edited in memory. Inner nodes on the way are loaded (they
/// are small) and their counts and first keys kept right; emptied leaves and nodes disappear.
extension TreeWriter {
    /// The new encoded leaf: its payload, row count and first key.
    typealias EncodedEdit = (payload: [UInt8], count: Int, firstKey: Int64?)

    /// Applies an edit to every leaf holding some of `keys` (ascending). `file` gets a leaf's view,
    /// payload and the rows of the keys it holds, and returns the new leaf (or nil: unchanged);
    /// `memory` edits a loaded leaf in place given the same rows.
    func editLeaves(
        root: inout TreeChild?, keys: [Int64], columns: [Property],
        file: (ClusterView, UnsafeRawBufferPointer, [Int]) throws -> EncodedEdit?,
        memory: (inout ClusterData, [Int]) throws -> Void
    ) throws {
        guard var top = root, !keys.isEmpty else { return }
        let result = try edit(&top, keys: keys[...], columns: columns, file: file, memory: memory)
        switch result {
        case nil:
            root = nil
        case .some(let only):
            root = collapsed(only)
        }
    }

    private func edit(
        _ child: inout TreeChild, keys: ArraySlice<Int64>, columns: [Property],
        file: (ClusterView, UnsafeRawBufferPointer, [Int]) throws -> EncodedEdit?,
        memory: (inout ClusterData, [Int]) throws -> Void
    ) throws -> TreeChild? {
        if child.node == nil {
            let (_, kind) = try bytes.header(child.ref)
            if kind == NodeKind.clusterLeaf.rawValue {
                let payload = try bytes.node(child.ref, kind: .clusterLeaf)
                guard
                    case .view(let view) = try ClusterAccess(
                        .file(payload, ref: child.ref), columns: columns, path: bytes.path)
                else {
                    return child
                }
                let rows = view.rows(of: keys)
                if rows.isEmpty { return child }
                guard let edited = try file(view, payload, rows) else { return child }
                try release(child.ref)
                guard edited.count > 0, let first = edited.firstKey else { return nil }
                let ref = try write(kind: .clusterLeaf, payload: edited.payload)
                return TreeChild(firstKey: TreeKey(hi: 0, lo: first), count: edited.count, ref: ref, node: nil)
            }
        }
        let node = try load(&child, columns: columns)
        switch node.body {
        case .leaf(.cluster(var data)):
            node.body = .inner([])
            let rows = keys.compactMap { data.row(of: $0) }
            if !rows.isEmpty { try memory(&data, rows) }
            guard let first = data.keys.first else { return nil }
            let count = data.keys.count
            node.body = .leaf(.cluster(data))
            return TreeChild(firstKey: TreeKey(hi: 0, lo: first), count: count, ref: 0, node: node)
        case .leaf(.index):
            return child
        case .inner(let children):
            return try editChildren(node, children, keys, bound: { $0.lo }) { child, mine in
                try edit(&child, keys: mine, columns: columns, file: file, memory: memory)
            }
        }
    }

    /// Removes from every leaf of a tree that is wholly in the file the rows `select` picks from
    /// the leaf's view (a filtered bulk delete, which then needs no list of keys and builds one
    /// view per leaf); `removing` is told of them first. Each changed leaf is re-encoded straight
    /// into the writer's buffer (`ClusterCodec.removingRows`); emptied leaves and nodes disappear.
    /// Returns false, having changed nothing, when this transaction has loaded the top of the
    /// tree (some leaves may be decoded; the caller edits by keys instead).
    func removeRowsFromEveryLeaf(
        root: inout TreeChild?, columns: [Property], select: (ClusterView) throws -> [Int],
        removing: (ClusterView, [Int]) throws -> Void
    ) throws -> Bool {
        guard var top = root else { return true }
        guard top.node == nil else { return false }
        switch try removeRows(&top, columns: columns, depth: 0, select: select, removing: removing) {
        case nil:
            root = nil
        case .some(let only):
            root = collapsed(only)
        }
        return true
    }

    private func removeRows(
        _ child: inout TreeChild, columns: [Property], depth: Int, select: (ClusterView) throws -> [Int],
        removing: (ClusterView, [Int]) throws -> Void
    ) throws -> TreeChild? {
        guard depth <= 64 else {
            throw RealmError.corruptFile(path: bytes.path, offset: child.ref, reason: "tree too deep (a cycle?)")
        }
        // Below an unloaded top every node is in the file: an inner node is loaded here (it is
        // small), a leaf edited in its encoded form.
        assert(child.node == nil, "a node below an unloaded parent is loaded")
        let (kind, payload) = try bytes.anyNode(child.ref)
        if kind == NodeKind.clusterLeaf.rawValue {
            guard
                case .view(let view) = try ClusterAccess(
                    .file(payload, ref: child.ref), columns: columns, path: bytes.path)
            else {
                return child
            }
            let rows = try select(view)
            if rows.isEmpty { return child }
            try removing(view, rows)
            // `rows` is ascending and without repeats: the first survivor is the first gap.
            var survivor = 0
            while survivor < rows.count && rows[survivor] == survivor { survivor += 1 }
            guard survivor < view.count else {
                try release(child.ref)
                return nil
            }
            let first = view.key(at: survivor)
            let ref = try write(kind: .clusterLeaf, replacing: child.ref) {
                ClusterCodec.removingRows(view, payload: payload, columns: columns, rows: rows, into: &$0)
            }
            return TreeChild(firstKey: TreeKey(hi: 0, lo: first), count: view.count - rows.count, ref: ref, node: nil)
        }
        guard kind == NodeKind.inner.rawValue else {
            throw RealmError.corruptFile(
                path: bytes.path, offset: child.ref, reason: "expected a cluster tree node, found kind \(kind)")
        }
        // The node is read in place and loaded (its extent freed, to be rewritten) only when a
        // child changed: a delete that matches nothing in a subtree leaves it as it was.
        var children = try InnerNodeCodec.View(payload, path: bytes.path, ref: child.ref).children()
        var out: [TreeChild] = []
        out.reserveCapacity(children.count)
        var changed = false
        for i in children.indices {
            let before = children[i].ref
            if let edited = try removeRows(
                &children[i], columns: columns, depth: depth + 1, select: select, removing: removing)
            {
                if edited.ref != before || edited.node != nil { changed = true }
                out.append(edited)
            } else {
                changed = true
            }
        }
        guard changed else { return child }
        guard !out.isEmpty else {
            try release(child.ref)
            return nil
        }
        // Rewritten from `out` (what `load` would decode is read above already).
        try release(child.ref)
        return TreeChild(
            firstKey: out[0].firstKey, count: out.reduce(0) { $0 + $1.count }, ref: 0, node: TreeNode(.inner(out)))
    }

    /// Hands each child of an inner node the sorted keys that fall in its range (those below the
    /// next child's first key), keeps the children the edit leaves non-empty, and returns the
    /// node's new summary (nil when it became empty).
    func editChildren<K: Comparable>(
        _ node: TreeNode, _ children: [TreeChild], _ keys: ArraySlice<K>,
        bound: (TreeKey) -> K,
        _ edit: (inout TreeChild, ArraySlice<K>) throws -> TreeChild?
    ) throws -> TreeChild? {
        var children = children
        node.body = .inner([])
        var out: [TreeChild] = []
        out.reserveCapacity(children.count)
        var rest = keys
        for i in children.indices {
            var mine = rest
            if i + 1 < children.count {
                let limit = bound(children[i + 1].firstKey)
                // Binary search: a bulk edit hands down many keys, and most children take some.
                var lo = rest.startIndex
                var hi = rest.endIndex
                while lo < hi {
                    let mid = lo + (hi - lo) / 2
                    if rest[mid] < limit { lo = mid + 1 } else { hi = mid }
                }
                let cut = lo
                mine = rest[..<cut]
                rest = rest[cut...]
            } else {
                rest = rest[rest.endIndex...]
            }
            if mine.isEmpty {
                out.append(children[i])
            } else if let edited = try edit(&children[i], mine) {
                out.append(edited)
            }
        }
        guard !out.isEmpty else { return nil }
        node.body = .inner(out)
        return TreeChild(firstKey: out[0].firstKey, count: out.reduce(0) { $0 + $1.count }, ref: 0, node: node)
    }
}

extension TreeWriter {
    /// Removes every entry of `entries` (sorted) from an index tree in one pass: each index leaf
    /// that holds some of them is rewritten once.
    func removeIndexEntries(root: inout TreeChild?, entries: [TreeKey]) throws {
        guard var top = root, !entries.isEmpty else { return }
        switch try removeEntries(&top, entries[...]) {
        case nil:
            root = nil
        case .some(let only):
            root = collapsed(only)
        }
    }

    private func removeEntries(_ child: inout TreeChild, _ entries: ArraySlice<TreeKey>) throws -> TreeChild? {
        if child.node == nil {
            let (_, kind) = try bytes.header(child.ref)
            if kind == NodeKind.indexLeaf.rawValue {
                let view = try IndexLeafCodec.View(
                    try bytes.node(child.ref, kind: .indexLeaf), path: bytes.path, ref: child.ref)
                var kept = KeptIndexEntries(view)
                kept.remove(entries)
                guard kept.count != view.count else { return child }
                guard let first = kept.first else {
                    try release(child.ref)
                    return nil
                }
                let ref = try write(kind: .indexLeaf, replacing: child.ref) { kept.encode(into: &$0) }
                return TreeChild(firstKey: first, count: kept.count, ref: ref, node: nil)
            }
        }
        let node = try load(&child, columns: nil)
        switch node.body {
        case .leaf(.index(let current)):
            let kept = remove(entries, from: current)
            guard let first = kept.first else { return nil }
            node.body = .leaf(.index(kept))
            return TreeChild(firstKey: first, count: kept.count, ref: 0, node: node)
        case .leaf(.cluster):
            return child
        case .inner(let children):
            return try editChildren(node, children, entries, bound: { $0 }) { child, mine in
                try removeEntries(&child, mine)
            }
        }
    }

    /// `current` without the entries of `doomed` (both sorted): one merge pass.
    private func remove(_ doomed: ArraySlice<TreeKey>, from current: [TreeKey]) -> [TreeKey] {
        // Through buffer pointers into uninitialized storage: this runs once per index entry of
        // every leaf a bulk delete touches.
        doomed.withUnsafeBufferPointer { gone in
            current.withUnsafeBufferPointer { have in
                [TreeKey](uninitializedCapacity: have.count) { out, initialized in
                    var d = 0
                    var n = 0
                    for e in have {
                        while d < gone.count && gone[d] < e { d += 1 }
                        if d < gone.count && gone[d] == e {
                            d += 1
                            continue
                        }
                        out[n] = e
                        n += 1
                    }
                    initialized = n
                }
            }
        }
    }
}

/// An index leaf's entries as its two unpacked halves, edited in place and encoded straight
/// into the writer's buffer (what `IndexLeafCodec.encode` writes for the entries kept), without
/// an array of `TreeKey`s.
private struct KeptIndexEntries {
    var his: [Int64]
    var los: [Int64]
    private(set) var count: Int

    init(_ view: IndexLeafCodec.View) {
        his = view.his.unpackAll()
        los = view.los.unpackAll()
        count = Swift.min(view.count, his.count, los.count)
    }

    var first: TreeKey? { count > 0 ? TreeKey(hi: UInt64(bitPattern: his[0]), lo: los[0]) : nil }

    /// Drops the entries of `doomed` (sorted): one merge pass, compacting in place.
    mutating func remove(_ doomed: ArraySlice<TreeKey>) {
        let n = doomed.withUnsafeBufferPointer { gone in
            his.withUnsafeMutableBufferPointer { h in
                los.withUnsafeMutableBufferPointer { l in
                    var d = 0
                    var n = 0
                    for i in 0..<count {
                        let e = TreeKey(hi: UInt64(bitPattern: h[i]), lo: l[i])
                        while d < gone.count && gone[d] < e { d += 1 }
                        if d < gone.count && gone[d] == e {
                            d += 1
                            continue
                        }
                        h[n] = h[i]
                        l[n] = l[i]
                        n += 1
                    }
                    return n
                }
            }
        }
        his.removeSubrange(n...)
        los.removeSubrange(n...)
        count = n
    }

    /// Appends the leaf's payload to `out`.
    func encode(into out: inout [UInt8]) {
        let hiPlan = PackPlan(his)
        let loPlan = PackPlan(los)
        let size = 4 + hiPlan.byteSize + loPlan.byteSize
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: size))
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var w = ByteWriter(base + start, capacity: size)
            w.u32(UInt32(count))
            hiPlan.write(his, to: &w)
            loPlan.write(los, to: &w)
        }
    }
}

extension TreeWriter {
    /// Builds the encoded form of a committed leaf (its payload and ref given) with one entry
    /// appended past its end, appending it to the buffer given (behind bytes it must leave
    /// alone); false, having appended nothing,
    /// when the append does not apply (the leaf is full, or the entry does not go last).
    typealias EncodedLeafAppend = (_ payload: UnsafeRawBufferPointer, _ ref: UInt64, _ out: inout [UInt8]) throws ->
        Bool

    /// Appends one entry past the end of a *committed* leaf of kind `kind` in its encoded form
    /// (`append`) and path-copies the inner nodes above it, also in encoded form (the copy with
    /// one child's ref and count changed) — the small-commit case, where decoding and
    /// re-encoding whole nodes would dominate. Loaded inner nodes on top of the path are changed
    /// in memory. Returns false, having changed nothing, when `append` declines, the leaf was
    /// already written by this transaction or is loaded (then the generic path keeps the right
    /// edge in memory for the next inserts), or `key` does not go last.
    ///
    /// The new nodes are written like any other (`write`): inside `batchingWrites`, in one
    /// `pwrite` with the rest of the step's nodes.
    func appendToCommittedLeaf(root: inout TreeChild?, key: TreeKey, kind: NodeKind, append: EncodedLeafAppend) throws
        -> Bool
    {
        guard let top = root, let replaced = try appendOnPath(top, key: key, kind: kind, depth: 0, append: append)
        else { return false }
        root = replaced
        return true
    }

    /// `appendToCommittedLeaf` for one row of a cluster tree (`ClusterCodec.appendingRow`).
    func appendRowToCommittedLeaf(root: inout TreeChild?, key: Int64, columns: [Property], row: [Value]) throws -> Bool
    {
        try appendToCommittedLeaf(root: &root, key: TreeKey(hi: 0, lo: key), kind: .clusterLeaf) { payload, ref, out in
            guard case .view(let view) = try ClusterAccess(.file(payload, ref: ref), columns: columns, path: file.path),
                view.count > 0, view.count < Limits.clusterRows, key > view.key(at: view.count - 1)
            else { return false }
            ClusterCodec.appendingRow(view, payload: payload, columns: columns, key: key, values: row, into: &out)
            return true
        }
    }

    /// `appendToCommittedLeaf` for one entry of an index tree (`IndexLeafCodec.appending`).
    func appendEntryToCommittedLeaf(root: inout TreeChild?, entry: TreeKey) throws -> Bool {
        try appendToCommittedLeaf(root: &root, key: entry, kind: .indexLeaf) { payload, ref, out in
            let view = try IndexLeafCodec.View(payload, path: file.path, ref: ref)
            guard view.count > 0, view.count < Limits.indexLeafEntries, view.entry(view.count - 1) < entry else {
                return false
            }
            IndexLeafCodec.appending(view, entry, into: &out)
            return true
        }
    }

    /// `appendToCommittedLeaf` below `child`: the new subtree, or nil when the append does not
    /// apply (then nothing changed — the leaf is decided before any node is written).
    private func appendOnPath(
        _ child: TreeChild, key: TreeKey, kind: NodeKind, depth: Int,
        append: EncodedLeafAppend
    ) throws -> TreeChild? {
        guard depth <= 64 else {
            throw RealmError.corruptFile(path: file.path, offset: child.ref, reason: "tree too deep (a cycle?)")
        }
        if let node = child.node {
            // Within a bulk insert the right edge is already loaded: then the generic path appends
            // in memory, and walking the tree here to find that out would cost as much as the append.
            guard case .inner(var children) = node.body, let i = children.indices.last, children[i].firstKey <= key,
                let updated = try appendOnPath(children[i], key: key, kind: kind, depth: depth + 1, append: append)
            else { return nil }
            node.body = .inner([])  // drop the node's reference so `children` is uniquely owned
            children[i] = updated
            node.body = .inner(children)
            return TreeChild(firstKey: child.firstKey, count: child.count + 1, ref: 0, node: node)
        }
        guard !writtenHere.contains(child.ref) else { return nil }
        let (k, payload) = try bytes.anyNode(child.ref)
        if k == kind.rawValue {
            guard
                let ref = try write(
                    kind: kind, replacing: child.ref, ifEncoded: { try append(payload, child.ref, &$0) })
            else { return nil }
            return TreeChild(firstKey: child.firstKey, count: child.count + 1, ref: ref, node: nil)
        }
        guard k == NodeKind.inner.rawValue else {
            throw RealmError.corruptFile(
                path: file.path, offset: child.ref, reason: "expected a tree node, found kind \(k)")
        }
        let view = try InnerNodeCodec.View(payload, path: file.path, ref: child.ref)
        let i = view.childIndex(for: key)
        let below = TreeChild(firstKey: view.key(i), count: view.subtreeCount(i), ref: view.ref(i), node: nil)
        guard let updated = try appendOnPath(below, key: key, kind: kind, depth: depth + 1, append: append) else {
            return nil
        }
        // The copy is encoded from the old node's bytes, then the old node freed (it was not
        // written here, so freeing it leaves the pending nodes alone).
        let ref = try write(kind: .inner, replacing: child.ref) {
            InnerNodeCodec.replacing(view, child: i, with: updated, into: &$0)
        }
        return TreeChild(firstKey: child.firstKey, count: child.count + 1, ref: ref, node: nil)
    }
}

extension ClusterView {
    /// The rows holding those of `keys` (ascending) that this leaf has, ascending: a merge walk
    /// when the keys are dense in the leaf, binary searches when they are few.
    func rows(of keys: ArraySlice<Int64>) -> [Int] {
        guard keys.count * 16 >= count else { return keys.compactMap { row(of: $0) } }
        var out = [Int]()
        out.reserveCapacity(Swift.min(keys.count, count))
        let offsets = keyOffsets.unpackAll()  // key(at: r) = offsets[r] + r
        var r = 0
        var k = keys.startIndex
        while r < count && k < keys.endIndex {
            let have = offsets[r] &+ Int64(r)
            let want = keys[k]
            if have < want {
                r += 1
            } else if have > want {
                k += 1
            } else {
                out.append(r)
                r += 1
                k += 1
            }
        }
        return out
    }
}

extension TreeWriter {
    /// Appends `key` at the right edge of a tree whose right edge this transaction has already
    /// loaded — the bulk-insert case: object keys, and index entries of increasing primary keys,
    /// arrive in ascending order. `append` adds the key's entry to the rightmost leaf (which then
    /// holds at most `limit`); when that leaf is full it is sealed (encoded and written, as the
    /// generic split of an append does) and `single` starts the next leaf beside it. Counts on the
    /// path are kept right; no other node is touched.
    ///
    /// Returns false, having changed nothing, when the right edge is not loaded, `key` does not
    /// sort after the last key, or a new leaf would overfill its parent: then the caller takes the
    /// generic path (`mutate`), which leaves the same tree.
    func appendAtRightEdge(
        root: inout TreeChild?, key: TreeKey, limit: Int, columns: [Property]?,
        append: (inout LeafData) -> Void, single: () -> LeafData
    ) throws -> Bool {
        guard var top = root, top.node != nil else { return false }
        guard try appendRight(&top, key: key, limit: limit, columns: columns, append: append, single: single) else {
            return false
        }
        root = top
        return true
    }

    private func appendRight(
        _ child: inout TreeChild, key: TreeKey, limit: Int, columns: [Property]?,
        append: (inout LeafData) -> Void, single: () -> LeafData
    ) throws -> Bool {
        guard let node = child.node else { return false }
        switch node.body {
        case .leaf(var leaf):
            guard Self.hasRoom(leaf, after: key, limit: limit) else { return false }
            node.body = .inner([])  // drop the node's reference so `leaf` is uniquely owned while it grows
            append(&leaf)
            node.body = .leaf(leaf)
            child.count += 1
            return true
        case .inner(var children):
            guard let i = children.indices.last else { return false }
            node.body = .inner([])
            defer { node.body = .inner(children) }
            if try appendRight(&children[i], key: key, limit: limit, columns: columns, append: append, single: single) {
                child.count += 1
                return true
            }
            guard children.count < Limits.innerFanout, let leafNode = children[i].node,
                case .leaf(let full) = leafNode.body,
                full.count >= limit, let last = Self.lastKey(full), last < key
            else { return false }
            try seal(&children[i], columns: columns)
            children.append(TreeChild(firstKey: key, count: 1, ref: 0, node: TreeNode(.leaf(single()))))
            child.count += 1
            return true
        }
    }

    /// Whether a non-empty leaf holds fewer than `limit` entries, all before `key` (one look at it).
    private static func hasRoom(_ leaf: LeafData, after key: TreeKey, limit: Int) -> Bool {
        switch leaf {
        case .cluster(let c):
            guard let last = c.keys.last else { return false }
            return c.keys.count < limit && TreeKey(hi: 0, lo: last) < key
        case .index(let e):
            guard let last = e.last else { return false }
            return e.count < limit && last < key
        }
    }

    private static func lastKey(_ leaf: LeafData) -> TreeKey? {
        switch leaf {
        case .cluster(let c): c.keys.last.map { TreeKey(hi: 0, lo: $0) }
        case .index(let e): e.last
        }
    }
}
