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

    /// Starts a transaction on the newest version, held in header slot `slotIndex`. The caller
    /// holds the write lock.
    init(shared: SharedFile, base: Snapshot, baseSlot: FileHeader.Slot, slotIndex: Int) throws {
        self.shared = shared
        self.base = base
        let bytes = FileBytes(base: shared.file.base, size: baseSlot.logicalSize, path: shared.path)
        let header = try shared.layout()
        let chunks: [FreeSpace.Chunk]
        if let known = shared.freeList(ref: baseSlot.freeRef) {
            chunks = known
        } else {
            chunks = try FreeSpace.load(bytes, ref: baseSlot.freeRef)
            try FreeSpace.checkClear(header.headerPages, chunks: chunks, path: shared.path, ref: baseSlot.freeRef)
        }
        // Space freed by commit V is reusable once no reader holds a version below V.
        let oldest = min(shared.lock.oldestPinnedVersion() ?? base.version, base.version)
        var free = FreeSpace(chunks: chunks, logicalSize: baseSlot.logicalSize, reusableUpTo: oldest)
        free.areas = header.areas
        free.area = header.commitArea(afterSlot: slotIndex)
        writer = try TreeWriter(file: shared.file, free: free, newVersion: base.version + 1, verified: base.bytes.verified)
        let top = TopNode(schemaRef: base.schemaRef, changeLogRef: base.changeLogRef, tables: base.tables)
        state = try Snapshot(version: base.version + 1, bytes: writer.bytes, layout: base.layout, top: top,
                             topRef: base.topRef, schemaVersion: base.schemaVersion, cacheLeaves: false)
        baseFreeRef = baseSlot.freeRef
        baseCommitRef = baseSlot.commitRef
        baseSlotIndex = slotIndex
    }

    let baseFreeRef: UInt64
    /// The previous commit's record: part of the base version only, freed by this commit.
    let baseCommitRef: UInt64
    /// The header slot holding the base version; the commit writes the other one.
    let baseSlotIndex: Int

    var layout: SchemaLayout { state.layout }

    /// Keeps the live snapshot's byte range in step with what the writer has written.
    @inline(__always)
    func syncBytes() { state.bytes = writer.bytes }

    func markEnded() { ended = true }
}
