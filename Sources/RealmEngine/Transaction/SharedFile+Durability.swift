#if canImport(Glibc)
    import Glibc
#endif

/// What a writer settles before it builds on the newest version, and the process's ERROR state
/// (see the crash table in `Commit.swift`).
extension SharedFile {
    /// Under the write lock, before a transaction reads the slots: makes sure the newest slot is a
    /// durable, whole commit, so that the one-barrier commit about to be built on it may reuse
    /// the space that commit freed.
    ///
    /// Nothing to do when the lock file's durable-slot word names the newest slot (the writer
    /// before us saw its barrier return). Otherwise a writer died (or failed) between its slot
    /// and the end of its barrier, or this is the first write since every process closed the
    /// file: the slot is checked against its commit record — a commit that does not verify is
    /// erased and reported (`LockFile.rejectedVersion`), whoever opened the file first — and the
    /// file is synced, which makes the newest version durable before anything reuses its space.
    func settleNewest() throws {
        let all = try slots()
        guard let newest = all.first else { return }
        if lock.durableSlot == newest.slot.checksum { return }
        if all.count > 1 && !CommitRecord.verify(newest.slot, base: file.base, path: path) {
            try SetAside.keep(file, path: path, version: newest.slot.version)
            let zeros = [UInt8](repeating: 0, count: FileHeader.slotSize)
            try zeros.withUnsafeBytes { try file.write($0, at: UInt64(try layout().slotOffsets[newest.index])) }
            try file.sync()
            lock.noteRejected(version: newest.slot.version)
            lock.noteDurable(all[1].slot)
            return
        }
        try file.sync()
        lock.noteDurable(newest.slot)
    }

    /// Enters the ERROR state: a commit's barrier failed and its slot could not be put back, so
    /// the newest slot in the page cache may or may not reach the disk; or a failed transaction's
    /// rollback could not write back what it overwrote. Until every instance of the file in this
    /// process is closed, `refuseWritesInErrorState` throws.
    func enterErrorState(_ error: Error) {
        setWriteFailure(error)
    }

    /// Throws if the process's instances of this file are in the ERROR state.
    func refuseWritesInErrorState() throws {
        guard let failure = writeFailure else { return }
        let code: Int32
        if case RealmError.io(_, _, let failed, _) = failure { code = failed } else { code = EIO }
        throw RealmError.io(
            path: path, operation: "begin a write", errno: code,
            message:
                "an earlier commit failed and could not be undone, so what the file holds beside its last version is unknown (\(failure)); close every instance of this Realm and reopen it"
        )
    }
}
