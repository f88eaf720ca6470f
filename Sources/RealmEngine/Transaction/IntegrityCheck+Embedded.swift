extension IntegrityChecker {
    /// Every object of an embedded class has exactly one parent: one link to it through an owning
    /// property, counted from its backlink columns (which `checkIndexesAndLinks` has just matched
    /// against the links themselves). An orphan or a shared embedded object is damage no write
    /// makes.
    func checkEmbeddedOwnership() throws {
        let layout = snapshot.layout
        for (ci, t) in layout.tables.enumerated() where layout.schema.objectSchemas[ci].isEmbedded {
            let name = layout.schema.objectSchemas[ci].name
            let owning = t.backlinkColumns.filter { layout.owningLinks.contains($0.key) }.map(\.value)
            try snapshot.forEachObject(classIndex: ci) { k, c, r in
                var parents = 0
                for bc in owning {
                    if case .list(let items) = c.value(row: r, column: bc) { parents += items.count }
                }
                if parents == 0 {
                    throw corrupt(0, "embedded object \(name) \(k) has no parent")
                }
                if parents > 1 {
                    throw corrupt(
                        0, "embedded object \(name) \(k) has \(parents) parents; an embedded object has exactly one")
                }
            }
        }
    }
}
