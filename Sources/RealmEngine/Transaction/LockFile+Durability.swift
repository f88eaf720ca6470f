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
    /// The file holds only versions older than one it had: the last session's latest version (or
    /// a rollback it reported) is newer than every slot of the file. The file, or the page of its
    /// newest header slot, was put back to an older copy — for an encrypted file also the newer
    /// copy of that page failing its HMAC, so the older copy is used (`EncryptedFile`). The
    /// rejected version is the newest the lock file knew.
    case rolledBack = 2
    /// An encrypted file's page holding the newest header slot has a written copy that fails
    /// its HMAC, and nothing says a newer version was ever acknowledged: a power loss while the
    /// page was written (the commit it belonged to never returned), or damage the file cannot
    /// tell from one. The older copy was read; the rejected version is the kept version + 1.
    /// Not damage (`check` warns), unlike `damagedHeaderSlot`, which a crash cannot cause.
    case unreadableSlotPage = 3
}

/// What the lock file left by the last session says about the database file, read by the first
/// opener before it rebuilds the lock file.
struct PreviousSession {
    /// The checksum of the header slot known durable then (0: unknown).
    var durableSlot: UInt64 = 0
    /// The newest version published then: durable, so the file must still hold it or a newer one.
    var latestVersion: UInt64 = 0
    var rejectedVersion: UInt64 = 0
    var rejectedCause: RejectedCause?

    /// `initial` (what the first opener found in the file), with a rollback noted: when the last
    /// session knew a version newer than any the file holds — its latest, or a rollback it
    /// reported itself and no commit has replaced since — that version is rejected as
    /// `rolledBack`, so that the fallback is as loud as a rejected newest commit. A file found
    /// empty (made anew at the path, the lock file outliving the old one) is not a rollback, and
    /// a rejection the opener found itself (a torn or damaged newest commit) stands.
    func notingRollback(of initial: LockFile.Initial) -> LockFile.Initial {
        let known = max(latestVersion, rejectedCause == .rolledBack ? rejectedVersion : 0)
        guard initial.latestVersion > 0, known > initial.latestVersion else { return initial }
        // A slot page the opener could not read (`unreadableSlotPage`) is a power loss only if
        // its version was never acknowledged: the last session knowing it makes it a rollback.
        guard known > initial.rejectedVersion || initial.rejectedCause == .unreadableSlotPage else { return initial }
        var noted = initial
        noted.rejectedVersion = known
        noted.rejectedCause = .rolledBack
        return noted
    }
}
