extension ChangeSummary {
    /// The owning-link columns of object `key` of class `classIndex` under which an embedded
    /// object (at any depth: an embedded object's own embedded objects too) had a persisted
    /// column modified. An embedded object is part of its parent, so such a change is a change
    /// of the parent's property, as in Realm. Inserting or removing one already shows as a
    /// change of the owning column itself.
    func changedOwningColumns(classIndex: Int, key: ObjectKey, in snapshot: any ReadableVersion) -> [Int] {
        let layout = snapshot.layout
        guard !layout.owningLinks.isEmpty else { return [] }
        var result: [Int] = []
        for column in 0..<layout.tables[classIndex].persistedCount
        where layout.owningLinks.contains(.init(classIndex: classIndex, column: column)) {
            var stack = [(classIndex, key, column)]
            var seen = Set<[Int64]>()  // (class, key) pairs visited: damage could make a cycle
            var changed = false
            while let (c, k, col) = stack.popLast(), !changed {
                guard let (target, _) = layout.linkTargets[.init(classIndex: c, column: col)],
                    let value = try? snapshot.value(classIndex: c, key: k, column: col)
                else { continue }
                for child in value.linkedKeys where seen.insert([Int64(target), child.rawValue]).inserted {
                    let mask = Self.persistedMask(layout.tables[target].persistedCount)
                    if (classes[target]?.modified[child.rawValue] ?? 0) & mask != 0 {
                        changed = true
                        break
                    }
                    for childColumn in 0..<layout.tables[target].persistedCount
                    where layout.owningLinks.contains(.init(classIndex: target, column: childColumn)) {
                        stack.append((target, child, childColumn))
                    }
                }
            }
            if changed { result.append(column) }
        }
        return result
    }

}
