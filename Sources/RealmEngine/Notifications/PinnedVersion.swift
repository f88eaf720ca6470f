#if canImport(Glibc)
    import Glibc
#endif
import CShims

/// A version held open for notifications: a reader slot pinning it and its snapshot. Shared by
/// reference (a change set being delivered and every registration whose last delivered state is
/// this version hold the same object); the slot is released when the last holder lets go, from
/// whatever thread that is.
///
/// Holding the last delivered version pinned does two things: its snapshot stays readable (old
/// values for object notifications), and the change log keeps every record after it (the log
/// is trimmed only up to the oldest pinned version), so change sets are exact rather than
/// "everything may have changed".
final class PinnedVersion: @unchecked Sendable {
    // Immutable after init; Snapshot of a committed version is never mutated.
    let shared: SharedFile
    let slot: Int
    let snapshot: Snapshot
    var version: UInt64 { snapshot.version }

    private init(shared: SharedFile, slot: Int, snapshot: Snapshot) {
        self.shared = shared
        self.slot = slot
        self.snapshot = snapshot
    }

    /// Pins the newest version.
    static func newest(_ shared: SharedFile) throws -> PinnedVersion {
        let (slot, snapshot) = try shared.pinNewest(slot: nil)
        return PinnedVersion(shared: shared, slot: slot, snapshot: snapshot)
    }

    /// Pins the version of `snapshot`, which a Realm instance of this process holds right now.
    static func holding(_ snapshot: Snapshot, in shared: SharedFile) throws -> PinnedVersion {
        PinnedVersion(shared: shared, slot: try shared.lock.pinHeld(version: snapshot.version), snapshot: snapshot)
    }

    deinit { shared.lock.unpin(slot: slot) }
}

extension LockFile {
    /// Claims a slot and pins exactly `version`, which another slot of this process holds (so
    /// the writer cannot have reused its pages, and cannot until this pin is released: it scans
    /// every slot before reusing space). Not LMDB's loop: the version need not be the newest.
    func pinHeld(version: UInt64) throws -> Int {
        guard let slot = readers.claim() ?? (readers.reclaimDead() > 0 ? readers.claim() : nil) else {
            throw RealmError.busy(
                "\(path): all \(slotCount) reader slots are in use by live processes; close unused Realm instances or stop observers"
            )
        }
        slotGuard.withLock { ownedSlots[slot] = true }
        rt_atomic_store64(readers.versionPointer(slot), version)
        return slot
    }

    /// Moves a slot of this process to exactly `version`, which another slot of this process
    /// holds (see `pinHeld`).
    func repinHeld(slot: Int, version: UInt64) {
        assert(ownsSlot(slot), "repin of a slot this LockFile did not pin")
        rt_atomic_store64(readers.versionPointer(slot), version)
    }
}
