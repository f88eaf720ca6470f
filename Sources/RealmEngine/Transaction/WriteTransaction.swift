/// The state of one write transaction: the write lock, a `TreeWriter` over the free space, and a
/// live `Snapshot` whose tables the object layer changes in place.
///
/// States: *open* (from `begin` until `commit` or `cancel`), then *ended*. `commit` that throws
/// leaves the file exactly as the last committed version (nothing was published) and the
/// transaction ended; the caller releases the lock either way.
final class WriteTransaction {
    let shared: SharedFile
    /// The committed version this transaction started from.
    let base: Snapshot
    /// The uncommitted state: read by queries inside the transaction, changed by writes.
    let state: Snapshot
    let writer: TreeWriter
    var changes = ChangeRecorder()
    /// The schema to commit: unchanged unless a migration or schema change set it.
    var newSchema: StoredSchema?
    var ended = false
    /// Set once the commit wrote its header slot: after that the transaction cannot be undone.
    var slotWritten = false

    /// Ends the transaction without committing and puts the file back as it was.
    func abandon() {
        ended = true
        if !slotWritten { writer.rollback() }
    }

    /// Starts a transaction on the newest version. The caller holds the write lock.
    init(shared: SharedFile, base: Snapshot, baseSlot: FileHeader.Slot) throws {
        self.shared = shared
        self.base = base
        let bytes = FileBytes(base: shared.file.base, size: baseSlot.logicalSize, path: shared.path)
        let chunks = try shared.freeList(ref: baseSlot.freeRef) ?? FreeSpace.load(bytes, ref: baseSlot.freeRef)
        // Space freed by commit V is reusable once no reader holds a version below V.
        let oldest = min(shared.lock.oldestPinnedVersion() ?? base.version, base.version)
        let free = FreeSpace(chunks: chunks, logicalSize: baseSlot.logicalSize, reusableUpTo: oldest)
        writer = try TreeWriter(file: shared.file, free: free, newVersion: base.version + 1)
        let top = TopNode(schemaRef: base.schemaRef, changeLogRef: base.changeLogRef, tables: base.tables)
        state = try Snapshot(version: base.version + 1, bytes: writer.bytes, layout: base.layout, top: top,
                             topRef: base.topRef, schemaVersion: base.schemaVersion, cacheLeaves: false)
        baseFreeRef = baseSlot.freeRef
        baseCommitRef = baseSlot.commitRef
    }

    let baseFreeRef: UInt64
    /// The previous commit's record: part of the base version only, freed by this commit.
    let baseCommitRef: UInt64

    var layout: SchemaLayout { state.layout }

    /// Keeps the live snapshot's byte range in step with what the writer has written.
    @inline(__always)
    func syncBytes() { state.bytes = writer.bytes }

    func markEnded() { ended = true }
}

/// What a transaction changed, per class: the input of change notifications and of the change
/// log kept in the file.
///
/// New objects get ascending keys, so the objects a transaction inserted into a class are the
/// keys from its first insert to its last, minus those it deleted again: recording an insert
/// costs two stores, not a hash-set insert.
struct ChangeRecorder {
    struct ClassChanges {
        /// The first and last key inserted by this transaction (`firstNew > lastNew`: none).
        var firstNew: Int64 = .max
        var lastNew: Int64 = .min
        /// Inserted keys that were deleted again.
        var deletedNew = Set<Int64>()
        var deleted = Set<Int64>()
        /// Modified objects (not inserted in this transaction) and a bitmask of the columns that
        /// changed (bit 63 stands for column 63 and later, as in the change log).
        var modified: [Int64: UInt64] = [:]

        func isNew(_ key: Int64) -> Bool {
            key >= firstNew && key <= lastNew && !deletedNew.contains(key)
        }

        /// The objects inserted (and still present), ascending.
        var inserted: [Int64] {
            guard firstNew <= lastNew else { return [] }
            return (firstNew...lastNew).filter { !deletedNew.contains($0) }
        }
    }
    var classes: [Int: ClassChanges] = [:]
    /// Set when every object of some class may have changed (schema change, migration).
    var everything = false

    var isEmpty: Bool { classes.isEmpty && !everything }

    /// Changes one class's record in place (one hash lookup).
    private mutating func update(_ c: Int, _ body: (inout ClassChanges) -> Void) {
        body(&classes[c, default: ClassChanges()])
    }

    mutating func insert(_ c: Int, _ key: Int64) {
        update(c) { ch in
            ch.firstNew = Swift.min(ch.firstNew, key)
            ch.lastNew = Swift.max(ch.lastNew, key)
        }
    }

    mutating func delete(_ c: Int, _ key: Int64) {
        update(c) { ch in
            if ch.isNew(key) {
                ch.deletedNew.insert(key)
            } else {
                ch.modified[key] = nil
                ch.deleted.insert(key)
            }
        }
    }

    mutating func modify(_ c: Int, _ key: Int64, column: Int) {
        update(c) { ch in
            if !ch.isNew(key) { ch.modified[key, default: 0] |= 1 << UInt64(Swift.min(column, 63)) }
        }
    }
}
