import Foundation
import RealmEngine

/// One cluster leaf: up to 256 objects (2^shift), a column per slot after slot 0, and their keys.
struct CoreClusterLeaf {
    let node: CoreNode
    let count: Int
    /// The keys array (ArrayUnsigned), or nil when the keys are 0..<count (compact leaf).
    let keys: CoreNode?
    /// Added to every stored key (the sum of the inner nodes' offsets above).
    let keyOffset: Int64

    func key(_ i: Int) -> Int64 {
        if let keys { return keyOffset &+ Int64(bitPattern: keys.unsigned(i)) }
        return keyOffset &+ Int64(i)
    }
}

/// Reads a table's cluster tree (or a tombstone tree): inner nodes with a key array or compact
/// ones (child i at offset i << (depth · shift)), and leaves. Every leaf's keys are checked to
/// be increasing and inside the range its parents give it, which also catches a wrong node
/// shift (a compact node read with the wrong shift puts keys outside their child's range).
struct CoreClusterTree {
    let bytes: CoreBytes
    let rootRef: Int
    /// Realm Core's node shift factor (8 in SDK builds, 2 in node-size-4 test builds).
    let shift: Int
    /// For error messages ("class_Dog").
    let tableName: String

    static let maxDepth = 24

    /// The number of objects, in O(1): the root's sub-tree size or leaf size.
    static func count(_ bytes: CoreBytes, root: Int, tableName: String) throws -> Int {
        let n = try bytes.node(root, "\(tableName) cluster tree root")
        return try size(of: n, bytes, tableName)
    }

    static func size(of n: CoreNode, _ bytes: CoreBytes, _ tableName: String) throws -> Int {
        if n.isInner {
            guard let v = try bytes.tagged(n, 2, "\(tableName) inner cluster node size"), v >= 0 else {
                throw bytes.corrupt(n.ref, "\(tableName): inner cluster node without a size")
            }
            return Int(v)
        }
        switch try bytes.refOrTagged(n, 0, "\(tableName) cluster leaf keys") {
        case .tagged(let v):
            guard v >= 0 else { throw bytes.corrupt(n.ref, "\(tableName): negative cluster size") }
            return Int(v)
        case .ref(let r):
            let keys = try bytes.node(r, "\(tableName) cluster keys")
            return keys.count
        case .null:
            throw bytes.corrupt(n.ref, "\(tableName): cluster leaf without keys or size")
        }
    }

    /// Leaf facts only (no values), for inferring the node shift.
    struct Shape {
        var hasCompact = false
        var maxFanout = 0
        var maxLeafSize = 0
    }

    static func shape(_ bytes: CoreBytes, root: Int, tableName: String) throws -> Shape {
        var shape = Shape()
        var visited = Set<Int>()
        func walk(_ ref: Int, _ depth: Int) throws {
            guard depth < maxDepth else {
                throw bytes.corrupt(ref, "\(tableName): cluster tree deeper than \(maxDepth)")
            }
            guard visited.insert(ref).inserted else {
                throw bytes.corrupt(ref, "\(tableName): cluster node reached twice (cycle)")
            }
            let n = try bytes.node(ref, "\(tableName) cluster node")
            if n.isInner {
                guard n.hasRefs, n.count >= 3 else {
                    throw bytes.corrupt(ref, "\(tableName): malformed inner cluster node")
                }
                if try bytes.refOrTagged(n, 0, "\(tableName) inner keys") == .null { shape.hasCompact = true }
                shape.maxFanout = max(shape.maxFanout, n.count - 3)
                for i in 3..<n.count {
                    guard let child = try bytes.ref(n, i, "\(tableName) cluster child") else {
                        throw bytes.corrupt(ref, "\(tableName): null child in an inner cluster node")
                    }
                    try walk(child, depth + 1)
                }
            } else {
                shape.maxLeafSize = max(shape.maxLeafSize, try size(of: n, bytes, tableName))
            }
        }
        try walk(root, 0)
        return shape
    }

    /// Infers the node shift: 8 (SDK builds) unless the tree has compact inner nodes and every
    /// node is small enough to have been written by a node-size-4 build (then 2). The key-range
    /// checks of every traversal verify the choice.
    static func inferShift(_ bytes: CoreBytes, root: Int, tableName: String) throws -> Int {
        let s = try shape(bytes, root: root, tableName: tableName)
        if s.hasCompact, s.maxFanout <= 4, s.maxLeafSize <= 4 { return 2 }
        return 8
    }

    /// Visits the leaves in key order. `visit` returns false to stop. `skip` objects are skipped
    /// using the sub-tree sizes (leaves before them are not decoded).
    func forEachLeaf(skipping skip: Int = 0, _ visit: (CoreClusterLeaf, Int) throws -> Bool) throws {
        var visited = Set<Int>()
        var remainingSkip = skip
        _ = try walk(
            rootRef, depth: 0, offset: 0, low: Int64.min, high: Int64.max, visited: &visited,
            skip: &remainingSkip, visit)
    }

    private func walk(
        _ ref: Int, depth: Int, offset: Int64, low: Int64, high: Int64, visited: inout Set<Int>,
        skip: inout Int, _ visit: (CoreClusterLeaf, Int) throws -> Bool
    ) throws -> Bool {
        guard depth < Self.maxDepth else {
            throw bytes.corrupt(ref, "\(tableName): cluster tree deeper than \(Self.maxDepth)")
        }
        guard visited.insert(ref).inserted else {
            throw bytes.corrupt(ref, "\(tableName): cluster node reached twice (cycle)")
        }
        let n = try bytes.node(ref, "\(tableName) cluster node")
        if !n.isInner {
            let leaf = try makeLeaf(n, offset: offset, low: low, high: high)
            if skip >= leaf.count {
                skip -= leaf.count
                return true
            }
            let start = skip
            skip = 0
            return try visit(leaf, start)
        }
        guard n.hasRefs, n.count >= 3 else { throw bytes.corrupt(ref, "\(tableName): malformed inner cluster node") }
        guard let depthTag = try bytes.tagged(n, 1, "\(tableName) inner depth"), depthTag >= 1, depthTag < 32 else {
            throw bytes.corrupt(ref, "\(tableName): inner cluster node with a bad depth")
        }
        let children = n.count - 3
        var keys: CoreNode?
        if let keysRef = try bytes.ref(n, 0, "\(tableName) inner keys") {
            let k = try bytes.node(keysRef, "\(tableName) inner cluster keys")
            guard k.widthType == .bits, k.count == children else {
                throw bytes.corrupt(
                    keysRef, "\(tableName): inner cluster key array has \(k.count) keys for \(children) children")
            }
            keys = k
        }
        let childShift = Int(depthTag) * shift
        guard childShift < 63 else {
            throw bytes.corrupt(ref, "\(tableName): inner cluster depth \(depthTag) too large")
        }
        for c in 0..<children {
            let rel: Int64
            let next: Int64?
            if let keys {
                rel = Int64(bitPattern: keys.unsigned(c))
                next = c + 1 < children ? Int64(bitPattern: keys.unsigned(c + 1)) : nil
            } else {
                rel = Int64(c) << childShift
                next = Int64(c + 1) << childShift
            }
            guard rel >= 0 else { throw bytes.corrupt(ref, "\(tableName): negative inner cluster key") }
            let (childOffset, o1) = offset.addingReportingOverflow(rel)
            guard !o1 else { throw bytes.corrupt(ref, "\(tableName): cluster key offset overflows") }
            var childHigh = high
            if let next {
                let (h, o2) = offset.addingReportingOverflow(next)
                guard !o2, h > childOffset else {
                    throw bytes.corrupt(ref, "\(tableName): inner cluster keys not increasing (wrong node shift?)")
                }
                childHigh = min(high, h)
            }
            guard let childRef = try bytes.ref(n, c + 3, "\(tableName) cluster child") else {
                throw bytes.corrupt(ref, "\(tableName): null child in an inner cluster node")
            }
            if skip > 0 {
                // Skip a whole child by its size without visiting its leaves.
                let child = try bytes.node(childRef, "\(tableName) cluster node")
                let size = try Self.size(of: child, bytes, tableName)
                if skip >= size {
                    skip -= size
                    continue
                }
            }
            if try !walk(
                childRef, depth: depth + 1, offset: childOffset, low: max(low, childOffset), high: childHigh,
                visited: &visited, skip: &skip, visit)
            {
                return false
            }
        }
        return true
    }

    private func makeLeaf(_ n: CoreNode, offset: Int64, low: Int64, high: Int64) throws -> CoreClusterLeaf {
        guard n.hasRefs, n.count >= 1 else { throw bytes.corrupt(n.ref, "\(tableName): malformed cluster leaf") }
        let leaf: CoreClusterLeaf
        switch try bytes.refOrTagged(n, 0, "\(tableName) cluster leaf keys") {
        case .tagged(let v):
            guard v >= 0, v <= 1 << 24 else { throw bytes.corrupt(n.ref, "\(tableName): bad cluster size \(v)") }
            leaf = CoreClusterLeaf(node: n, count: Int(v), keys: nil, keyOffset: offset)
        case .ref(let r):
            let k = try bytes.node(r, "\(tableName) cluster keys")
            guard k.widthType == .bits else { throw bytes.corrupt(r, "\(tableName): cluster keys are not integers") }
            leaf = CoreClusterLeaf(node: n, count: k.count, keys: k, keyOffset: offset)
        case .null:
            throw bytes.corrupt(n.ref, "\(tableName): cluster leaf without keys or size")
        }
        // Keys strictly increasing and inside the range the parents give: a wrong node shift or
        // a damaged key array shows here instead of as wrong keys.
        var previous = Int64.min
        for i in 0..<leaf.count {
            let (k, o) = (leaf.keys.map { Int64(bitPattern: $0.unsigned(i)) } ?? Int64(i)).addingReportingOverflow(
                offset)
            guard !o, k >= low, k < high, i == 0 || k > previous else {
                throw bytes.corrupt(
                    n.ref,
                    "\(tableName): cluster key out of order or outside its node's range (wrong node shift or damaged keys)"
                )
            }
            previous = k
        }
        return leaf
    }

    /// The leaf and index of the object with `key`, or nil when there is none.
    func find(key: Int64) throws -> (CoreClusterLeaf, Int)? {
        var path: [(ref: Int, slot: Int)] = []
        return try find(key: key, path: &path)
    }

    /// As `find(key:)`, also giving the inner nodes above the leaf, root first, each with the
    /// slot of the child taken (what a copy-on-write commit rewrites).
    func find(key: Int64, path: inout [(ref: Int, slot: Int)]) throws -> (CoreClusterLeaf, Int)? {
        path = []
        var found: (CoreClusterLeaf, Int)?
        // Descends by the inner nodes' key ranges; one path only.
        var ref = rootRef
        var offset: Int64 = 0
        var depth = 0
        while true {
            guard depth < Self.maxDepth else {
                throw bytes.corrupt(ref, "\(tableName): cluster tree deeper than \(Self.maxDepth)")
            }
            depth += 1
            let n = try bytes.node(ref, "\(tableName) cluster node")
            if !n.isInner {
                let leaf = try makeLeaf(n, offset: offset, low: Int64.min, high: Int64.max)
                var lo = 0
                var hi = leaf.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if leaf.key(mid) < key { lo = mid + 1 } else { hi = mid }
                }
                if lo < leaf.count, leaf.key(lo) == key { found = (leaf, lo) }
                return found
            }
            guard n.hasRefs, n.count >= 4, let depthTag = try bytes.tagged(n, 1, "\(tableName) inner depth"),
                depthTag >= 1, depthTag < 32
            else {
                throw bytes.corrupt(ref, "\(tableName): malformed inner cluster node")
            }
            let children = n.count - 3
            let rel = key &- offset
            var child: Int
            var childOffset: Int64
            if let keysRef = try bytes.ref(n, 0, "\(tableName) inner keys") {
                let k = try bytes.node(keysRef, "\(tableName) inner cluster keys")
                guard k.count == children else {
                    throw bytes.corrupt(keysRef, "\(tableName): inner key count mismatch")
                }
                var lo = 0
                var hi = children
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if Int64(bitPattern: k.unsigned(mid)) <= rel { lo = mid + 1 } else { hi = mid }
                }
                if lo == 0 { return nil }
                child = lo - 1
                childOffset = Int64(bitPattern: k.unsigned(child))
            } else {
                let s = Int(depthTag) * shift
                guard s < 63 else { throw bytes.corrupt(ref, "\(tableName): inner cluster depth too large") }
                if rel < 0 { return nil }
                child = min(Int(rel >> Int64(s)), children - 1)
                childOffset = Int64(child) << s
            }
            offset = offset &+ childOffset
            path.append((ref, child + 3))
            guard let next = try bytes.ref(n, child + 3, "\(tableName) cluster child") else {
                throw bytes.corrupt(ref, "\(tableName): null child in an inner cluster node")
            }
            ref = next
        }
    }
}
