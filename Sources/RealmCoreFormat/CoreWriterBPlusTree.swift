import Foundation
import RealmEngine

/// B+trees of collections (lists, sets, backlink lists), shaped as Realm Core's `BPlusTree`
/// shapes a tree it grows by appending: leaves of 1000 elements (`REALM_MAX_BPNODE_SIZE` in SDK
/// builds) and inner nodes of up to 1000 children. Every child but the last is full, so each
/// inner node is in compact form: slot 0 holds the tagged elements per child instead of an
/// offsets array, then the child refs, then the tagged total size.
extension CoreNodeWriter {
    /// Realm Core's `REALM_MAX_BPNODE_SIZE` in the SDKs' builds.
    static let bPlusNodeSize = 1000

    /// Writes a tree of `count` elements (at least one), calling `leaf` for each leaf's range of
    /// elements in order, and returns the root's ref (a leaf's when `count` ≤ 1000).
    mutating func bPlusTree(
        count: Int, what: @autoclosure () -> String,
        leaf: (inout CoreNodeWriter, Range<Int>) throws -> Int
    ) throws -> Int {
        let n = Self.bPlusNodeSize
        // Elements under one child of a node one level up, per level.
        var perChild = n
        var depth = 0
        while perChild < count {
            perChild *= n
            depth += 1
        }
        return try bPlusNode(0..<count, depth: depth, what: what(), leaf: leaf)
    }

    /// A node of `depth` levels above the leaves holding the elements of `range`.
    private mutating func bPlusNode(
        _ range: Range<Int>, depth: Int, what: @autoclosure () -> String,
        leaf: (inout CoreNodeWriter, Range<Int>) throws -> Int
    ) throws -> Int {
        if depth == 0 { return try leaf(&self, range) }
        var elemsPerChild = Self.bPlusNodeSize
        for _ in 1..<depth { elemsPerChild *= Self.bPlusNodeSize }
        var refs: [CoreSlot] = [.tagged(Int64(elemsPerChild))]
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + elemsPerChild, range.upperBound)
            refs.append(.ref(try bPlusNode(start..<end, depth: depth - 1, what: what(), leaf: leaf)))
            start = end
        }
        refs.append(.tagged(Int64(range.count)))
        return try slots(refs, inner: true, what: "\(what()) inner B+tree node")
    }
}
