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
        let sorted = keys.sorted()
        var changed: [(ObjectKey, Value)] = []
        var i = 0
        while i < sorted.count {
            var applied = 0
            var missing = false
            let start = i
            try writer.mutate(root: &state.tables[classIndex].root, key: TreeKey(hi: 0, lo: sorted[i].rawValue),
                              columns: table.columns, emptyLeaf: { .cluster(ClusterData(columnCount: table.columns.count)) }) { leaf in
                guard case .cluster(var c) = leaf else { return }
                leaf = .index([])
                var j = start
                while j < sorted.count {
                    guard let row = c.row(of: sorted[j].rawValue) else {
                        // Not in this leaf: either in a later one, or gone.
                        if j == start { missing = true }
                        break
                    }
                    let old = c.columns[column][row]
                    if old != value {
                        c.columns[column][row] = value
                        changed.append((sorted[j], old))
                    }
                    j += 1
                }
                applied = j - start
                leaf = .cluster(c)
            }
            if missing || applied == 0 { throw RealmError.invalidatedObject }
            i += applied
        }
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
        let sorted = keys.sorted()
        var removed: [(ObjectKey, [Value])] = []  // key and its indexed values
        var i = 0
        while i < sorted.count {
            var consumed = 0
            let start = i
            try writer.mutate(root: &state.tables[classIndex].root, key: TreeKey(hi: 0, lo: sorted[i].rawValue),
                              columns: table.columns, emptyLeaf: { .cluster(ClusterData(columnCount: table.columns.count)) }) { leaf in
                guard case .cluster(var c) = leaf else { return }
                leaf = .index([])
                var doomed = [Bool](repeating: false, count: c.keys.count)
                var any = false
                var j = start
                let last = c.keys.last ?? .min
                while j < sorted.count, sorted[j].rawValue <= last {
                    if let row = c.row(of: sorted[j].rawValue) {
                        doomed[row] = true
                        any = true
                        removed.append((sorted[j], table.indexedColumns.map { c.columns[$0][row] }))
                    }
                    j += 1
                }
                consumed = max(1, j - start)
                if any {
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
                leaf = .cluster(c)
            }
            i += consumed
        }
        for (k, values) in removed {
            for (n, column) in table.indexedColumns.enumerated() {
                try SearchIndex.remove(&state.tables[classIndex].indexes[column, default: nil], value: values[n], key: k, writer: writer)
            }
            changes.delete(classIndex, k.rawValue)
        }
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
