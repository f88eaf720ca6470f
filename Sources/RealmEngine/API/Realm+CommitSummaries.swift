/// What one commit changed, per class: counts of inserted, deleted and modified objects, and the
/// keys of the objects it inserted or modified (for showing them while they exist).
public struct CommitSummary: Sendable, Equatable {
    /// One class's part of a commit.
    public struct ClassChanges: Sendable, Equatable {
        /// The class's name.
        public var className: String
        /// Objects created.
        public var inserted: Int
        /// Objects deleted.
        public var deleted: Int
        /// Objects whose values changed.
        public var modified: Int
        /// The keys of the objects created or modified, ascending (the first 1,000).
        public var touchedKeys: [ObjectKey]
        /// The keys of the objects created, ascending (the first 1,000): with `touchedKeys`, what
        /// tells an object the commit created from one it modified.
        public var insertedKeys: [ObjectKey]
    }

    /// The version the commit made.
    public var version: UInt64
    /// The classes it changed, in schema order.
    public var classes: [ClassChanges]
    /// The commit changed the schema (everything may have changed).
    public var changedSchema: Bool
}

extension Realm {
    /// The commits after `version` up to the version this Realm reads, from the file's change
    /// log; nil when the log no longer holds them all (it keeps the records that pinned readers
    /// may still need: a Realm that reads `version` until it refreshes keeps them).
    public func commitSummaries(after version: UInt64) throws -> [CommitSummary]? {
        try checkThread()
        guard let records = try ChangeLog.records(in: snapshot, after: version) else { return nil }
        let schema = try snapshot.schema
        return records.map { record in
            let classes = record.classes.keys.sorted().compactMap { index -> CommitSummary.ClassChanges? in
                // The sync outbox's own changes are nobody's data (the explorer's marks, watch).
                guard let changes = record.classes[index], schema.objectSchemas.indices.contains(index),
                    !SyncClasses.isInternal(schema.objectSchemas[index].name)
                else { return nil }
                let touched = Set(changes.inserted).union(changes.modified.keys).sorted().prefix(1000).map(
                    ObjectKey.init)
                let inserted = changes.inserted.sorted().prefix(1000).map(ObjectKey.init)
                return .init(
                    className: schema.objectSchemas[index].name, inserted: changes.inserted.count,
                    deleted: changes.deleted.count, modified: changes.modified.count, touchedKeys: touched,
                    insertedKeys: inserted)
            }
            return CommitSummary(version: record.version, classes: classes, changedSchema: record.everything)
        }
    }
}
