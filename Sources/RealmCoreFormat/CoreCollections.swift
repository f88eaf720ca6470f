import Foundation
import RealmEngine

/// Lists, sets and dictionaries: a B+tree per collection (inner nodes: an offsets array or a
/// tagged elements-per-child, the children, then the tagged total size), and in format 24 a
/// dictionary as a pair of B+trees (sorted keys, Mixed values).
extension CoreLeafDecoder {
    static let maxTreeDepth = 24

    /// Every element of the B+tree at `ref`, in order, each leaf decoded by `leaf`. The total
    /// the root states is checked against what the leaves hold.
    func bplusTree(_ ref: Int, _ leaf: (Int) throws -> [CoreValue]) throws -> [CoreValue] {
        var out: [CoreValue] = []
        var visited = Set<Int>()
        try bplusWalk(ref, depth: 0, visited: &visited) { out.append(contentsOf: try leaf($0)) }
        return out
    }

    /// Visits the leaf refs of a B+tree in order (checking sizes and cycles).
    func bplusWalk(_ ref: Int, depth: Int, visited: inout Set<Int>, _ visit: (Int) throws -> Void) throws {
        guard depth < Self.maxTreeDepth else {
            throw bytes.corrupt(ref, "\(context): B+tree deeper than \(Self.maxTreeDepth)")
        }
        guard visited.insert(ref).inserted else {
            throw bytes.corrupt(ref, "\(context): B+tree node reached twice (cycle)")
        }
        let n = try bytes.node(ref, "\(context) B+tree node")
        guard n.isInner else {
            try visit(ref)
            return
        }
        guard n.hasRefs, n.count >= 3 else { throw bytes.corrupt(ref, "\(context): malformed inner B+tree node") }
        for i in 1..<(n.count - 1) {
            guard let child = try bytes.ref(n, i, "\(context) B+tree child") else {
                throw bytes.corrupt(ref, "\(context): null child in an inner B+tree node")
            }
            try bplusWalk(child, depth: depth + 1, visited: &visited, visit)
        }
    }

    /// The elements of a list or set of `element` type at `ref` (nil: empty).
    func collection(_ ref: Int?, _ element: CoreElementType) throws -> [CoreValue] {
        guard let ref else { return [] }
        switch element.type {
        case .link, .linkList:
            // B+trees of keys store them bare; unresolved links are hidden, as Realm's LnkLst does.
            return try bplusTree(ref) { try links($0, adjusted: false, target: element.targetTableKey) }
                .filter { $0 != .null }
        case .mixed:
            return try bplusTree(ref) { try mixed($0, depth: 1) }
        default:
            return try bplusTree(ref) { try values($0, element) }
        }
    }

    /// A dictionary at `ref` (format 24: keys B+tree and Mixed values B+tree). `values` is the
    /// column's element type (links read from typed links), nil inside a Mixed.
    func dictionary(_ ref: Int, values element: CoreElementType?, depth: Int) throws -> [CoreDictionaryEntry] {
        guard format >= 24 else { return try legacyDictionary(ref, values: element, depth: depth) }
        let top = try bytes.node(ref, "\(context) dictionary")
        guard top.hasRefs, !top.isInner, top.count >= 2 else {
            throw bytes.corrupt(ref, "\(context): malformed dictionary")
        }
        let keysRef = try bytes.ref(top, 0, "\(context) dictionary keys")
        let valuesRef = try bytes.ref(top, 1, "\(context) dictionary values")
        let keys = try keysRef.map { try bplusTree($0) { try strings($0, nullable: false, enumKeys: nil) } } ?? []
        let vals = try valuesRef.map { try bplusTree($0) { try mixed($0, depth: depth) } } ?? []
        guard keys.count == vals.count else {
            throw bytes.corrupt(ref, "\(context): dictionary with \(keys.count) keys and \(vals.count) values")
        }
        return zip(keys, vals).map { k, v in
            let key: String = if case .string(let s) = k { s } else { "" }
            return CoreDictionaryEntry(key: key, value: adapt(v, element))
        }
    }

    /// Dictionary values are stored as Mixed; a link dictionary's values are typed links.
    func adapt(_ v: CoreValue, _ element: CoreElementType?) -> CoreValue {
        guard let element, element.type == .link || element.type == .linkList else { return v }
        switch v {
        case .typedLink(_, let key), .link(_, let key):
            return key <= -2 ? .null : .link(tableKey: element.targetTableKey, key: key)
        default: return v
        }
    }

    /// Formats 21–23: a dictionary is a cluster tree keyed by key hashes, column 0 the keys,
    /// column 1 the Mixed values; read in the tree's order.
    func legacyDictionary(_ ref: Int, values element: CoreElementType?, depth: Int) throws -> [CoreDictionaryEntry] {
        let tree = CoreClusterTree(bytes: bytes, rootRef: ref, shift: 8, tableName: context)
        var out: [CoreDictionaryEntry] = []
        try tree.forEachLeaf { leaf, _ in
            guard leaf.node.count >= 3, let k = try bytes.ref(leaf.node, 1, "\(context) dictionary keys"),
                let v = try bytes.ref(leaf.node, 2, "\(context) dictionary values")
            else {
                throw bytes.corrupt(leaf.node.ref, "\(context): malformed dictionary cluster")
            }
            let keys = try strings(k, nullable: false, enumKeys: nil)
            let vals = try mixed(v, depth: depth)
            guard keys.count == leaf.count, vals.count == leaf.count else {
                throw bytes.corrupt(leaf.node.ref, "\(context): dictionary cluster sizes disagree")
            }
            for (key, value) in zip(keys, vals) {
                let name: String = if case .string(let s) = key { s } else { "" }
                out.append(CoreDictionaryEntry(key: name, value: adapt(value, element)))
            }
            return true
        }
        return out
    }

    /// The origin keys of one object's backlinks: 0 none, a tagged key, or a B+tree of keys.
    func backlinks(_ raw: Int64) throws -> [Int64] {
        if raw == 0 { return [] }
        if raw & 1 == 1 { return [raw >> 1] }
        guard raw > 0, raw <= Int64(bytes.size) else {
            throw bytes.corrupt(0, "\(context): backlink ref \(raw) outside the file")
        }
        return try bplusTree(Int(raw)) { r in
            let n = try bytes.intArray(r, "\(context) backlink list")
            return (0..<n.count).map { .int(n.int($0)) }
        }.compactMap { if case .int(let k) = $0 { k } else { nil } }
    }
}
