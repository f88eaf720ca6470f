#if canImport(Glibc)
    import Glibc
#endif
import CShims

/// The reader slots of a lock file's mapping: {owner pid, pinned version, version being moved
/// to} triples, one per cache line. The protocol (claim by compare-and-swap, LMDB's pin loop, reclaiming dead owners) is
/// explained in the essay at the top of LockFile.swift. Every access is a sequentially consistent
/// atomic through the C shims, because other processes read and write the same words.
struct ReaderTable {
    /// The version word of a slot that is free or claimed but not yet pinned.
    static let noVersion = UInt64.max

    let slots: UnsafeMutableRawPointer
    let count: Int
    let latest: UnsafeMutablePointer<UInt64>
    /// This process's pid, and the owner word it writes into the slots it claims.
    let pid: Int32
    let fd: Int32
    /// The lock file's path, for `SystemCalls` (tests aim injected faults by it).
    var path = ""

    var ownerWord: UInt64 { UInt64(UInt32(bitPattern: pid)) }

    func ownerPointer(_ slot: Int) -> UnsafeMutablePointer<UInt64> {
        (slots + slot * LockFile.Layout.slotSize).assumingMemoryBound(to: UInt64.self)
    }

    func versionPointer(_ slot: Int) -> UnsafeMutablePointer<UInt64> {
        (slots + slot * LockFile.Layout.slotSize + 8).assumingMemoryBound(to: UInt64.self)
    }

    /// The version a reader is moving its slot to (`LockFile.pinAhead`), pinned too while it
    /// opens it; `noVersion` otherwise.
    func aheadPointer(_ slot: Int) -> UnsafeMutablePointer<UInt64> {
        (slots + slot * LockFile.Layout.slotSize + 16).assumingMemoryBound(to: UInt64.self)
    }

    /// Claims a free slot for this process, or returns nil if every slot is taken.
    func claim() -> Int? {
        // Start at a pid-dependent place so that processes do not all race for slot 0.
        let start = Int(UInt32(bitPattern: pid)) % count
        for step in 0..<count {
            let slot = (start + step) % count
            let owner = ownerPointer(slot)
            if rt_atomic_load64(owner) == 0, rt_atomic_cas64(owner, 0, ownerWord) != 0 {
                return slot
            }
        }
        return nil
    }

    /// LMDB's loop: publish v in the slot, then make sure v is still the newest version.
    @discardableResult
    func pin(_ slot: Int) -> UInt64 { pin(versionPointer(slot)) }

    /// The same loop on any of a slot's version words.
    func pin(_ word: UnsafeMutablePointer<UInt64>) -> UInt64 {
        while true {
            let version = rt_atomic_load64(latest)
            rt_atomic_store64(word, version)
            if rt_atomic_load64(latest) == version { return version }
        }
    }

    /// Frees a slot: the versions first, so a free slot never carries a pin.
    func release(_ slot: Int) {
        rt_atomic_store64(versionPointer(slot), Self.noVersion)
        rt_atomic_store64(aheadPointer(slot), Self.noVersion)
        rt_atomic_store64(ownerPointer(slot), 0)
    }

    /// Is the process `owner` still using this lock file? See "Liveness" in the essay.
    func isAlive(owner: UInt64, cache: inout [(owner: UInt64, alive: Bool)]) -> Bool {
        if owner == ownerWord || fd < 0 { return true }
        if let known = cache.first(where: { $0.owner == owner }) { return known.alive }
        let alive: Bool
        if owner == 0 || owner > UInt64(Int32.max) {
            alive = false  // not a pid at all: garbage
        } else {
            let otherPid = Int32(owner)
            switch SystemCalls.testLock(fd, byte: LockFile.Layout.livenessLockBase + Int(otherPid), path: path) {
            case 1: alive = true
            case 0: alive = false
            default: alive = kill(otherPid, 0) == 0 || errno != ESRCH
            }
        }
        cache.append((owner, alive))
        return alive
    }

    /// Frees `slot` if its owner is still `deadOwner`. Only one reclaimer wins the swap; while it
    /// works the slot shows its own (live) pid and the stale version, which is merely cautious.
    func reclaim(_ slot: Int, deadOwner: UInt64) -> Bool {
        guard rt_atomic_cas64(ownerPointer(slot), deadOwner, ownerWord) != 0 else { return false }
        release(slot)
        return true
    }

    /// The first claimed slot (owner word not 0) at or after `slot`, with its owner; nil past the
    /// last. Every write transaction scans the whole table, which is mostly empty: a pointer walk
    /// over the owner words, four slots a step while all four are free. (Each word is read
    /// atomically on its own; a slot claimed just after its read is missed exactly as a one-by-one
    /// scan would miss it — see "Readers" and "Why this is enough" in LockFile.swift.)
    private func nextClaimed(from slot: Int) -> (slot: Int, owner: UInt64)? {
        let stride = LockFile.Layout.slotSize
        var p = slots + slot * stride
        let end = slots + count * stride
        func owner(_ q: UnsafeMutableRawPointer) -> UInt64 { rt_atomic_load64(q.assumingMemoryBound(to: UInt64.self)) }
        while p < end {
            if end - p >= 4 * stride, owner(p) | owner(p + stride) | owner(p + 2 * stride) | owner(p + 3 * stride) == 0
            {
                p += 4 * stride
                continue
            }
            let owner = owner(p)
            if owner != 0 { return ((p - slots) / stride, owner) }
            p += stride
        }
        return nil
    }

    /// Frees every slot whose owner is dead. Returns how many were freed.
    @discardableResult
    func reclaimDead() -> Int {
        var cache: [(owner: UInt64, alive: Bool)] = []
        var freed = 0
        var next = 0
        while let (slot, owner) = nextClaimed(from: next) {
            next = slot + 1
            if !isAlive(owner: owner, cache: &cache), reclaim(slot, deadOwner: owner) { freed += 1 }
        }
        return freed
    }

    /// Every version pinned by a live owner, ascending and without repeats, reclaiming dead
    /// owners' slots on the way. Reads a slot's ahead word before its version word: a reader
    /// moving forward stores the version word before it clears the ahead word
    /// (`LockFile.advance`), so one of the two loads sees the new version.
    func pinnedVersions() -> [UInt64] {
        var cache: [(owner: UInt64, alive: Bool)] = []
        var pins: [UInt64] = []
        var next = 0
        while let (slot, owner) = nextClaimed(from: next) {
            next = slot + 1
            if !isAlive(owner: owner, cache: &cache) {
                _ = reclaim(slot, deadOwner: owner)
                continue
            }
            let ahead = rt_atomic_load64(aheadPointer(slot))
            let version = rt_atomic_load64(versionPointer(slot))
            if ahead != Self.noVersion { pins.append(ahead) }
            if version != Self.noVersion { pins.append(version) }
        }
        pins.sort()
        var unique: [UInt64] = []
        unique.reserveCapacity(pins.count)
        for p in pins where unique.last != p { unique.append(p) }
        return unique
    }

    /// The smallest pinned version among live owners, reclaiming dead owners' slots on the way.
    func oldestPinned() -> UInt64? { pinnedVersions().first }
}
