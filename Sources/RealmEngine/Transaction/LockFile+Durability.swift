import CShims

/// The lock file's two words about the database file's last commit (see the layout in
/// LockFile.swift and the crash table in Commit.swift): which header slot is known durable, and
/// which newest commit was found torn or damaged and fallen back from.
extension LockFile {
    private var durablePointer: UnsafeMutablePointer<UInt64> {
        (base + Layout.durableSlotOffset).assumingMemoryBound(to: UInt64.self)
    }
    private var rejectedPointer: UnsafeMutablePointer<UInt64> {
        (base + Layout.rejectedVersionOffset).assumingMemoryBound(to: UInt64.self)
    }

    /// The checksum of the newest header slot known durable (0: unknown). Written only by the
    /// writer, under the write lock; read by the next writer under the same lock.
    var durableSlot: UInt64 { rt_atomic_load64(durablePointer) }

    /// Records that `slot` is durable: its barrier returned, or a writer synced the file after
    /// finding it.
    func noteDurable(_ slot: FileHeader.Slot) {
        rt_atomic_store64(durablePointer, slot.checksum)
    }

    /// Forgets which slot is durable, as a writer that died before its barrier returned leaves it
    /// (tests use this to stage that).
    func forgetDurable() {
        rt_atomic_store64(durablePointer, 0)
    }

    /// The newest commit that could not be verified and was fallen back from, if any opener or
    /// writer of this session found one.
    var rejectedVersion: UInt64? {
        let v = rt_atomic_load64(rejectedPointer)
        return v == 0 ? nil : v
    }

    /// Records that the newest commit, `version`, could not be verified.
    func noteRejected(version: UInt64) {
        rt_atomic_store64(rejectedPointer, version)
    }
}
