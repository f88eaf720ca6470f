/// Changing the schema inside a write transaction (migrations).
extension WriteTransaction {
    /// Replaces every table: frees the old trees and indexes, switches the transaction's state
    /// to `schema`'s layout, and writes `rows` (per class, persisted values then backlink
    /// columns) under their keys. The commit stores `schema` with `schemaVersion`.
    func replaceSchema(_ schema: Schema, schemaVersion: UInt64, rows: [[(ObjectKey, [Value])]], nextKeys: [Int64])
        throws
    {
        for table in state.tables {
            if let root = table.root { try writer.releaseTree(root) }
            for case let tree? in table.indexes.values { try writer.releaseTree(tree) }
        }
        let layout = SchemaLayout(schema)
        let tables = layout.tables.map { t -> TableState in
            var s = TableState()
            for c in t.indexedColumns { s.indexes[c] = TreeChild?.none }
            return s
        }
        let top = TopNode(schemaRef: base.schemaRef, changeLogRef: base.changeLogRef, tables: tables)
        state = try Snapshot(
            version: state.version, bytes: writer.bytes, layout: layout, top: top, topRef: base.topRef,
            schemaVersion: schemaVersion, cacheLeaves: false)
        newSchema = StoredSchema(schemaVersion: schemaVersion, schema: schema)
        changes.everything = true
        for (ci, list) in rows.enumerated() {
            for (key, row) in list { try copyRow(ci, key: key, row: row) }
            state.tables[ci].nextKey = max(state.tables[ci].nextKey, ci < nextKeys.count ? nextKeys[ci] : 0)
        }
    }
}
