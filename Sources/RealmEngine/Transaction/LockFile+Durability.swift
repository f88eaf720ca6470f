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
    private var rejectedCausePointer: UnsafeMutablePointer<UInt32> {
        (base + Layout.rejectedCauseOffset).assumingMemoryBound(to: UInt32.self)
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

    /// Why `rejectedVersion` was fallen back from (meaningful only when there is one).
    var rejectedCause: RejectedCause {
        RejectedCause(rawValue: rt_atomic_load32(rejectedCausePointer)) ?? .unverifiedCommit
    }

    /// Records that the newest commit, `version`, could not be verified, and why. The cause is
    /// stored first, so a reader that sees the version sees its cause.
    func noteRejected(version: UInt64, cause: RejectedCause = .unverifiedCommit) {
        rt_atomic_store32(rejectedCausePointer, cause.rawValue)
        rt_atomic_store64(rejectedPointer, version)
    }
}

/// Why the newest version was fallen back from (the lock file's rejected-cause word).
enum RejectedCause: UInt32 {
    /// The newest slot is valid but its commit did not verify (torn by a crash, or damaged):
    /// the rejected version is that slot's.
    case unverifiedCommit = 0
    /// A header slot was damaged (`FileHeader.damagedSlots`): it may have held the newest
    /// commit, whose version would be the rejected one (the kept version + 1).
    case damagedHeaderSlot = 1
}
