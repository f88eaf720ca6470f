import CShims

/// Version pinning through the reader table (see the essay in LockFile.swift).
extension LockFile {
    /// The newest committed version, published by the writer after its commit is durable.
    var latestVersion: UInt64 { rt_atomic_load64(latestPointer) }

    /// Pins the newest version for a reader: claims a free slot, then runs LMDB's loop until the
    /// version stored in the slot is still the newest. Returns the slot (for `repin`/`unpin`) and
    /// the pinned version.
    ///
    /// - Throws: `.busy` if every slot is held by a live process, even after reclaiming the slots
    ///   of dead ones.
    func pinLatest() throws -> (slot: Int, version: UInt64) {
        guard let slot = readers.claim() ?? (readers.reclaimDead() > 0 ? readers.claim() : nil) else {
            throw RealmError.busy(
                "\(path): all \(slotCount) reader slots are in use by live processes; close unused Realm instances or frozen snapshots"
            )
        }
        slotGuard.withLock { ownedSlots[slot] = true }
        return (slot, readers.pin(slot))
    }

    /// Moves a slot pinned by this instance to the newest version (the same loop) and returns it.
    func repin(slot: Int) -> UInt64 {
        assert(ownsSlot(slot), "repin of a slot this LockFile did not pin")
        return readers.pin(slot)
    }

    /// Pins the newest version in the *ahead* word of a slot this instance holds (LMDB's loop),
    /// beside the version the slot keeps pinning, and returns it: the caller opens that version
    /// and then moves the slot to it (`advance`) or gives up (`dropAhead`). While it opens it,
    /// both versions are pinned: a writer reuses space only when no pinned version reaches it,
    /// not only when the oldest does not (`FreeSpace`, invariant 2), so the older pin alone
    /// would not keep a newer version whole.
    func pinAhead(slot: Int) -> UInt64 {
        assert(ownsSlot(slot), "pinAhead of a slot this LockFile did not pin")
        return readers.pin(readers.aheadPointer(slot))
    }

    /// Moves a slot pinned by this instance forward to `version`, which the caller pinned ahead
    /// (`pinAhead`) and opened: the version word first, then the ahead word is cleared, so a
    /// writer, which reads them in the other order, always sees `version` in one of them.
    /// Never moves a slot backward.
    func advance(slot: Int, to version: UInt64) {
        assert(ownsSlot(slot), "advance of a slot this LockFile did not pin")
        assert(rt_atomic_load64(readers.versionPointer(slot)) <= version, "a reader slot moved to an older version")
        assert(
            rt_atomic_load64(readers.aheadPointer(slot)) == version,
            "a reader slot moved to a version it did not pin ahead")
        rt_atomic_store64(readers.versionPointer(slot), version)
        rt_atomic_store64(readers.aheadPointer(slot), ReaderTable.noVersion)
    }

    /// Gives up a version pinned ahead (it failed to open); the slot keeps its own version.
    func dropAhead(slot: Int) {
        assert(ownsSlot(slot), "dropAhead of a slot this LockFile did not pin")
        rt_atomic_store64(readers.aheadPointer(slot), ReaderTable.noVersion)
    }

    /// Releases a slot pinned by this instance.
    func unpin(slot: Int) {
        let owned = slotGuard.withLock {
            guard slot >= 0, slot < slotCount, ownedSlots[slot] else { return false }
            ownedSlots[slot] = false
            return true
        }
        assert(owned, "unpin of a slot this LockFile did not pin")
        if owned { readers.release(slot) }
    }

    /// The oldest version any live reader holds, or nil if none. Reclaims the slots of dead
    /// processes as it goes. The writer must not reuse pages freed by commits after this version
    /// (and with nil, after `latestVersion`) unless it knows no pinned version reaches them.
    func oldestPinnedVersion() -> UInt64? { readers.oldestPinned() }

    /// Every version a live reader holds (moving forward: both), ascending. Reclaims the slots
    /// of dead processes as it goes. The writer reuses space only when none of them, and not
    /// `latestVersion` either, reaches it (`FreeSpace`, invariant 2).
    func pinnedVersions() -> [UInt64] { readers.pinnedVersions() }

    /// The occupied slots, for diagnostics (`realmtui info`) and tests: owner pid and pinned
    /// version (nil while claimed but not yet pinned).
    func occupiedReaderSlots() -> [(slot: Int, pid: Int32, version: UInt64?)] {
        (0..<slotCount).compactMap { slot in
            let owner = rt_atomic_load64(readers.ownerPointer(slot))
            guard owner != 0 else { return nil }
            let version = rt_atomic_load64(readers.versionPointer(slot))
            return (slot, Int32(truncatingIfNeeded: owner), version == ReaderTable.noVersion ? nil : version)
        }
    }

    func ownsSlot(_ slot: Int) -> Bool {
        slotGuard.withLock { slot >= 0 && slot < slotCount && ownedSlots[slot] }
    }
}
