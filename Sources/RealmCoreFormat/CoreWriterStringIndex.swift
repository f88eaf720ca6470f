import Foundation
import RealmEngine

/// Realm Core's search index (`StringIndex`, `src/realm/index_string.*`), built the way Realm
/// Core builds it when it indexes an existing column (`Table::add_search_index`: every object
/// inserted in key order, `StringIndex::insert`), so the nodes written are the ones Realm Core
/// would hold. Realm Core never rebuilds an index when it opens a file: an index that differs
/// from the column makes queries and primary-key lookups answer wrongly.
///
/// The layout: each value becomes its index data (a string's UTF-8 bytes; an int, a bool (0/1)
/// as 8 little-endian bytes; a timestamp as 8 bytes of seconds and 4 of nanoseconds; an
/// ObjectId's 12 and a UUID's 16 bytes; nil as no data). A node holds a key array (32-bit,
/// sorted, signed) and per key an entry: the object key tagged (`key << 1 | 1`), a ref to a
/// sorted list of object keys (duplicates), or a ref to a sub-index (a node with the context
/// flag) for the next 4 bytes. A key is 4 bytes of the data at the node's offset, big-endian,
/// with an 'X' after the last byte of the data ("ab" is "abX\0"; nil is 0). A leaf holds up to
/// `REALM_MAX_BPNODE_SIZE` (1000) keys; more split it into B-tree inner nodes whose keys are
/// each child's last key.
struct CoreStringIndexBuilder {
    /// `REALM_MAX_BPNODE_SIZE` in the SDKs' builds: keys per index node, keys per row-list leaf.
    static let nodeSize = 1000
    /// `StringIndex::s_max_offset`: below this depth, values that share a prefix this long are
    /// kept in one list (sorted by value, then key) instead of deeper sub-indexes.
    static let maxOffset = 200

    /// A list of object keys (a class, so it grows in place).
    final class Rows {
        var keys: [Int64]
        init(_ keys: [Int64]) { self.keys = keys }
    }

    enum Entry {
        case object(Int64)
        case rows(Rows)
        case subIndex(Node)
    }

    /// One index node: a leaf of keys with their entries, or an inner B-tree node of children,
    /// its key per child that child's last key.
    final class Node {
        let isInner: Bool
        var keys: [Int32] = []
        /// A leaf's entries, one per key.
        var entries: [Entry] = []
        /// An inner node's children, one per key.
        var children: [Node] = []
        init(isInner: Bool) { self.isInner = isInner }
        var lastKey: Int32 { keys.last ?? 0 }
    }

    /// How a node changed below its parent (`StringIndex::NodeChange`).
    private enum Change {
        case none
        case insertBefore(Node)
        case insertAfter(Node)
        case split(Node, Node)
    }

    /// Index data per object key inserted; a key that is absent holds null.
    private var data: [Int64: [UInt8]] = [:]
    private(set) var root = Node(isInner: false)

    /// The index data of a value of an indexable column, nil for null.
    static func indexData(_ value: CoreValue, what: @autoclosure () -> String) throws -> [UInt8]? {
        func littleEndian(_ v: Int64, bytes: Int) -> [UInt8] {
            (0..<bytes).map { UInt8(truncatingIfNeeded: v >> (8 * Int64($0))) }
        }
        switch value {
        case .null: return nil
        case .int(let i): return littleEndian(i, bytes: 8)
        case .bool(let b): return littleEndian(b ? 1 : 0, bytes: 8)
        case .string(let s): return Array(s.utf8)
        case .timestamp(let s, let ns): return littleEndian(s, bytes: 8) + littleEndian(Int64(ns), bytes: 4)
        case .objectId(let d), .uuid(let d): return [UInt8](d)
        default: throw RealmError.invalidInput("\(what()): a search index cannot hold \(value.typeName)")
        }
    }

    /// The 4-byte key of `data` at `offset` (`StringIndex::create_key(StringData, size_t)`).
    static func key(_ data: [UInt8]?, offset: Int) -> Int32 {
        guard let data, offset <= data.count else { return 0 }
        let tail = data.count - offset
        var u: UInt32 = 0
        for i in 0..<4 {
            let byte: UInt8 = i < tail ? data[offset + i] : i == tail ? 0x58 : 0
            u |= UInt32(byte) << UInt32(24 - 8 * i)
        }
        return Int32(bitPattern: u)
    }

    /// Realm Core's order of two values' data (strings: null first, then bytes unsigned).
    private static func less(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool {
        switch (a, b) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case let (x?, y?): return x.lexicographicallyPrecedes(y)
        }
    }

    /// Inserts one object. Objects must come in ascending key order, as Realm Core inserts them
    /// when it indexes a column.
    mutating func insert(key: Int64, data value: [UInt8]?) {
        data[key] = value
        root = treeInsert(root, key: key, data: value, offset: 0)
    }

    /// `StringIndex::insert_with_offset` + `TreeInsert`: returns the (possibly new) root.
    private func treeInsert(_ root: Node, key: Int64, data value: [UInt8]?, offset: Int) -> Node {
        let k = Self.key(value, offset: offset)
        let change = doInsert(root, objectKey: key, key: k, offset: offset, data: value)
        let top = Node(isInner: true)
        switch change {
        case .none: return root
        case .insertBefore(let n):
            addChild(top, n)
            addChild(top, root)
        case .insertAfter(let n):
            addChild(top, root)
            addChild(top, n)
        case .split(let a, let b):
            addChild(top, a)
            addChild(top, b)
        }
        return top
    }

    /// `StringIndex::node_add_key`.
    private func addChild(_ node: Node, _ child: Node) {
        node.keys.append(child.lastKey)
        node.children.append(child)
    }

    private func lowerBound(_ keys: [Int32], _ key: Int32) -> Int {
        var lo = 0
        var hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// `StringIndex::do_insert`.
    private func doInsert(_ node: Node, objectKey: Int64, key: Int32, offset: Int, data value: [UInt8]?) -> Change {
        let size = Self.nodeSize
        if node.isInner {
            var i = lowerBound(node.keys, key)
            if i == node.keys.count { i = node.keys.count - 1 }
            let target = node.children[i]
            let change = doInsert(target, objectKey: objectKey, key: key, offset: offset, data: value)
            if case .none = change {
                node.keys[i] = target.lastKey
                return .none
            }
            if case .insertAfter = change { i += 1 }
            if node.keys.count < size {
                switch change {
                case .split(_, let second):
                    // `node_insert_split`
                    node.keys[i] = target.lastKey
                    node.keys.insert(second.lastKey, at: i + 1)
                    node.children.insert(second, at: i + 1)
                case .insertBefore(let n), .insertAfter(let n):
                    // `node_insert`
                    node.keys.insert(n.lastKey, at: i)
                    node.children.insert(n, at: i)
                case .none: break
                }
                return .none
            }
            let sibling = Node(isInner: true)
            var isSplit = false
            switch change {
            case .split(_, let second):
                node.keys[i] = target.lastKey
                addChild(sibling, second)
                i += 1
                isSplit = true
            case .insertBefore(let n), .insertAfter(let n):
                addChild(sibling, n)
            case .none: break
            }
            if i == 0 { return .insertBefore(sibling) }
            if i == size { return isSplit ? .split(node, sibling) : .insertAfter(sibling) }
            for c in node.children[i...] { addChild(sibling, c) }
            node.keys.removeSubrange(i...)
            node.children.removeSubrange(i...)
            return .split(node, sibling)
        }
        let noExtend = node.keys.count >= size
        if leafInsert(node, objectKey: objectKey, key: key, offset: offset, data: value, noExtend: noExtend) {
            return .none
        }
        let list = Node(isInner: false)
        _ = leafInsert(list, objectKey: objectKey, key: key, offset: offset, data: value, noExtend: false)
        let i = lowerBound(node.keys, key)
        if i == 0 { return .insertBefore(list) }
        if i == node.keys.count { return .insertAfter(list) }
        list.keys += node.keys[i...]
        list.entries += node.entries[i...]
        node.keys.removeSubrange(i...)
        node.entries.removeSubrange(i...)
        return .split(node, list)
    }

    /// `StringIndex::leaf_insert` (for a column that is not a list: Realm Core's `full_word`
    /// is false, so the values are looked up in the column rather than rebuilt from keys).
    private func leafInsert(
        _ node: Node, objectKey: Int64, key: Int32, offset: Int, data value: [UInt8]?, noExtend: Bool
    ) -> Bool {
        let i = lowerBound(node.keys, key)
        if i == node.keys.count || node.keys[i] != key {
            if noExtend { return false }
            node.keys.insert(key, at: i)
            node.entries.insert(.object(objectKey), at: i)
            return true
        }
        let subOffset = offset + 4
        switch node.entries[i] {
        case .object(let other):
            let otherData = data[other]
            if otherData == value {
                if other != objectKey { node.entries[i] = .rows(Rows([min(other, objectKey), max(other, objectKey)])) }
            } else if subOffset > Self.maxOffset {
                // Equal data with unequal values cannot happen for one column type; only the
                // depth limit keeps unequal values together, sorted by value.
                let first = Self.less(value, otherData)
                node.entries[i] = .rows(Rows(first ? [objectKey, other] : [other, objectKey]))
            } else {
                var sub = Node(isInner: false)
                sub = treeInsert(sub, key: other, data: otherData, offset: subOffset)
                sub = treeInsert(sub, key: objectKey, data: value, offset: subOffset)
                node.entries[i] = .subIndex(sub)
            }
        case .rows(let rows):
            let firstData = data[rows.keys[0]]
            let onlyDuplicates = firstData == (data[rows.keys[rows.keys.count - 1]])
            if onlyDuplicates && firstData == value {
                insertSorted(objectKey, value, into: rows, onlyDuplicates: true)
            } else if !onlyDuplicates || subOffset > Self.maxOffset {
                // A list past the depth limit: sorted by value, then key.
                insertSorted(objectKey, value, into: rows, onlyDuplicates: false)
            } else {
                // `insert_row_list` into a new sub-index, then the new object beside it.
                var sub = Node(isInner: false)
                sub.keys = [Self.key(firstData, offset: subOffset)]
                sub.entries = [.rows(rows)]
                sub = treeInsert(sub, key: objectKey, data: value, offset: subOffset)
                node.entries[i] = .subIndex(sub)
            }
        case .subIndex(let sub):
            node.entries[i] = .subIndex(treeInsert(sub, key: objectKey, data: value, offset: subOffset))
        }
        return true
    }

    /// Puts `key` in a sorted list at its place by (value, key).
    private func insertSorted(_ key: Int64, _ value: [UInt8]?, into rows: Rows, onlyDuplicates: Bool) {
        if onlyDuplicates, let last = rows.keys.last, key > last {
            rows.keys.append(key)
            return
        }
        var lo = 0
        var hi = rows.keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let other = rows.keys[mid]
            let otherData = data[other]
            let before = Self.less(otherData, value) || (otherData == value && other < key)
            if before { lo = mid + 1 } else { hi = mid }
        }
        if lo < rows.keys.count, rows.keys[lo] == key { return }
        rows.keys.insert(key, at: lo)
    }

    // MARK: Writing

    /// Writes the index (children before parents) and returns its root's ref.
    func write(_ w: inout CoreNodeWriter, what: String) throws -> Int {
        try write(root, &w, what: what)
    }

    private func write(_ node: Node, _ w: inout CoreNodeWriter, what: String) throws -> Int {
        var slots: [CoreSlot] = []
        slots.reserveCapacity(node.keys.count + 1)
        // The key array is created at 32 bits (`ensure_minimum_width(0x7FFFFFFF)`) and stays so.
        slots.append(.ref(try w.ints(node.keys.map { Int64($0) }, width: 32, what: "\(what) search index keys")))
        for entry in node.entries {
            switch entry {
            case .object(let k): slots.append(.tagged(k))
            case .rows(let rows): slots.append(.ref(try writeRows(rows.keys, &w, what: what)))
            case .subIndex(let n): slots.append(.ref(try write(n, &w, what: what)))
            }
        }
        for child in node.children { slots.append(.ref(try write(child, &w, what: what))) }
        return try w.slots(slots, inner: node.isInner, context: true, what: "\(what) search index node")
    }

    /// A list of object keys (`IntegerColumn`, a B+tree): one leaf up to 1000 keys; above, the
    /// compact inner node appending leaves to (elements per child, leaves of 1000, total size).
    private func writeRows(_ keys: [Int64], _ w: inout CoreNodeWriter, what: String) throws -> Int {
        let size = Self.nodeSize
        if keys.count <= size { return try w.ints(keys, what: "\(what) search index list") }
        guard keys.count <= size * size else {
            throw RealmError.unsupportedFeature(
                "\(what): \(keys.count) objects share one indexed value (over \(size * size) needs deeper B+trees in the search index, which are not written yet)"
            )
        }
        var slots: [CoreSlot] = [.tagged(Int64(size))]
        for start in stride(from: 0, to: keys.count, by: size) {
            slots.append(
                .ref(try w.ints(Array(keys[start..<min(start + size, keys.count)]), what: "\(what) search index list")))
        }
        slots.append(.tagged(Int64(keys.count)))
        return try w.slots(slots, inner: true, what: "\(what) search index list node")
    }
}
