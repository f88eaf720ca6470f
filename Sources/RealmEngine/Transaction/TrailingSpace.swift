/// Giving trailing free space back (issue 30): after large deletes the end of the file is free
/// space that no version needs; a commit cuts it off.
///
/// Two steps, two commits apart, because the file must always hold what *both* header slots
/// name (`FileHeader.checkNotTruncated` refuses a file shorter than either slot's logical size:
/// that is how a file cut short by accident is told from a torn commit):
/// 1. **Trim** (a commit's step 2, before its free list is written): when the free extents that
///    run up to the logical end are reusable — no pinned version, in any process, reaches them
///    (`FreeSpace`, invariant 2: the base version and every reader's pin from the lock file) —
///    and there are at least `threshold` bytes of them, the commit's logical size moves down
///    past them and they leave the free list. Nothing is written there; the new slot simply
///    names the smaller size.
/// 2. **Cut** (step 4b, after the commit's barrier returned, still under the write lock): the
///    file is truncated to the larger of the two slots' logical sizes (and never below the
///    header), rounded up to a page, when that frees at least `threshold` bytes. Both slots are
///    durable then (the new one by this commit's barrier, the base by the commit protocol's
///    step 1), so whichever slot an open picks, it names nothing past the cut; readers pin only
///    those versions or versions whose nodes lie below the trimmed sizes (a trimmed extent was
///    reusable, so no pinned version reaches it).
///
/// So the space a commit frees is given back two commits after it becomes reusable: the trim
/// needs the versions that reached it to be unpinned, the cut needs the slot naming the old
/// size to be overwritten. A crash anywhere leaves the file at its old size or the cut one,
/// and both hold both slots (an `ftruncate` that is not durable yet is either). A cut that
/// fails is ignored: the commit was durable before it was tried.
///
/// The cut is tried only when the file is known to be larger than needed — the slot this
/// commit overwrote named more (the file holds at least what any slot named: every cut keeps
/// both), or this process's writer knows the size — so commits take no `fstat` otherwise
/// (`Commit.swift`). Other processes learn of a cut before they write: a writer trusts the size
/// it saw only when no other process committed since (`DatabaseFile.writerKnownSize`).
enum TrailingSpace {
    /// The least a trim or a cut gives back, and the share of the file it must be at least:
    /// growth adds at most a quarter of the file (`TreeWriter.ensureSize`), so a cut never takes
    /// back the room a growth just made.
    static func threshold(_ size: UInt64) -> UInt64 { max(1 << 20, size / 4) }

    /// The cut's alignment: the file ends on a page boundary (the encrypted layer's page too).
    static let alignment: UInt64 = 4096

    /// The size to cut to when the file must hold `needed` bytes (and `header` at least).
    static func target(needed: UInt64, header: Int) -> UInt64 {
        let size = max(needed, UInt64(header))
        return (size + alignment - 1) / alignment * alignment
    }
}

extension WriteTransaction {
    /// Step 1: trims the logical end of the version being committed.
    func trimTrailingFreeSpace() {
        writer.free.trimTrailing(atLeast: TrailingSpace.threshold(writer.free.logicalSize))
    }

    /// The logical size the slot about to be overwritten names (0 when it holds no valid slot).
    func overwrittenLogicalSize(_ header: FileHeader.Layout) -> UInt64 {
        let offset = header.slotOffsets[1 - baseSlotIndex]
        let raw = UnsafeRawBufferPointer(start: shared.file.base + offset, count: FileHeader.slotSize)
        return FileHeader.Slot.decode(raw)?.logicalSize ?? 0
    }

    /// Step 2 (after the barrier of `slot`): cuts the file to what both slots need when that
    /// gives back at least the threshold. `overwritten`: what the slot `slot` replaced named.
    func giveBackTrailingSpace(_ slot: FileHeader.Slot, overwritten: UInt64) {
        guard let header = try? shared.layout() else { return }
        let target = TrailingSpace.target(needed: max(slot.logicalSize, baseLogicalSize), header: header.size)
        // A lower bound of the file's size, known without an fstat.
        let atLeast = max(overwritten, writer.physicalSize)
        guard atLeast >= target + TrailingSpace.threshold(atLeast) else { return }
        guard let size = try? shared.file.physicalSize(), size >= target + TrailingSpace.threshold(size) else { return }
        // A failed cut leaves the file as it was (ftruncate changes all or nothing), and the
        // commit stands: it was durable before.
        try? shared.file.truncate(to: target)
    }
}
