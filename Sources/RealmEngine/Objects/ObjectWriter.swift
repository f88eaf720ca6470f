/// Object-level writes: rows in cluster trees, index entries and backlinks kept consistent.
///
/// Invariants after every method returns (checked by `check`):
/// - every indexed column has exactly one index entry per object, with the object's value;
/// - for every link (to-one or list element) from (class O, column c, object o) to t, t's
///   backlink column for (O, c) lists o exactly as many times as o links to t;
/// - no link points at a deleted object (deleting nullifies to-one links and removes list entries).
/// Values are validated and coerced before anything changes, so a throwing call changes nothing.
extension WriteTransaction {
    private func emptyCluster(_ classIndex: Int) -> LeafData {
        .cluster(ClusterData(keys: [], columns: Array(repeating: [], count: layout.tables[classIndex].columns.count)))
    }

    /// Changes the row of `key` in place (the row must exist).
    private func updateRow(
        _ classIndex: Int, _ key: ObjectKey, bigValues: Bool = false,
        _ body: @escaping (inout ClusterData, Int) -> Void
    ) throws {
        let columns = layout.tables[classIndex].columns
        var found = false
        try writer.mutate(
            root: &state.tables[classIndex].root, key: TreeKey(hi: 0, lo: key.rawValue), columns: columns,
            emptyLeaf: { self.emptyCluster(classIndex) }, bigValues: bigValues
        ) { leaf in
            guard case .cluster(var c) = leaf else { return }
            leaf = .index([])
            if let row = ClusterAccess.data(c).row(of: key.rawValue) {
                body(&c, row)
                found = true
            }
            leaf = .cluster(c)
        }
        syncBytes()
        if !found { throw RealmError.invalidatedObject }
    }

    /// Inserts a row of persisted values (already coerced) and returns the new object's key.
    func insertRow(_ classIndex: Int, _ values: [Value], primaryKeyChecked: Bool = false) throws -> ObjectKey {
        let table = layout.tables[classIndex]
        if !primaryKeyChecked, let pk = table.primaryKeyColumn,
            try state.object(classIndex: classIndex, primaryKey: values[pk]) != nil
        {
            throw RealmError.primaryKey(
                "\(layout.schema.objectSchemas[classIndex].name): an object with primary key \(values[pk]) already exists"
            )
        }
        if !layout.mixedColumns.isEmpty { try checkTypedLinks(values, classIndex: classIndex) }
        let key = ObjectKey(Self.takeNextKey(&state.tables[classIndex]))
        let backlinkColumns = table.columns.count - table.persistedCount
        let row = backlinkColumns == 0 ? values : values + Array(repeating: Value.list([]), count: backlinkColumns)
        let big = values.contains(where: \.isBig)
        if !layout.owningLinks.isEmpty {
            for column in values.indices
            where layout.owningLinks.contains(.init(classIndex: classIndex, column: column)) {
                try checkNewChildren(classIndex, column: column, values[column].linkedKeys)
            }
        }
        // The row and its index entries go through the writer alone, their nodes written together
        // at the end; the live snapshot's byte range is brought up to date once, when this returns
        // or throws (and before backlinks, which read it).
        defer { syncBytes() }
        try placeRow(classIndex, key: key.rawValue, row: row, big: big)
        // Only classes that take part in links have backlinks to add (and testing each column's
        // type would copy its `Property` per object).
        if !layout.linkTargets.isEmpty {
            syncBytes()
            for column in values.indices where table.columns[column].type == .object {
                for target in values[column].linkedKeys {
                    try addBacklink(from: classIndex, column: column, origin: key, to: target)
                }
            }
        }
        changes.insert(classIndex, key.rawValue)
        return key
    }

    /// Writes `row` (hidden backlink columns included) under `key` into its class's cluster tree
    /// and its indexed values into their indexes, the nodes written together at the end: appended
    /// at the loaded right edge when the key is past every key (the bulk-insert path), else into
    /// the leaf it sorts in.
    private func placeRow(_ classIndex: Int, key: Int64, row: [Value], big: Bool) throws {
        let table = layout.tables[classIndex]
        try writer.batchingWrites {
            let appended =
                try !big
                && (appendAtRightEdge(classIndex, key: key, columns: table.columns, row: row)
                    || writer.appendRowToCommittedLeaf(
                        root: &state.tables[classIndex].root, key: key, columns: table.columns, row: row))
            if !appended {
                try writer.mutate(
                    root: &state.tables[classIndex].root, key: TreeKey(hi: 0, lo: key), columns: table.columns,
                    emptyLeaf: { self.emptyCluster(classIndex) }, bigValues: big
                ) { leaf in
                    guard case .cluster(var c) = leaf else { return }
                    leaf = .index([])
                    if c.keys.last.map({ $0 < key }) ?? true {
                        c.keys.append(key)
                        for i in row.indices { c.columns[i].append(row[i]) }
                    } else {
                        let at = c.keys.firstIndex { $0 > key } ?? c.keys.count
                        c.keys.insert(key, at: at)
                        for i in row.indices { c.columns[i].insert(row[i], at: at) }
                    }
                    leaf = .cluster(c)
                }
            }
            for column in table.indexedColumns {
                try SearchIndex.insert(
                    &state.tables[classIndex].indexes[column, default: nil], value: row[column],
                    type: table.columns[column].type, key: ObjectKey(key), writer: writer)
            }
        }
    }

    /// The table's next object key, handed out (one access to the table state for both steps).
    private static func takeNextKey(_ table: inout TableState) -> Int64 {
        defer { table.nextKey += 1 }
        return table.nextKey
    }

    /// The bulk-insert step: the row appended to the loaded rightmost leaf (see
    /// `TreeWriter.appendAtRightEdge`); false when that does not apply.
    private func appendAtRightEdge(_ classIndex: Int, key: Int64, columns: [Property], row: [Value]) throws -> Bool {
        try writer.appendAtRightEdge(
            root: &state.tables[classIndex].root, key: TreeKey(hi: 0, lo: key), limit: Limits.clusterRows,
            columns: columns,
            append: { leaf in
                guard case .cluster(var c) = leaf else { return }
                leaf = .index([])
                c.keys.append(key)
                for i in row.indices { c.columns[i].append(row[i]) }
                leaf = .cluster(c)
            },
            single: {
                var c = ClusterData(keys: [key], columns: row.map { [$0] })
                c.keys.reserveCapacity(Limits.clusterRows)
                for i in c.columns.indices { c.columns[i].reserveCapacity(Limits.clusterRows) }
                return .cluster(c)
            })
    }

    private func addBacklink(from originClass: Int, column: Int, origin: ObjectKey, to target: ObjectKey) throws {
        guard let (t, bc) = layout.linkTargets[.init(classIndex: originClass, column: column)] else { return }
        try updateRow(t, target) { c, row in
            if case .list(var items) = c.columns[bc][row] {
                items.append(.link(origin))
                c.columns[bc][row] = .list(items)
            } else {
                c.columns[bc][row] = .list([.link(origin)])
            }
        }
    }

    private func removeBacklink(from originClass: Int, column: Int, origin: ObjectKey, to target: ObjectKey) throws {
        guard let (t, bc) = layout.linkTargets[.init(classIndex: originClass, column: column)] else { return }
        guard try state.contains(classIndex: t, key: target) else { return }
        try updateRow(t, target) { c, row in
            if case .list(var items) = c.columns[bc][row], let i = items.firstIndex(of: .link(origin)) {
                items.remove(at: i)
                c.columns[bc][row] = .list(items)
            }
        }
    }

    /// Sets one persisted column (value already coerced). Primary keys cannot change.
    func setValue(_ classIndex: Int, _ key: ObjectKey, column: Int, _ value: Value) throws {
        let table = layout.tables[classIndex]
        let old = try state.value(classIndex: classIndex, key: key, column: column)
        if column == table.primaryKeyColumn {
            if old == value { return }
            throw RealmError.primaryKey(
                "\(layout.schema.objectSchemas[classIndex].name).\(table.columns[column].name) is a primary key and cannot be changed"
            )
        }
        if table.columns[column].type == .object {
            for target in value.linkedKeys
            where
                !(try state.contains(
                    classIndex: layout.linkTargets[.init(classIndex: classIndex, column: column)]?.classIndex ?? -1,
                    key: target))
            {
                throw RealmError.invalidInput("link target \(target) of \(table.columns[column].name) does not exist")
            }
        }
        if !layout.mixedColumns.isEmpty { try checkTypedLinks(value, classIndex: classIndex, column: column) }
        let owning = layout.owningLinks.contains(.init(classIndex: classIndex, column: column))
        var orphaned: [ObjectKey] = []
        if owning {
            // Checked before anything changes: a refused link leaves the object as it was.
            var kept = old.linkedKeys
            var added: [ObjectKey] = []
            for k in value.linkedKeys {
                if let i = kept.firstIndex(of: k) { kept.remove(at: i) } else { added.append(k) }
            }
            try checkNewChildren(classIndex, column: column, added)
            orphaned = kept
        }
        try updateRow(classIndex, key, bigValues: value.isBig) { c, row in c.columns[column][row] = value }
        if table.indexedColumns.contains(column) && old != value {
            try SearchIndex.remove(
                &state.tables[classIndex].indexes[column, default: nil], value: old, type: table.columns[column].type,
                key: key, writer: writer)
            try SearchIndex.insert(
                &state.tables[classIndex].indexes[column, default: nil], value: value, type: table.columns[column].type,
                key: key, writer: writer)
        }
        if table.columns[column].type == .object {
            var removed = old.linkedKeys
            var added: [ObjectKey] = []
            for k in value.linkedKeys {
                if let i = removed.firstIndex(of: k) { removed.remove(at: i) } else { added.append(k) }
            }
            for k in removed { try removeBacklink(from: classIndex, column: column, origin: key, to: k) }
            for k in added { try addBacklink(from: classIndex, column: column, origin: key, to: k) }
        }
        syncBytes()
        // An embedded object replaced, set to nil or removed from its collection is deleted.
        if owning { try deleteChildren(of: classIndex, column: column, orphaned) }
        // Bitwise: -0.0 over 0.0 is a modification, NaN over the same NaN is not.
        if !old.isIdentical(to: value) { changes.modify(classIndex, key.rawValue, column: column) }
    }

    /// Deletes an object: its index entries, its backlinks in the objects it links to, and every
    /// link to it (to-one links become nil, list entries are removed).
    func deleteObject(_ classIndex: Int, _ key: ObjectKey) throws {
        guard let row = try state.row(classIndex: classIndex, key: key) else { throw RealmError.invalidatedObject }
        let table = layout.tables[classIndex]
        for column in table.indexedColumns {
            try SearchIndex.remove(
                &state.tables[classIndex].indexes[column, default: nil], value: row[column],
                type: table.columns[column].type, key: key, writer: writer)
        }
        var children: [(column: Int, keys: [ObjectKey])] = []
        for column in 0..<table.persistedCount where table.columns[column].type == .object {
            if layout.owningLinks.contains(.init(classIndex: classIndex, column: column)) {
                children.append((column, row[column].linkedKeys))
            }
            for target in row[column].linkedKeys
            where
                !(target == key
                && layout.linkTargets[.init(classIndex: classIndex, column: column)]?.classIndex == classIndex)
            {
                try removeBacklink(from: classIndex, column: column, origin: key, to: target)
            }
        }
        // Incoming links: nullify or remove from lists.
        for (origin, bc) in table.backlinkColumns {
            var seen = Set<ObjectKey>()
            for source in row[bc].linkedKeys where seen.insert(source).inserted {
                if origin.classIndex == classIndex && source == key { continue }
                // A source already gone has nothing to fix; one that cannot be read (a damaged
                // leaf) fails the delete rather than leave a dangling link behind.
                let current: Value
                do {
                    current = try state.value(classIndex: origin.classIndex, key: source, column: origin.column)
                } catch RealmError.invalidatedObject {
                    continue
                }
                let replacement: Value
                switch current {
                case .list(let items): replacement = .list(items.filter { $0 != .link(key) })
                // A dictionary keeps the key, its value becomes nil (as in Realm).
                case .map(let entries): replacement = .map(entries.mapValues { $0 == .link(key) ? .null : $0 })
                default: replacement = .null
                }
                try updateRow(origin.classIndex, source) { c, r in c.columns[origin.column][r] = replacement }
                changes.modify(origin.classIndex, source.rawValue, column: origin.column)
            }
        }
        try writer.mutate(
            root: &state.tables[classIndex].root, key: TreeKey(hi: 0, lo: key.rawValue), columns: table.columns,
            emptyLeaf: { self.emptyCluster(classIndex) }
        ) { leaf in
            guard case .cluster(var c) = leaf else { return }
            leaf = .index([])
            if let r = ClusterAccess.data(c).row(of: key.rawValue) {
                c.keys.remove(at: r)
                for i in c.columns.indices { c.columns[i].remove(at: r) }
            }
            leaf = .cluster(c)
        }
        syncBytes()
        try clearMixedLinks(to: classIndex, key: key)
        changes.delete(classIndex, key.rawValue)
        // Embedded objects go with their parent (and theirs with them).
        for (column, keys) in children { try deleteChildren(of: classIndex, column: column, keys) }
    }
}

extension WriteTransaction {
    /// Appends a stored row (hidden backlink columns included) under its original key, with its
    /// index entries; used to copy a file. Keys in ascending order per class (what a copy gives)
    /// take the bulk-insert path; any other key is inserted where it sorts.
    func copyRow(_ classIndex: Int, key: ObjectKey, row: [Value]) throws {
        defer { syncBytes() }
        try placeRow(classIndex, key: key.rawValue, row: row, big: row.contains(where: \.isBig))
        state.tables[classIndex].nextKey = max(state.tables[classIndex].nextKey, key.rawValue + 1)
    }
}
