/// The ownership rules of embedded objects, kept by `ObjectWriter` on every write through a link
/// whose target class is embedded (an *owning* link): an embedded object has exactly one parent
/// at all times. A new child must have no parent yet (objects created through the parent have
/// none until the parent's link is written); a child its parent stops linking to is deleted.
extension WriteTransaction {
    /// Throws unless every key of `children` is an object of the column's (embedded) target class
    /// that no object links to yet, and no key is given twice.
    func checkNewChildren(_ classIndex: Int, column: Int, _ children: [ObjectKey]) throws {
        guard !children.isEmpty,
            let (target, _) = layout.linkTargets[.init(classIndex: classIndex, column: column)]
        else { return }
        let targetName = layout.schema.objectSchemas[target].name
        let property = layout.tables[classIndex].columns[column]
        var seen = Set<ObjectKey>()
        for child in children {
            guard seen.insert(child).inserted else {
                throw RealmError.invalidOperation(
                    "\(targetName) \(child) is given twice to \(layout.schema.objectSchemas[classIndex].name).\(property.name): an embedded object has exactly one parent"
                )
            }
            if let parent = try parent(of: target, child) {
                let origin = layout.schema.objectSchemas[parent.classIndex]
                throw RealmError.invalidOperation(
                    "\(targetName) \(child) already belongs to \(origin.name) \(parent.key) (through '\(origin.persistedProperties[parent.column].name)'): an embedded object has exactly one parent; create a new one instead"
                )
            }
        }
    }

    /// The object linking to `key` of class `classIndex` through any owning link (the first
    /// found), or nil.
    func parent(of classIndex: Int, _ key: ObjectKey) throws -> (classIndex: Int, column: Int, key: ObjectKey)? {
        guard let row = try state.row(classIndex: classIndex, key: key) else { throw RealmError.invalidatedObject }
        for (origin, bc) in layout.tables[classIndex].backlinkColumns.sorted(by: { $0.value < $1.value })
        where layout.owningLinks.contains(origin) {
            if let first = row[bc].linkedKeys.first { return (origin.classIndex, origin.column, first) }
        }
        return nil
    }

    /// Deletes the embedded objects among `keys` (the targets of an owning column) that are
    /// still there; each takes its own embedded objects with it.
    func deleteChildren(of classIndex: Int, column: Int, _ keys: [ObjectKey]) throws {
        guard let (target, _) = layout.linkTargets[.init(classIndex: classIndex, column: column)] else { return }
        for k in keys where try state.contains(classIndex: target, key: k) {
            try deleteObject(target, k)
        }
    }
}
