/// One leaf as a reader sees it: encoded in the file, or decoded in a write transaction's memory.
enum LeafAccess {
    case file(UnsafeRawBufferPointer, ref: UInt64)
    case memory(LeafData)
}

/// A cluster leaf, from either place, with the accessors the object layer needs.
package enum ClusterAccess {
    case view(ClusterView)
    case data(ClusterData)

    init(_ leaf: LeafAccess, columns: [Property], path: String) throws {
        switch leaf {
        case .file(let payload, let ref):
            do { self = .view(try ClusterView(payload, columns: columns)) } catch let e as CodecError {
                throw e.realmError(path: path, nodeOffset: ref + UInt64(Node.headerSize))
            }
        case .memory(.cluster(let c)): self = .data(c)
        case .memory(.index):
            throw RealmError.corruptFile(path: path, offset: 0, reason: "an index leaf where a cluster was expected")
        }
    }

    var count: Int {
        switch self {
        case .view(let v): v.count
        case .data(let d): d.keys.count
        }
    }

    func key(at row: Int) -> Int64 {
        switch self {
        case .view(let v): v.key(at: row)
        case .data(let d): d.keys[row]
        }
    }

    func row(of key: Int64) -> Int? {
        switch self {
        case .view(let v): return v.row(of: key)
        case .data(let d):
            var lo = 0
            var hi = d.keys.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if d.keys[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            return lo < d.keys.count && d.keys[lo] == key ? lo : nil
        }
    }

    /// The whole leaf in its mutable form.
    func decode() -> ClusterData {
        switch self {
        case .view(let v): v.decode()
        case .data(let d): d
        }
    }

    func value(row: Int, column: Int) -> Value {
        switch self {
        case .view(let v): v.value(row: row, column: column)
        case .data(let d): d.columns[column][row]
        }
    }
}

/// Reads B+trees through a write transaction's loaded nodes where there are any, and from the
/// file otherwise.
struct TreeReader {
    let bytes: FileBytes

    /// The leaf that holds (or would hold) `key`.
    func leaf(_ root: TreeChild, key: TreeKey) throws -> LeafAccess {
        var child = root
        var depth = 0
        while true {
            depth += 1
            if depth > 64 {
                throw RealmError.corruptFile(path: bytes.path, offset: child.ref, reason: "tree too deep (a cycle?)")
            }
            if let node = child.node {
                switch node.body {
                case .leaf(let l): return .memory(l)
                case .inner(let children):
                    guard !children.isEmpty else { return .memory(.index([])) }
                    var lo = 0
                    var hi = children.count
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if key < children[mid].firstKey { hi = mid } else { lo = mid + 1 }
                    }
                    child = children[max(0, lo - 1)]
                }
            } else {
                switch try fileNode(child.ref) {
                case .inner(let view):
                    let i = view.childIndex(for: key)
                    child = TreeChild(firstKey: view.key(i), count: view.subtreeCount(i), ref: view.ref(i), node: nil)
                case .leaf(let leaf):
                    return leaf
                }
            }
        }
    }

    /// Calls `body` for each leaf in key order from the first leaf that may hold `from`;
    /// stops when it returns false.
    func forEachLeaf(_ root: TreeChild, from: TreeKey? = nil, _ body: (LeafAccess) throws -> Bool) throws {
        _ = try visit(root, from: from, depth: 0, body)
    }

    private func visit(_ child: TreeChild, from: TreeKey?, depth: Int, _ body: (LeafAccess) throws -> Bool) throws
        -> Bool
    {
        if depth > 64 {
            throw RealmError.corruptFile(path: bytes.path, offset: child.ref, reason: "tree too deep (a cycle?)")
        }
        if let node = child.node {
            switch node.body {
            case .leaf(let l): return try body(.memory(l))
            case .inner(let children):
                var start = 0
                if let from {
                    while start + 1 < children.count && children[start + 1].firstKey <= from { start += 1 }
                }
                for c in children[start...] where !(try visit(c, from: from, depth: depth + 1, body)) { return false }
                return true
            }
        }
        switch try fileNode(child.ref) {
        case .inner(let view):
            let start = from.map { view.childIndex(for: $0) } ?? 0
            for i in start..<view.count {
                let c = TreeChild(firstKey: view.key(i), count: view.subtreeCount(i), ref: view.ref(i), node: nil)
                if !(try visit(c, from: from, depth: depth + 1, body)) { return false }
            }
            return true
        case .leaf(let leaf):
            return try body(leaf)
        }
    }

    /// A node of a tree in the file: an inner node's view, or a cluster or index leaf (any other
    /// kind is corrupt). One bounds and magic check for the kind and the payload.
    private enum FileNode {
        case inner(InnerNodeCodec.View)
        case leaf(LeafAccess)
    }

    private func fileNode(_ ref: UInt64) throws -> FileNode {
        let (kind, payload) = try bytes.anyNode(ref)
        switch kind {
        case NodeKind.inner.rawValue:
            return .inner(try InnerNodeCodec.View(payload, path: bytes.path, ref: ref))
        case NodeKind.clusterLeaf.rawValue, NodeKind.indexLeaf.rawValue:
            return .leaf(.file(payload, ref: ref))
        default:
            throw RealmError.corruptFile(
                path: bytes.path, offset: ref, reason: "expected a tree node, found kind \(kind)")
        }
    }

    /// The leaf holding the entry at position `index` and the position inside it.
    func leaf(_ root: TreeChild, at index: Int) throws -> (LeafAccess, Int) {
        var child = root
        var i = index
        for _ in 0..<64 {
            if let node = child.node {
                switch node.body {
                case .leaf(let l): return (.memory(l), i)
                case .inner(let children):
                    var found = false
                    for c in children {
                        if i < c.count {
                            child = c
                            found = true
                            break
                        }
                        i -= c.count
                    }
                    if !found { throw RealmError.indexOutOfRange(index: index, count: root.count) }
                }
            } else {
                switch try fileNode(child.ref) {
                case .inner(let view):
                    var found = false
                    for j in 0..<view.count {
                        let n = view.subtreeCount(j)
                        if i < n {
                            child = TreeChild(firstKey: view.key(j), count: n, ref: view.ref(j), node: nil)
                            found = true
                            break
                        }
                        i -= n
                    }
                    if !found {
                        throw RealmError.corruptFile(
                            path: bytes.path, offset: child.ref, reason: "subtree counts do not add up")
                    }
                case .leaf(let leaf):
                    return (leaf, i)
                }
            }
        }
        throw RealmError.corruptFile(path: bytes.path, offset: child.ref, reason: "tree too deep (a cycle?)")
    }
}
