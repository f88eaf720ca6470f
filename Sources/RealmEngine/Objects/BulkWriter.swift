/// Writes to many objects of one class at once — `Results.setValue(_:forKey:)` and
/// `Realm.delete(results)` — one leaf at a time: each touched leaf is loaded, changed for every
/// key it holds, and rebalanced once, instead of once per object.
///
/// Classes and columns that take part in links (backlinks to maintain, links to nullify) go
/// through the per-object paths in `ObjectWriter`, which keep those invariants.
extension WriteTransaction {
    /// Sets `column` to `value` (already coerced) on every object of `keys`.
    func setColumn(_ classIndex: Int, keys: [ObjectKey], column: Int, value: Value) throws {
        let table = layout.tables[classIndex]
        let property = table.columns[column]
        if column == table.primaryKeyColumn || property.type == .object || keys.count < 8 {
            for k in keys { try setValue(classIndex, k, column: column, value) }
            return
        }
        let sorted = Self.ascending(keys)
        let indexed = table.indexedColumns.contains(column)
        var changedKeys: [Int64] = []  // ascending: leaves are visited in key order
        var oldValues: [Value] = []  // indexed columns only: the value each changed key had
        var found = 0
        try writer.editLeaves(
            root: &state.tables[classIndex].root, keys: sorted, columns: table.columns,
            file: { view, payload, rows in
                found += rows.count
                let before = changedKeys.count
                for r in rows {
                    let old = view.value(row: r, column: column)
                    // Bitwise (`isIdentical`): -0.0 over 0.0 is a write, NaN over NaN is not.
                    guard !old.isIdentical(to: value) else { continue }
                    changedKeys.append(view.key(at: r))
                    if indexed { oldValues.append(old) }
                }
                let changed = changedKeys.count - before
                guard changed > 0 else { return nil }
                let values: [Value]
                if changed == view.count {
                    // The whole column takes the new value: nothing of the old one is needed.
                    values = Array(repeating: value, count: view.count)
                } else {
                    var current = (0..<view.count).map { view.value(row: $0, column: column) }
                    for r in rows where !current[r].isIdentical(to: value) { current[r] = value }
                    values = current
                }
                var out = [UInt8]()
                ClusterCodec.replacingColumn(
                    view, payload: payload, columns: table.columns, column: column, values: values, into: &out)
                return (out, view.count, view.count > 0 ? view.key(at: 0) : nil)
            },
            memory: { data, rows in
                found += rows.count
                for r in rows where !data.columns[column][r].isIdentical(to: value) {
                    changedKeys.append(data.keys[r])
                    if indexed { oldValues.append(data.columns[column][r]) }
                    data.columns[column][r] = value
                }
            })
        syncBytes()
        if found != sorted.count { throw RealmError.invalidatedObject }
        if indexed {
            for (k, old) in zip(changedKeys, oldValues) {
                try SearchIndex.remove(
                    &state.tables[classIndex].indexes[column, default: nil], value: old, type: property.type,
                    key: ObjectKey(k), writer: writer)
                try SearchIndex.insert(
                    &state.tables[classIndex].indexes[column, default: nil], value: value, type: property.type,
                    key: ObjectKey(k), writer: writer)
            }
        }
        changes.modify(classIndex, keys: changedKeys, column: column)
        syncBytes()
    }

    /// Deletes every object of `keys` (those already gone are skipped).
    func deleteObjects(_ classIndex: Int, keys: [ObjectKey]) throws {
        let table = layout.tables[classIndex]
        if Self.isLinked(table) || keys.count < 8 {
            for k in keys where try state.contains(classIndex: classIndex, key: k) { try deleteObject(classIndex, k) }
            return
        }
        let sorted = Self.ascending(keys)
        var removed = RemovedRows(indexed: table.indexedColumns, columns: table.columns, capacity: sorted.count)
        try writer.editLeaves(
            root: &state.tables[classIndex].root, keys: sorted, columns: table.columns,
            file: { view, payload, rows in
                removed.remove(rows, from: view, payload: payload, columns: table.columns)
            },
            memory: { c, rows in
                removed.remove(rows, from: &c)
            })
        try finishDeleting(classIndex, removed)
    }

    /// Deletes every object of the class that `test` matches, testing each leaf as it is edited:
    /// no list of keys, one view per leaf. False, having changed nothing, when this path does not
    /// apply — the class takes part in links, or this transaction has loaded the top of its tree —
    /// and the caller lists the keys for `deleteObjects(_:keys:)`.
    func deleteObjects(_ classIndex: Int, matching test: ColumnTest) throws -> Bool {
        let table = layout.tables[classIndex]
        guard !Self.isLinked(table) else { return false }
        var removed = RemovedRows(
            indexed: table.indexedColumns, columns: table.columns, capacity: state.tables[classIndex].root?.count ?? 0)
        let applied = try writer.removeRowsFromEveryLeaf(
            root: &state.tables[classIndex].root, columns: table.columns,
            select: { view in
                test.matchingRows(view)
            },
            removing: { view, rows in
                removed.note(rows, of: view)
            })
        guard applied else { return false }
        try finishDeleting(classIndex, removed)
        return true
    }

    /// Whether objects of the class have links to maintain (backlink columns, or link columns of
    /// their own): then deletes go object by object through `deleteObject`.
    private static func isLinked(_ table: TableLayout) -> Bool {
        table.columns.count > table.persistedCount || table.persisted.contains { $0.type == .object }
    }

    /// Removes the index entries of the deleted rows (one merge pass per index leaf) and records
    /// the deletions.
    private func finishDeleting(_ classIndex: Int, _ removed: RemovedRows) throws {
        // Nothing matched: nothing to record (the recorder would note the class as changed).
        guard !removed.keys.isEmpty else {
            syncBytes()
            return
        }
        var removed = removed
        for (n, column) in removed.indexed.enumerated() {
            var doomed = removed.entries[n]
            removed.entries[n] = []
            if !doomed.isSortedAscending { doomed.sort() }
            var tree = state.tables[classIndex].indexes[column] ?? nil
            try writer.removeIndexEntries(root: &tree, entries: doomed)
            state.tables[classIndex].indexes[column] = .some(tree)
        }
        changes.delete(classIndex, keys: removed.keys)
        syncBytes()
    }
}

/// What a bulk delete removed, leaf by leaf in key order: the keys, and per indexed column the
/// index entries to remove. The arrays are reserved at the class's size up front: growing them
/// would copy them again at every doubling (megabytes, for a million objects), while reserved
/// pages that are never written cost no memory.
private struct RemovedRows {
    let indexed: [Int]
    /// The type of each indexed column (a Mixed column keys numbers by value).
    let indexedTypes: [PropertyType]
    /// Ascending: leaves are visited in key order.
    var keys: [Int64] = []
    /// Per indexed column (as `indexed`), the index entries of the removed objects.
    var entries: [[TreeKey]]

    /// `capacity`: how many objects the delete may remove at most.
    init(indexed: [Int], columns: [Property], capacity: Int) {
        self.indexed = indexed
        indexedTypes = indexed.map { columns[$0].type }
        keys.reserveCapacity(capacity)
        entries = indexed.map { _ in
            var e = [TreeKey]()
            e.reserveCapacity(capacity)
            return e
        }
    }

    /// Notes the rows of an encoded leaf and returns the leaf without them.
    mutating func remove(
        _ rows: [Int], from view: ClusterView, payload: UnsafeRawBufferPointer,
        columns: [Property]
    ) -> TreeWriter.EncodedEdit {
        note(rows, of: view)
        var out = [UInt8]()
        ClusterCodec.removingRows(view, payload: payload, columns: columns, rows: rows, into: &out)
        let remaining = view.count - rows.count
        var first: Int64?
        var r = 0
        for doomed in rows { if doomed == r { r += 1 } else { break } }
        if r < view.count { first = view.key(at: r) }
        return (out, remaining, first)
    }

    /// Notes the keys and index entries of rows (ascending, no repeats) of an encoded leaf.
    mutating func note(_ rows: [Int], of view: ClusterView) {
        // Built in local arrays, appended once per leaf.
        var leafKeys = rows.withUnsafeBufferPointer { view.keyOffsets.gather($0) }  // key = offset + row
        for j in leafKeys.indices { leafKeys[j] &+= Int64(rows[j]) }
        for (n, column) in indexed.enumerated() {
            let his = SearchIndex.keys(view, column: column, rows: rows)
            var grown = entries[n]
            entries[n] = []  // so `grown` is uniquely referenced while it grows
            his.withUnsafeBufferPointer { his in
                leafKeys.withUnsafeBufferPointer { leafKeys in
                    for j in 0..<his.count { grown.append(TreeKey(hi: his[j], lo: leafKeys[j])) }
                }
            }
            entries[n] = grown
        }
        keys.append(contentsOf: leafKeys)
    }

    /// Notes the rows of a decoded leaf and removes them from it.
    mutating func remove(_ rows: [Int], from c: inout ClusterData) {
        for r in rows { keys.append(c.keys[r]) }
        for (n, column) in indexed.enumerated() {
            for r in rows {
                entries[n].append(
                    TreeKey(hi: SearchIndex.key(c.columns[column][r], type: indexedTypes[n]), lo: c.keys[r]))
            }
        }
        var doomed = [Bool](repeating: false, count: c.keys.count)
        for r in rows { doomed[r] = true }
        var keep = 0
        for r in 0..<c.keys.count where !doomed[r] {
            if keep != r {
                c.keys[keep] = c.keys[r]
                for col in c.columns.indices { c.columns[col][keep] = c.columns[col][r] }
            }
            keep += 1
        }
        c.keys.removeSubrange(keep...)
        for col in c.columns.indices { c.columns[col].removeSubrange(keep...) }
    }
}

extension WriteTransaction {
    /// The raw keys in ascending order (results in key order, the usual case, are not re-sorted).
    static func ascending(_ keys: [ObjectKey]) -> [Int64] {
        var raw = keys.map(\.rawValue)
        var i = 1
        while i < raw.count && raw[i - 1] <= raw[i] { i += 1 }
        if i < raw.count { raw.sort() }
        return raw
    }
}

extension Array where Element == TreeKey {
    /// Whether the entries are already in ascending order (an integer primary key of objects
    /// created in key order is).
    var isSortedAscending: Bool {
        var i = 1
        while i < count {
            if self[i] < self[i - 1] { return false }
            i += 1
        }
        return true
    }
}

extension ClusterData {
    /// The row of `key` (binary search), or nil.
    func row(of key: Int64) -> Int? {
        var lo = 0
        var hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < keys.count && keys[lo] == key ? lo : nil
    }
}
