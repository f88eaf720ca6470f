/// What the open write transaction has changed so far, per class: for a caller that writes the
/// transaction's changes somewhere else before committing (the in-place commit of a Realm Core
/// file writes only the nodes the changed objects live in).
public struct PendingWriteChanges: Sendable, Equatable {
    /// One class's part.
    public struct ClassChanges: Sendable, Equatable {
        /// Objects created (and not deleted again).
        public var inserted: Int
        /// Objects that existed before the transaction and were deleted.
        public var deleted: [ObjectKey]
        /// Objects that existed before the transaction, still exist and changed: the names of the
        /// persisted properties that may have changed (a superset when the class has more than 63
        /// properties: from the 64th on, every one is named).
        public var modified: [ObjectKey: [String]]
    }

    /// The schema changed (a migration, a class or property added or removed): anything may
    /// have changed.
    public var schemaChanged: Bool
    /// The classes the transaction changed, by name.
    public var classes: [String: ClassChanges]
}

extension Realm {
    /// The open write transaction's changes so far; nil outside a write transaction.
    public func pendingWriteChanges() throws -> PendingWriteChanges? {
        try checkThread()
        guard let transaction else { return nil }
        let schemas = described.schema.objectSchemas
        var classes: [String: PendingWriteChanges.ClassChanges] = [:]
        for (index, changes) in transaction.changes.classes {
            // A class the recorder names but the schema does not: treat it as a schema change.
            guard schemas.indices.contains(index) else {
                return PendingWriteChanges(schemaChanged: true, classes: [:])
            }
            let properties = schemas[index].persistedProperties.map(\.name)
            var modified: [ObjectKey: [String]] = [:]
            for (key, mask) in changes.modified {
                var names: [String] = []
                for (column, name) in properties.enumerated() where ChangeRecorder.mask(mask, includes: column) {
                    names.append(name)
                }
                modified[ObjectKey(key)] = names
            }
            let inserted = changes.insertedRuns.reduce(0) { $0 + Int($1.count) }
            classes[schemas[index].name] = .init(
                inserted: inserted, deleted: changes.deleted.map(ObjectKey.init), modified: modified)
        }
        return PendingWriteChanges(
            schemaChanged: transaction.changes.everything || transaction.newSchema != nil, classes: classes)
    }
}
