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
        let sorted = keys.map(\.rawValue).sorted()
        var changed: [(ObjectKey, Value)] = []
        var found = 0
        try writer.editLeaves(root: &state.tables[classIndex].root, keys: sorted, columns: table.columns, file: { view, payload, rows in
            found += rows.count
            var values = (0..<view.count).map { view.value(row: $0, column: column) }
            var any = false
            for r in rows where values[r] != value {
                changed.append((ObjectKey(view.key(at: r)), values[r]))
                values[r] = value
                any = true
            }
            guard any else { return nil }
            var out = [UInt8]()
            ClusterCodec.replacingColumn(view, payload: payload, columns: table.columns, column: column, values: values, into: &out)
            return (out, view.count, view.count > 0 ? view.key(at: 0) : nil)
        }, memory: { data, rows in
            found += rows.count
            for r in rows where data.columns[column][r] != value {
                changed.append((ObjectKey(data.keys[r]), data.columns[column][r]))
                data.columns[column][r] = value
            }
        })
        syncBytes()
        if found != sorted.count { throw RealmError.invalidatedObject }
        if table.indexedColumns.contains(column) {
            for (k, old) in changed {
                try SearchIndex.remove(&state.tables[classIndex].indexes[column, default: nil], value: old, key: k, writer: writer)
                try SearchIndex.insert(&state.tables[classIndex].indexes[column, default: nil], value: value, key: k, writer: writer)
            }
        }
        for (k, _) in changed { changes.modify(classIndex, k.rawValue, column: column) }
        syncBytes()
    }

    /// Deletes every object of `keys` (those already gone are skipped).
    func deleteObjects(_ classIndex: Int, keys: [ObjectKey]) throws {
        let table = layout.tables[classIndex]
        let linked = table.columns.count > table.persistedCount || table.persisted.contains { $0.type == .object }
        if linked || keys.count < 8 {
            for k in keys where try state.contains(classIndex: classIndex, key: k) { try deleteObject(classIndex, k) }
            return
        }
        let sorted = keys.map(\.rawValue).sorted()
        var removed: [(ObjectKey, [Value])] = []  // key and its indexed values
        try writer.editLeaves(root: &state.tables[classIndex].root, keys: sorted, columns: table.columns, file: { view, payload, rows in
            for r in rows { removed.append((ObjectKey(view.key(at: r)), table.indexedColumns.map { view.value(row: r, column: $0) })) }
            var out = [UInt8]()
            ClusterCodec.removingRows(view, payload: payload, columns: table.columns, rows: rows, into: &out)
            let remaining = view.count - rows.count
            var first: Int64?
            var r = 0
            for doomed in rows { if doomed == r { r += 1 } else { break } }
            if r < view.count { first = view.key(at: r) }
            return (out, remaining, first)
        }, memory: { c, rows in
            for r in rows { removed.append((ObjectKey(c.keys[r]), table.indexedColumns.map { c.columns[$0][r] })) }
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
        })
        for (n, column) in table.indexedColumns.enumerated() {
            let entries = removed.map { TreeKey(hi: SearchIndex.key($0.1[n]), lo: $0.0.rawValue) }.sorted()
            var tree = state.tables[classIndex].indexes[column] ?? nil
            try writer.removeIndexEntries(root: &tree, entries: entries)
            state.tables[classIndex].indexes[column] = .some(tree)
        }
        for (k, _) in removed { changes.delete(classIndex, k.rawValue) }
        syncBytes()
    }
}

extension ClusterData {
    /// The row of `key` (binary search), or nil.
    func row(of key: Int64) -> Int? {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < keys.count && keys[lo] == key ? lo : nil
    }
}
