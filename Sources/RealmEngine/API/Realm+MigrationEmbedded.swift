/// Migrations and embedded classes (Realm's rules): after a migration every object of an
/// embedded class has exactly one parent.
extension Realm {
    /// Checks and settles ownership in the migrated `rows` (backlinks already computed): an
    /// object with two or more parents fails the migration, naming it; one with none fails it
    /// when its class becomes embedded in this migration (the block must delete it or give it a
    /// parent), and is deleted when its class was embedded already — its parent or the property
    /// that owned it was removed, and its embedded objects go with it, as a delete would take them.
    static func settleEmbeddedObjects(_ rows: inout [[(ObjectKey, [Value])]], layout: SchemaLayout, oldSchema: Schema)
        throws
    {
        let classes = layout.schema.objectSchemas
        guard classes.contains(where: \.isEmbedded) else { return }
        let position = rows.map { Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($1.0, $0) }) }
        var dead = Array(repeating: Set<Int>(), count: classes.count)
        func parents(_ ci: Int, _ r: Int) -> Int {
            layout.tables[ci].backlinkColumns.reduce(0) { n, entry in
                guard layout.owningLinks.contains(entry.key), case .list(let items) = rows[ci][r].1[entry.value] else {
                    return n
                }
                return n + items.count
            }
        }
        // Deleting an orphan can orphan its own embedded objects: repeat until nothing changes.
        var changed = true
        while changed {
            changed = false
            for (ci, c) in classes.enumerated() where c.isEmbedded {
                let wasEmbedded = oldSchema[c.name]?.isEmbedded == true
                for r in rows[ci].indices where !dead[ci].contains(r) {
                    let key = rows[ci][r].0
                    let n = parents(ci, r)
                    if n > 1 {
                        throw RealmError.invalidInput(
                            "migration: \(c.name) \(key) has \(n) parents; an embedded object has exactly one (unlink it from all but one in the migration block)"
                        )
                    }
                    guard n == 0 else { continue }
                    guard wasEmbedded else {
                        throw RealmError.invalidInput(
                            "migration: \(c.name) cannot become embedded: \(c.name) \(key) has no parent (delete it in the migration block or link it from one object)"
                        )
                    }
                    dead[ci].insert(r)
                    changed = true
                    // Its links leave their targets' backlinks.
                    for (col, p) in c.persistedProperties.enumerated() where p.type == .object {
                        guard let (target, bc) = layout.linkTargets[.init(classIndex: ci, column: col)] else {
                            continue
                        }
                        for link in rows[ci][r].1[col].linkedKeys {
                            guard let tr = position[target][link], case .list(var back) = rows[target][tr].1[bc],
                                let i = back.firstIndex(of: .link(key))
                            else { continue }
                            back.remove(at: i)
                            rows[target][tr].1[bc] = .list(back)
                        }
                    }
                }
            }
        }
        for ci in rows.indices where !dead[ci].isEmpty {
            rows[ci] = rows[ci].enumerated().filter { !dead[ci].contains($0.offset) }.map(\.element)
        }
    }

}
