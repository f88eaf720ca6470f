import Foundation
import RealmEngine

/// One class of a Realm Core file read in place (`RealmCoreVersion`): keys by position through
/// the cluster tree's sizes, objects by key through its key ranges, and the last few leaves
/// kept with the columns decoded so far, so that reads in key order decode each leaf column
/// once.
final class CoreClassReader: @unchecked Sendable {
    let table: RealmCoreTable
    let name: String
    /// Per persisted property of the class, in order: the table's column position and the property.
    let columns: [(position: Int, property: Property)]
    /// The class of each table a typed link may name (Mixed).
    let tableClasses: [Int64: String]

    /// How many decoded leaves are kept.
    static let keptLeaves = 8

    private let lock = NSLock()
    /// The leaves read last, most recent first.
    private var recent: [DecodedLeaf] = []
    /// The objects by primary key, read on the first lookup.
    private var primaryKeys: [Value: ObjectKey]?

    init(
        table: RealmCoreTable, name: String, columns: [(position: Int, property: Property)],
        tableClasses: [Int64: String]
    ) {
        self.table = table
        self.name = name
        self.columns = columns
        self.tableClasses = tableClasses
    }

    /// One leaf and the columns of it decoded so far.
    private final class DecodedLeaf {
        let leaf: CoreClusterLeaf
        let first: Int64
        let last: Int64
        var columns: [Int: [CoreValue]] = [:]
        var backlinks: [Int: [[Int64]]] = [:]

        init(_ leaf: CoreClusterLeaf) {
            self.leaf = leaf
            first = leaf.key(0)
            last = leaf.key(leaf.count - 1)
        }

        /// The row of `key`, by binary search of the leaf's increasing keys.
        func row(of key: Int64) -> Int? {
            var low = 0
            var high = leaf.count
            while low < high {
                let middle = (low + high) / 2
                if leaf.key(middle) < key { low = middle + 1 } else { high = middle }
            }
            return low < leaf.count && leaf.key(low) == key ? low : nil
        }
    }

    /// The error for a tree that holds fewer objects than its root says.
    func shortTree() -> RealmError {
        table.bytes.corrupt(
            table.clusterRoot ?? 0, "\(table.name): the cluster tree holds fewer objects than its root says")
    }

    /// Every key in order (one walk of the tree, no column decoded).
    func allKeys() throws -> [ObjectKey] {
        var out: [ObjectKey] = []
        out.reserveCapacity(table.objectCount)
        try table.forEachKey { out.append(ObjectKey($0)) }
        return out
    }

    /// Up to `limit` keys from position `from`, skipping whole sub-trees by their sizes.
    func keys(from: Int, limit: Int) throws -> [ObjectKey] {
        guard limit > 0, let tree = try table.tree() else { return [] }
        var out: [ObjectKey] = []
        out.reserveCapacity(limit)
        try tree.forEachLeaf(skipping: from) { leaf, start in
            for i in start..<leaf.count {
                out.append(ObjectKey(leaf.key(i)))
                if out.count == limit { return false }
            }
            return true
        }
        return out
    }

    /// The leaf holding `key` and its row, from the kept leaves or by one descent. Called with
    /// the lock held.
    private func locate(_ key: Int64) throws -> (DecodedLeaf, Int)? {
        for (i, kept) in recent.enumerated() where kept.first <= key && key <= kept.last {
            if i > 0 {
                recent.remove(at: i)
                recent.insert(kept, at: 0)
            }
            return kept.row(of: key).map { (kept, $0) }
        }
        guard let tree = try table.tree(), let (leaf, row) = try tree.find(key: key) else { return nil }
        let decoded = DecodedLeaf(leaf)
        recent.insert(decoded, at: 0)
        if recent.count > Self.keptLeaves { recent.removeLast() }
        return (decoded, row)
    }

    func contains(_ key: Int64) throws -> Bool {
        try lock.withLock { try locate(key) != nil }
    }

    /// The values of persisted columns `range` of the object `key`, as the conversion writes
    /// them, or nil when there is no such object.
    func values(_ key: Int64, columns range: Range<Int>) throws -> [Value]? {
        try lock.withLock {
            guard let (leaf, row) = try locate(key) else { return nil }
            return try range.map { column in
                let (position, property) = columns[column]
                let stored: [CoreValue]
                if let decoded = leaf.columns[position] {
                    stored = decoded
                } else {
                    stored = try table.values(ofColumn: position, in: leaf.leaf)
                    leaf.columns[position] = stored
                }
                return try RealmCoreConversion.value(
                    stored[row], for: property, in: name, tableClasses: tableClasses)
            }
        }
    }

    /// The origin keys that backlink column `position` of the table records for object `key`,
    /// or nil when there is no such object.
    func backlinks(_ key: Int64, column position: Int) throws -> [Int64]? {
        try lock.withLock {
            guard let (leaf, row) = try locate(key) else { return nil }
            if let decoded = leaf.backlinks[position] { return decoded[row] }
            let decoded = try table.backlinks(ofColumn: position, in: leaf.leaf)
            leaf.backlinks[position] = decoded
            return decoded[row]
        }
    }

    /// The object whose primary key is `value`, or nil (also for a class without one). The first
    /// lookup reads the primary-key column of every leaf; later ones use what it read.
    func object(primaryKey value: Value) throws -> ObjectKey? {
        guard let column = columns.firstIndex(where: { $0.property.isPrimaryKey }) else { return nil }
        return try lock.withLock {
            if let primaryKeys { return primaryKeys[value] }
            let (position, property) = columns[column]
            var found: [Value: ObjectKey] = [:]
            found.reserveCapacity(table.objectCount)
            var seen = 0
            if let tree = try table.tree() {
                try tree.forEachLeaf { leaf, _ in
                    let stored = try table.values(ofColumn: position, in: leaf)
                    for row in 0..<leaf.count {
                        let key = try RealmCoreConversion.value(
                            stored[row], for: property, in: name, tableClasses: tableClasses)
                        // Keys ascend: a duplicate (a damaged file) keeps the first object.
                        if found[key] == nil { found[key] = ObjectKey(leaf.key(row)) }
                    }
                    seen += leaf.count
                    return true
                }
            }
            guard seen == table.objectCount else {
                throw table.bytes.corrupt(
                    table.clusterRoot ?? 0,
                    "\(table.name): the cluster tree holds \(seen) objects but its root says \(table.objectCount)")
            }
            primaryKeys = found
            return found[value]
        }
    }
}
