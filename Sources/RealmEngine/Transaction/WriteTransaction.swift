/// The state of one write transaction: the write lock, a `TreeWriter` over the free space, and a
/// live `Snapshot` whose tables the object layer changes in place.
///
/// States (`Phase`), after SQLite's pager, with the function for each transition:
///
/// ```
///            abandon() / commit() throws before the slot
///   open ───────────────────────────────────────────────▶ rolledBack
///    │ commit(): nodes written, slot written                  ▲
///    ▼                                                        │ barrier failed; previous slot
///   slotWritten ── barrier returned ──▶ committed             │ put back and synced
///    │                                                        │
///    └── barrier failed ──────────────────────────────────────┘
///    └── barrier failed, and putting the slot back failed ──▶ failed (ERROR)
///   open ── abandon() / commit() throws, and the rollback cannot write the old bytes back ──▶ failed
/// ```
///
/// `rolledBack` leaves the file exactly as the last committed version (nothing was published).
/// `failed` is the ERROR state: the new slot may or may not be on disk, so the commit's outcome
/// is unknown — or, from `open`, the file is not byte for byte as before (free space the older
/// header slot's version may reach was overwritten and could not be restored); `SharedFile.enterErrorState` then refuses every write of the process until all its
/// instances of the file are closed and it is opened again. The caller releases the write lock
/// in every terminal state.
final class WriteTransaction {
    /// The states of a write transaction (see the diagram above).
    enum Phase: Equatable {
        /// From `init` until `commit` or `abandon`: changes live in free space and in memory.
        case open
        /// `commit` wrote the new header slot and waits for its barrier.
        case slotWritten
        /// The barrier returned: the new version is durable.
        case committed
        /// Nothing of the transaction is left in the file: cancelled, failed before its slot, or
        /// its failed barrier undone.
        case rolledBack
        /// ERROR: the barrier failed and the slot could not be put back. Writes are refused until
        /// the file is reopened.
        case failed
    }
    let shared: SharedFile
    /// The committed version this transaction started from.
    let base: Snapshot
    /// The uncommitted state: read by queries inside the transaction, changed by writes.
    /// Replaced only by `replaceSchema` (a migration switches the layout).
    var state: Snapshot
    let writer: TreeWriter
    var changes = ChangeRecorder()
    /// The schema to commit: unchanged unless a migration or schema change set it.
    var newSchema: StoredSchema?
    var phase = Phase.open
    /// Whether the transaction reached a terminal state.
    var ended: Bool { phase != .open && phase != .slotWritten }

    /// Ends an open transaction without committing and puts the file back as it was (a no-op in
    /// any other state: `commit` leaves its own failures in a terminal state). When the bytes
    /// cannot be put back (the disk stays full, the device is gone) the transaction is `failed`
    /// and the process refuses writes until the file is reopened.
    func abandon() {
        guard phase == .open else { return }
        if let failure = writer.rollback() {
            phase = .failed
            shared.enterErrorState(failure)
        } else {
            phase = .rolledBack
        }
    }

    /// Starts a transaction on the newest version, held in header slot `slotIndex`. The caller
    /// holds the write lock.
    init(shared: SharedFile, base: Snapshot, baseSlot: FileHeader.Slot, slotIndex: Int) throws {
        self.shared = shared
        self.base = base
        let bytes = FileBytes(
            base: shared.file.base, size: baseSlot.logicalSize, path: shared.path,
            placeBound: baseSlot.bindsNodesToPlace)
        let header = try shared.layout()
        let chunks: [FreeSpace.Chunk]
        var births: [UInt64: UInt64] = [:]
        if let known = shared.freeList(version: baseSlot.version, ref: baseSlot.freeRef) {
            (chunks, births) = known
        } else {
            chunks = try FreeSpace.load(bytes, ref: baseSlot.freeRef)
            try FreeSpace.checkClear(header.headerPages, chunks: chunks, path: shared.path, ref: baseSlot.freeRef)
        }
        // Space written by commit B and freed by commit F is reachable from versions B ..< F: it
        // is reusable once no reader holds one of them, nor the base (`FreeSpace`, invariant 2).
        var pins = shared.lock.pinnedVersions().filter { $0 < base.version }
        pins.append(base.version)
        var free = FreeSpace(chunks: chunks, logicalSize: baseSlot.logicalSize, reusableUpTo: pins[0])
        free.pinned = pins
        free.births = births
        free.pruneBirths()
        free.areas = header.areas
        free.area = header.commitArea(afterSlot: slotIndex)
        writer = try TreeWriter(
            file: shared.file, free: free, newVersion: base.version + 1, placeBound: baseSlot.bindsNodesToPlace,
            verified: base.bytes.verified)
        let top = TopNode(schemaRef: base.schemaRef, changeLogRef: base.changeLogRef, tables: base.tables)
        state = try Snapshot(
            version: base.version + 1, bytes: writer.bytes, layout: base.layout, top: top,
            topRef: base.topRef, schemaVersion: base.schemaVersion, cacheLeaves: false)
        baseFreeRef = baseSlot.freeRef
        baseCommitRef = baseSlot.commitRef
        baseSlotIndex = slotIndex
        baseReadFormat = baseSlot.readFormat
        baseLogicalSize = baseSlot.logicalSize
    }

    /// The base slot's logical size: the file is never cut below it while that slot is on disk.
    let baseLogicalSize: UInt64

    /// The base slot's read format, which the commit's slot keeps: a file's nodes follow one
    /// checksum rule (`FileHeader.Slot.bindsNodesToPlace`), so its format changes only by a copy.
    let baseReadFormat: UInt16

    let baseFreeRef: UInt64
    /// The previous commit's record: part of the base version only, freed by this commit.
    let baseCommitRef: UInt64
    /// The header slot holding the base version; the commit writes the other one.
    let baseSlotIndex: Int

    var layout: SchemaLayout { state.layout }

    /// Keeps the live snapshot's byte range in step with what the writer has written.
    @inline(__always)
    func syncBytes() { state.bytes = writer.bytes }
}
