/// The commit protocol: one durability barrier per commit.
///
/// Invariants:
/// 1. A commit never overwrites a byte that the last committed version, or any version a reader
///    has pinned, can reach: every changed node goes to space the free list says is reusable
///    (`FreeSpace`, invariant 2), or past the old end of the file. (An encrypted file rewrites
///    whole pages; it keeps this property by never rewriting a page's copy that was durable at
///    the last barrier — two copies per page, `EncryptedFile`.)
/// 2. The header slot naming the new version goes into the slot that does *not* hold the newest
///    committed version, so the previous commit stays whole on disk whatever happens to this one.
/// 3. The new slot names a *commit record*: a node listing every node this commit wrote with its
///    checksum; the slot holds the hash of the record. A version whose record or nodes do not
///    match on disk never reached the disk whole, and is not a version.
/// 4. A version is published in the lock file only after its one fdatasync returned; readers pin
///    only published versions (or newer slots found in the file).
///
/// Steps, and what the file looks like if the process (or the machine) dies right there:
///
/// | step | action                                                  | after a crash here                                   |
/// |------|---------------------------------------------------------|------------------------------------------------------|
/// | 1    | take the write lock; settle the newest version          | nothing written; the kernel drops the OFD lock       |
/// |      | (`SharedFile.settleNewest`): unless the lock file's     | (an erased unverifiable slot: the version before it  |
/// |      | durable-slot word names the newest slot, verify it      | was durable already, see 1a)                         |
/// |      | (erase it if it does not verify) and fdatasync          |                                                      |
/// | 2    | write changed nodes, top, free list (root and changed   | old slot still newest; new nodes lie in free space   |
/// |      | chunks), commit record                                  |                                                      |
/// | 3    | write the inactive slot (64 bytes; in the paired layout | process death: the page cache has every write, the   |
/// |      | with its sector's magic and size, one 128-byte write)   | new version is whole. Machine death: any subset of   |
/// |      |                                                         | steps 2–3 may be on disk — a torn slot fails its     |
/// |      |                                                         | checksum; a whole slot whose nodes are not all there |
/// |      |                                                         | fails the commit-record check at the next first open |
/// |      |                                                         | (`SharedFile.recoverNewest`), which erases that slot |
/// |      |                                                         | (read-only: the next writer's step 1 does) and       |
/// |      |                                                         | records the lost version in the lock file; either    |
/// |      |                                                         | way the previous version opens, whole by invariants  |
/// |      |                                                         | 1–2 and its own completed barrier (1a)               |
/// | 4    | fdatasync; record the slot as durable in the lock file  | the new version is durable                           |
/// | 4a   | fdatasync failed: write the slot's previous bytes back, | the file is the base version again (`rolledBack`):   |
/// |      | undo the free space the commit overwrote, fdatasync     | whichever of old and new slot reached the disk, the  |
/// |      | (`undoSlot`); the commit throws                         | put-back slot is synced over it. If this fails too:  |
/// |      |                                                         | ERROR state (`WriteTransaction.Phase.failed`) — the  |
/// |      |                                                         | outcome is unknown, the process refuses writes until |
/// |      |                                                         | reopened; the durable word still names the base, so  |
/// |      |                                                         | the next writer anywhere re-verifies and syncs (1)   |
/// | 2–3' | an I/O error before the slot (or `cancelWrite`): the    | nothing names the new nodes; the base is whole. If   |
/// |      | rollback writes back every byte the transaction         | a byte cannot be written back, the older slot's      |
/// |      | overwrote and truncates what it grew (`abandon`)        | version may be damaged: ERROR state (`failed`), as   |
/// |      |                                                         | in 4a, until the file is reopened                    |
/// | 4b   | both slots name at most the cut size: ftruncate the     | the file is either size; both slots fit in either    |
/// |      | trailing free space no one reaches (`TrailingSpace`)    | (a failed cut is ignored: the commit stands)         |
/// | 5    | publish the version in the lock file, wake waiters      | readers find the newer slot in the file anyway       |
/// | 6    | release the write lock                                  | —                                                    |
///
/// Step 2 writes in runs: the commit's nodes are allocated side by side where free space allows
/// (`FreeSpace.allocate`) and kept in memory until the record is built (`TreeWriter.flush`), then
/// written one `pwrite` per run of adjacent nodes — a small commit is one or two writes and the
/// slot. The table above holds for any order of these writes: none is durable before step 4,
/// and none touches a byte the previous version reaches (invariant 1). In a file of the paired
/// layout (`FileHeader.Layout`) a small transaction allocates in the *commit area* right after
/// the page of the slot it will write, so nodes and slot reach the disk as one region: a
/// fifth less fdatasync time than nodes elsewhere plus a slot on page 0. The area beside the
/// slot being written was last written two commits ago, and what that commit wrote the next one
/// freed, so it is reusable as soon as no reader holds that version. Elsewhere (a full area, a
/// single-layout file) a small transaction starts its run only in a hole of 32 KB or at the
/// end of the file (`FreeSpace.preferRuns`) — unless a third of the file is free, when it
/// fills smaller holes first (`FreeSpace.fillsSmallHoles`), so the file settles at ≤ 1.5× its
/// live data.
///
/// No `fstat` on this path (`SharedFile.slots()`, `TreeWriter.physicalSize`): on Linux a stat
/// marks the ctime as queried, the next write then stamps a fine-grained mtime, and every
/// fdatasync would also write the inode block — one more device write per commit.
///
/// Commits that write more than `CommitRecord.maxNodes` nodes take a second fdatasync between
/// steps 2 and 3 instead of a record (the old two-barrier protocol), so verifying at open only
/// ever re-reads a small commit.
///
/// A commit that grew the file also takes that second fdatasync before its slot: a slot never
/// names a logical size larger than the durable file, so a file shorter than any valid slot's
/// size was truncated (`FileHeader+Truncation`), never a torn growth to fall back from.
///
/// 1a. Why the base must be durable, and when it is. The one barrier makes the new version
/// durable, but the commit reuses space the base's own commit freed (nodes of the version before
/// it). If the base never reached the disk — its writer died (kill -9) between its slot and the
/// end of its barrier, or its barrier failed — a power loss during this commit could leave
/// neither version whole. So a writer builds only on a durable base: the lock file's
/// durable-slot word holds the checksum of the last slot whose barrier returned; when the newest
/// slot is another one (a writer died; or the first write since every process closed, when the
/// word from the last session may be stale), step 1 verifies the newest commit and syncs before
/// anything is written. After every process closed, the old word is kept when it still names
/// the newest slot: a slot that was durable once is durable still. The same step is where a
/// writer finds a torn newest commit that a read-only first opener could not erase: it erases
/// it before building, and the lock file's rejected-version word tells every opener.
///
/// Why one barrier is enough: the only thing a second barrier (before the slot) would buy is
/// never having a durable slot whose nodes are missing. The commit record detects exactly that
/// case, and the previous version is still intact because nothing it reaches was overwritten.
/// Only the newest slot needs checking, and only by the first process to open the file after
/// all others closed it (a machine crash leaves no process running): until then every process
/// saw the writer's complete page-cache state. The check reads only the last commit's nodes.
extension WriteTransaction {
    /// Makes the transaction durable and returns the new slot. The caller publishes and unlocks.
    func commit() throws -> FileHeader.Slot {
        precondition(phase == .open, "commit on an ended transaction")
        let layout = self.layout
        writer.deferWrites = true
        writer.committing = true
        defer { writer.deferWrites = false }
        // Step 2: write every changed node, children first.
        for ci in state.tables.indices {
            if var root = state.tables[ci].root {
                try writer.seal(&root, columns: layout.tables[ci].columns)
                root.ref = try writer.outOfCommitArea(root.ref)
                state.tables[ci].root = root
            }
            for (column, tree) in state.tables[ci].indexes {
                if var t = tree {
                    try writer.seal(&t, columns: nil)
                    t.ref = try writer.outOfCommitArea(t.ref)
                    state.tables[ci].indexes[column] = .some(t)
                }
            }
        }
        var schemaRef = base.schemaRef
        if let newSchema {
            try writer.release(base.schemaRef)
            schemaRef = try writer.write(
                kind: .schema, payload: SchemaNode.payload(newSchema.schema, schemaVersion: newSchema.schemaVersion))
        }
        let changeLogRef = try ChangeLog.append(
            changes, to: base.changeLogRef, version: writer.newVersion, writer: writer,
            layout: layout)
        try writer.release(base.topRef)
        let top = TopNode(schemaRef: schemaRef, changeLogRef: changeLogRef, tables: state.tables)
        let topRef = try writer.write(kind: .top, payload: top.payload())
        // A large commit takes a second barrier instead of a commit record, so that opening the
        // file never has to re-read a big commit (a bulk import, a compacted copy) to verify it.
        let large = writer.writtenHere.count > CommitRecord.maxNodes
        let (freeRef, commitRef, commitHash) = try writeFreeListAndCommitRecord(withRecord: !large)
        // A commit that grew the file syncs too, so a slot never names more than the durable
        // file: a slot past the end then always means a truncated file (`checkNotTruncated`).
        if large || writer.grewFile { try shared.file.sync() }
        // Step 3: the inactive slot — the one the base version is not in (no one else has
        // written a slot since `beginWrite` read them: we hold the write lock).
        let header = try shared.layout()
        let slot = FileHeader.Slot(
            version: writer.newVersion, topRef: topRef, freeRef: freeRef, logicalSize: writer.free.logicalSize,
            readFormat: baseReadFormat, commitRef: commitRef, commitHash: commitHash)
        let sector = header.slotSector(1 - baseSlotIndex, bytes: slot.encoded())
        let offset = sector.offset
        let previous = [UInt8](UnsafeRawBufferPointer(start: shared.file.base + Int(offset), count: sector.bytes.count))
        let overwritten = overwrittenLogicalSize(header)
        try sector.bytes.withUnsafeBytes { try shared.file.write($0, at: offset) }
        // From here on the new version may be on disk: only putting the slot back undoes it.
        phase = .slotWritten
        // Step 4: the one barrier.
        do {
            try shared.file.sync()
        } catch {
            try undoSlot(previous, at: offset, barrierError: error)
            throw error
        }
        phase = .committed
        shared.lock.noteDurable(slot)
        shared.file.writerCommitted(writer.newVersion, base: base.version)
        // Step 4b: both slots on disk are durable; cut trailing space neither reaches.
        giveBackTrailingSpace(slot, overwritten: overwritten)
        return slot
    }

    /// Step 4a (the barrier failed): puts the slot's previous bytes back, then the free space the
    /// commit overwrote, and syncs, so the file is the base version again — `rolledBack`. When
    /// that fails too the transaction is `failed` and the process refuses writes until reopened.
    private func undoSlot(_ previous: [UInt8], at offset: UInt64, barrierError: Error) throws {
        do {
            try previous.withUnsafeBytes { try shared.file.write($0, at: offset) }
            if let failure = writer.rollback() { throw failure }
            try shared.file.sync()
            phase = .rolledBack
        } catch {
            phase = .failed
            shared.enterErrorState(barrierError)
        }
    }

    /// Writes the free list copy-on-write and the commit record. Frees the old root and record,
    /// lets the free list free its changed chunks' nodes and reserve room for their new nodes,
    /// its root and the record (`FreeSpace.persist`), then writes them all — the list counting
    /// its own nodes as used — and the record, which lists every node of this commit (the list's
    /// included) with its checksum.
    private func writeFreeListAndCommitRecord(withRecord: Bool) throws -> (
        freeRef: UInt64, commitRef: UInt64, commitHash: UInt64
    ) {
        try writer.release(baseFreeRef)
        try writer.release(baseCommitRef)
        // Trailing space no pinned version reaches leaves the new version's file (`TrailingSpace`).
        trimTrailingFreeSpace()
        var written = withRecord ? writer.writtenHere.sorted() : []
        let before = written.count
        let list = try writer.free.persist { nodes in
            withRecord ? Node.aligned(Node.headerSize + 8 + (before + nodes) * 16) : nil
        }
        try writer.ensureSize(writer.free.logicalSize)
        for (ref, node) in list.nodes { try writer.writeNode(node, at: ref) }
        guard withRecord, let (recordRef, recordTotal) = list.record else {
            try writer.flush()
            return (list.rootRef, 0, 0)
        }
        written += list.nodes.map(\.ref)
        // The record: (ref, stored checksum) of every node, from the headers built (nodes not
        // yet written) or written (nodes an earlier flush wrote).
        var record = [UInt8]()
        record.reserveCapacity(recordTotal)
        record.appendLE(UInt64(written.count))
        for ref in written {
            record.appendLE(ref)
            record.appendLE(UInt64(writer.writtenChecksum(ref)))
        }
        guard record.count <= recordTotal - Node.headerSize else {
            throw RealmError.internalError(
                "internal error: the commit record outgrew its reservation; the commit was cancelled")
        }
        record += [UInt8](repeating: 0, count: recordTotal - Node.headerSize - record.count)
        let recordNode = Node.build(kind: .commitRecord, payload: record)
        try writer.writeNode(recordNode, at: recordRef)
        try writer.flush()
        let hash = record.withUnsafeBytes { Checksum.hash($0) }
        return (list.rootRef, recordRef, hash)
    }
}

/// Checking that the newest commit reached the disk whole (see the table above).
enum CommitRecord {
    /// Commits that write more nodes than this take two barriers and carry no record.
    static let maxNodes = 64

    /// Whether every node the slot's commit record lists is on disk with its recorded checksum.
    static func verify(_ slot: FileHeader.Slot, base: UnsafeRawPointer, path: String) -> Bool {
        guard slot.commitRef != 0 else { return true }
        let bytes = FileBytes(base: base, size: slot.logicalSize, path: path, placeBound: slot.bindsNodesToPlace)
        guard let payload = try? bytes.node(slot.commitRef, kind: .commitRecord),
            Checksum.hash(payload) == slot.commitHash, payload.count >= 8
        else { return false }
        let n = Int(truncatingIfNeeded: UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self)))
        guard n >= 0, n <= (payload.count - 8) / 16 else { return false }
        for i in 0..<n {
            let ref = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 8 + i * 16, as: UInt64.self))
            let recorded = UInt32(
                truncatingIfNeeded: UInt64(
                    littleEndian: payload.loadUnaligned(fromByteOffset: 16 + i * 16, as: UInt64.self)))
            guard let (_, _, ok) = try? bytes.extent(ref), ok,
                UInt32(littleEndian: (base + Int(ref)).loadUnaligned(fromByteOffset: 12, as: UInt32.self)) == recorded
            else { return false }
        }
        return true
    }
}
