import Foundation
import RealmEngine

/// One object read from a Realm Core table.
public struct RealmCoreObject: Sendable, Equatable {
    /// Realm Core's object key (`ObjKey`).
    public let key: Int64
    /// One value per public column, in `RealmCoreTable.columns` order.
    public let values: [CoreValue]
    /// Per backlink column (`RealmCoreTable.backlinkColumns` order), the origin objects' keys.
    public let backlinks: [[Int64]]
}

/// A table of a Realm Core file: its schema (read when the file is opened) and lazy access to
/// its objects, leaf by leaf.
public final class RealmCoreTable: @unchecked Sendable {
    /// Top-level, embedded or asymmetric (table top slot 12).
    public enum Kind: String, Sendable {
        case topLevel = "top_level"
        case embedded, asymmetric
    }

    public let name: String
    /// Realm Core's table key.
    public let key: Int64
    public let kind: Kind
    /// Public columns in spec order.
    public private(set) var columns: [CoreColumn]
    /// Backlink columns in spec order (origin table key in `linkTargetKey`, origin column key in `originColumnKey`).
    public private(set) var backlinkColumns: [CoreColumn]
    /// The primary-key column's name (table top slot 11).
    public let primaryKey: String?
    /// The number of objects, read from the cluster tree's root (O(1)).
    public let objectCount: Int
    /// The class name an SDK shows (`Dog` for `class_Dog`), nil for internal tables.
    public var className: String? { name.hasPrefix("class_") ? String(name.dropFirst(6)) : nil }

    let bytes: CoreBytes
    let format: Int
    let clusterRoot: Int?
    private let statedShift: Int?
    private let lock = NSLock()
    private var inferredShift: Int?

    init(bytes b: CoreBytes, ref: Int, name: String, format: Int, nodeShift: Int?) throws {
        bytes = b
        self.name = name
        self.format = format
        statedShift = nodeShift
        let top = try b.node(ref, "\(name) table top")
        guard top.hasRefs, top.count >= 4 else { throw b.corrupt(ref, "\(name): malformed table top") }
        key = try b.tagged(top, 3, "\(name) table key") ?? 0
        let spec = try CoreSpec.read(b, tableTop: top, tableName: name)
        columns = spec.columns
        backlinkColumns = spec.backlinks
        let flags = try b.tagged(top, 12, "\(name) flags") ?? 0
        kind =
            switch flags & 3 {
            case 1: .embedded
            case 2: .asymmetric
            default: .topLevel
            }
        if let pk = try b.tagged(top, 11, "\(name) primary key") {
            guard let column = spec.columns.first(where: { $0.key == pk }) else {
                throw b.corrupt(ref, "\(name): primary key column \(pk) is not a column of the table")
            }
            primaryKey = column.name
        } else {
            primaryKey = nil
        }
        clusterRoot = try b.ref(top, 2, "\(name) cluster tree")
        objectCount = try clusterRoot.map { try CoreClusterTree.count(b, root: $0, tableName: name) } ?? 0
    }

    func resolveTargets(_ names: [Int64: String]) throws {
        columns = try columns.map { c in
            guard c.type == .link || c.type == .linkList else { return c }
            guard let t = c.linkTargetKey, let target = names[t] else {
                throw bytes.corrupt(
                    0, "\(name).\(c.name): link target table \(c.linkTargetKey.map(String.init) ?? "?") does not exist")
            }
            return CoreColumn(
                name: c.name, type: c.type, nullable: c.nullable, collection: c.collection, index: c.index,
                key: c.key, linkTargetKey: t, linkTarget: target, originColumnKey: nil,
                specIndex: c.specIndex, enumKeysRef: c.enumKeysRef, isBacklink: false)
        }
    }

    /// The node shift used for this table's compact inner cluster nodes: the one the file was
    /// opened with, or inferred from the tree's shape (2 when every node is small enough for a
    /// node-size-4 build and the tree has compact nodes, else 8). Every read checks each
    /// leaf's keys against the ranges the shift gives, so a shift that contradicts the tree is
    /// an error, not wrong keys.
    public func resolvedNodeShift() throws -> Int { try shift() }

    func shift() throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let inferredShift { return inferredShift }
        let inferred = try clusterRoot.map { try CoreClusterTree.inferShift(bytes, root: $0, tableName: name) } ?? 8
        // A stated shift larger than 2 on a tree only a node-size-4 build writes would read
        // keys that pass every range check and are still wrong (0, 1, 2, 3, 256, …): refused.
        // (A stated 2 on an SDK tree fails the range checks while reading.)
        if let statedShift, inferred == 2, statedShift != 2 {
            throw RealmError.invalidInput(
                "\(bytes.name): \(name)'s cluster tree was written with node shift 2 (a node-size-4 Realm Core build), not the stated \(statedShift)"
            )
        }
        let s = statedShift ?? inferred
        inferredShift = s
        return s
    }

    func tree() throws -> CoreClusterTree? {
        guard let clusterRoot else { return nil }
        return CoreClusterTree(bytes: bytes, rootRef: clusterRoot, shift: try shift(), tableName: name)
    }

    /// Up to `limit` objects from position `from` (0-based, in key order).
    public func objects(from: Int, limit: Int) throws -> [RealmCoreObject] {
        guard from >= 0, limit > 0, let tree = try tree() else { return [] }
        var out: [RealmCoreObject] = []
        try tree.forEachLeaf(skipping: from) { leaf, start in
            let decoded = try decode(leaf)
            for i in start..<leaf.count {
                out.append(decoded.object(i))
                if out.count == limit { return false }
            }
            return true
        }
        return out
    }

    /// Calls `body` with every object in key order; `body` returns false to stop.
    public func forEachObject(_ body: (RealmCoreObject) throws -> Bool) throws {
        guard let tree = try tree() else { return }
        var seen = 0
        try tree.forEachLeaf { leaf, start in
            let decoded = try decode(leaf)
            for i in start..<leaf.count {
                seen += 1
                if try !body(decoded.object(i)) { return false }
            }
            return true
        }
        guard seen == objectCount else {
            throw bytes.corrupt(
                clusterRoot ?? 0, "\(name): the cluster tree holds \(seen) objects but its root says \(objectCount)")
        }
    }

    /// Calls `body` with the objects of each cluster leaf in order, column by column: their keys
    /// and, per column (`columns` order), their values; `body` returns false to stop. What
    /// `forEachObject` reads, without an array of values per object.
    func forEachLeaf(_ body: (_ keys: [Int64], _ columns: [[CoreValue]]) throws -> Bool) throws {
        guard let tree = try tree() else { return }
        var seen = 0
        try tree.forEachLeaf { leaf, start in
            let decoded = try decode(leaf)
            let keys = (start..<leaf.count).map { leaf.key($0) }
            seen += keys.count
            return try body(keys, start == 0 ? decoded.columns : decoded.columns.map { Array($0[start...]) })
        }
        guard seen == objectCount else {
            throw bytes.corrupt(
                clusterRoot ?? 0, "\(name): the cluster tree holds \(seen) objects but its root says \(objectCount)")
        }
    }

    /// Calls `body` with every object's key in order, without decoding any column.
    func forEachKey(_ body: (Int64) throws -> Void) throws {
        guard let tree = try tree() else { return }
        var seen = 0
        try tree.forEachLeaf { leaf, start in
            for i in start..<leaf.count {
                seen += 1
                try body(leaf.key(i))
            }
            return true
        }
        guard seen == objectCount else {
            throw bytes.corrupt(
                clusterRoot ?? 0, "\(name): the cluster tree holds \(seen) objects but its root says \(objectCount)")
        }
    }

    /// The object with key `key`, or nil.
    public func object(key: Int64) throws -> RealmCoreObject? {
        guard let tree = try tree(), let (leaf, i) = try tree.find(key: key) else { return nil }
        return try decode(leaf).object(i)
    }

    /// The columns of one cluster leaf, decoded.
    private struct DecodedLeaf {
        let leaf: CoreClusterLeaf
        let columns: [[CoreValue]]
        let backlinks: [[[Int64]]]
        func object(_ i: Int) -> RealmCoreObject {
            RealmCoreObject(key: leaf.key(i), values: columns.map { $0[i] }, backlinks: backlinks.map { $0[i] })
        }
    }

    private func decode(_ leaf: CoreClusterLeaf) throws -> DecodedLeaf {
        var cols: [[CoreValue]] = []
        cols.reserveCapacity(columns.count)
        for position in columns.indices { cols.append(try values(ofColumn: position, in: leaf)) }
        var backs: [[[Int64]]] = []
        for position in backlinkColumns.indices { backs.append(try backlinks(ofColumn: position, in: leaf)) }
        return DecodedLeaf(leaf: leaf, columns: cols, backlinks: backs)
    }

    /// The values of public column `position` (in `columns`) for every object of one leaf.
    func values(ofColumn position: Int, in leaf: CoreClusterLeaf) throws -> [CoreValue] {
        let c = columns[position]
        let context = "\(name).\(c.name)"
        let decoder = CoreLeafDecoder(bytes: bytes, context: context, format: format)
        guard c.leafSlot < leaf.node.count, let ref = try bytes.ref(leaf.node, c.leafSlot, context) else {
            throw bytes.corrupt(leaf.node.ref, "\(context): cluster leaf has no column \(c.leafSlot - 1)")
        }
        let values = try column(c, ref: ref, decoder)
        guard values.count == leaf.count else {
            throw bytes.corrupt(ref, "\(context): column leaf holds \(values.count) values for \(leaf.count) objects")
        }
        return values
    }

    /// The origin keys of backlink column `position` (in `backlinkColumns`) for every object of
    /// one leaf.
    func backlinks(ofColumn position: Int, in leaf: CoreClusterLeaf) throws -> [[Int64]] {
        let c = backlinkColumns[position]
        let context = "\(name) backlinks"
        let decoder = CoreLeafDecoder(bytes: bytes, context: context, format: format)
        guard c.leafSlot < leaf.node.count, let ref = try bytes.ref(leaf.node, c.leafSlot, context) else {
            throw bytes.corrupt(leaf.node.ref, "\(context): cluster leaf has no backlink column \(c.leafSlot - 1)")
        }
        let n = try bytes.node(ref, context)
        guard n.count == leaf.count, n.widthType == .bits else {
            throw bytes.corrupt(ref, "\(context): backlink leaf holds \(n.count) entries for \(leaf.count) objects")
        }
        return try (0..<n.count).map { try decoder.backlinks(n.int($0)) }
    }

    private func element(_ c: CoreColumn, _ decoder: CoreLeafDecoder) throws -> CoreElementType {
        var enumKeys: [Data?]?
        if let r = c.enumKeysRef { enumKeys = try decoder.stringBytes(r, nullable: c.nullable) }
        return CoreElementType(
            type: c.type, nullable: c.nullable, targetTableKey: c.linkTargetKey ?? -1, enumKeys: enumKeys)
    }

    func column(_ c: CoreColumn, ref: Int, _ decoder: CoreLeafDecoder) throws -> [CoreValue] {
        let element = try element(c, decoder)
        guard let kind = c.collection else { return try decoder.values(ref, element) }
        let refs = try bytes.node(ref, "\(decoder.context) collections")
        guard refs.widthType == .bits else {
            throw bytes.corrupt(ref, "\(decoder.context): collection leaf is not an array of refs")
        }
        return try (0..<refs.count).map { i in
            let r = try bytes.ref(refs, i, "\(decoder.context) collection")
            switch kind {
            case .list: return .list(try decoder.collection(r, element))
            case .set: return .set(try decoder.collection(r, element))
            case .dictionary:
                return .dictionary(try r.map { try decoder.dictionary($0, values: element, depth: 1) } ?? [])
            }
        }
    }
}
