/// A set of node refs, for the writer's "written by this transaction" bookkeeping: a small
/// commit inserts, looks up and removes a few dozen refs, and `Set<UInt64>`'s seeded SipHash and
/// growth from empty cost more than the rest of those steps. Open addressing with linear probing
/// over a power-of-two table, a multiplicative hash of the ref, and backward-shift deletion (no
/// tombstones), kept at most half full.
///
/// The writer's refs are never 0 (0 means "no node"), so 0 marks an empty slot.
struct RefSet: Sequence {
    private var slots: [UInt64]
    /// Refs in the set.
    private(set) var count = 0

    /// An empty set with room for `capacity` refs before it grows.
    init(minimumCapacity capacity: Int = 32) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
    }

    var isEmpty: Bool { count == 0 }

    /// The home slot of `ref`: the top bits of its product with a 64-bit odd constant (refs are
    /// 8-aligned, so their low bits carry nothing).
    @inline(__always)
    private func home(_ ref: UInt64) -> Int {
        let bits = UInt64(slots.count.trailingZeroBitCount)
        return Int(truncatingIfNeeded: (ref &* 0x9E37_79B9_7F4A_7C15) >> (64 - bits))
    }

    /// The slot holding `ref`, or the empty slot where it would go.
    @inline(__always)
    private func slot(of ref: UInt64) -> Int {
        let mask = slots.count - 1
        var i = home(ref)
        while slots[i] != 0 && slots[i] != ref { i = (i + 1) & mask }
        return i
    }

    /// Whether `ref` is in the set (never 0, which may come from a damaged file).
    func contains(_ ref: UInt64) -> Bool {
        ref != 0 && slots[slot(of: ref)] == ref
    }

    /// Adds `ref`; false when it was there already.
    @discardableResult
    mutating func insert(_ ref: UInt64) -> Bool {
        precondition(ref != 0, "0 is not a node ref")
        let i = slot(of: ref)
        if slots[i] == ref { return false }
        if 2 * (count + 1) > slots.count {
            grow()
            slots[slot(of: ref)] = ref
        } else {
            slots[i] = ref
        }
        count += 1
        return true
    }

    /// Removes `ref`; false when it was not there.
    @discardableResult
    mutating func remove(_ ref: UInt64) -> Bool {
        guard ref != 0 else { return false }
        var hole = slot(of: ref)
        guard slots[hole] == ref else { return false }
        slots[hole] = 0
        count -= 1
        // Backward shift: move up every later entry of the run whose home does not lie
        // (cyclically) after the hole, so that lookups never stop early at it.
        let mask = slots.count - 1
        var j = hole
        while true {
            j = (j + 1) & mask
            let r = slots[j]
            if r == 0 { return true }
            let k = home(r)
            let staysPut = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j)
            if staysPut { continue }
            slots[hole] = r
            slots[j] = 0
            hole = j
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for r in old where r != 0 { slots[slot(of: r)] = r }
    }

    func makeIterator() -> LazyFilterSequence<[UInt64]>.Iterator {
        slots.lazy.filter { $0 != 0 }.makeIterator()
    }
}
