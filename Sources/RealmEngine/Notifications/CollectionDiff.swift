/// The index changes between two versions of a collection, as Realm reports them: deletions and
/// modifications are indices in the old collection, insertions indices in the new one, each
/// ascending. Removing the deletions (high to low) and then inserting the insertions (low to
/// high) turns the old collection into the new one.
public struct CollectionChangeSet: Equatable, Sendable {
    public var deletions: [Int] = []
    public var insertions: [Int] = []
    public var modifications: [Int] = []

    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }
}

enum CollectionDiff {
    /// Computes the change set from `old` to `new` (keys may repeat, as in lists).
    ///
    /// Occurrences are matched in order (the i-th occurrence of a key in `old` to its i-th
    /// occurrence in `new`); of the matched pairs, the longest run that keeps its relative order
    /// stays in place, and every other element is a deletion plus an insertion (so an object that
    /// moves in a sorted result is reported as both). Common prefixes and suffixes are skipped
    /// first, so a change in a large collection costs about its distance from the ends plus the
    /// size of the moved middle, and nothing when the keys are equal.
    ///
    /// `modified` (nil: everything) selects the modifications: old indices whose object is still
    /// in the collection.
    static func compute(old: [ObjectKey], new: [ObjectKey], modified: Set<ObjectKey>?) -> CollectionChangeSet {
        var out = CollectionChangeSet()
        let common = min(old.count, new.count)
        var prefix = 0
        while prefix < common && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < common - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMid = prefix..<(old.count - suffix)
        let newMid = prefix..<(new.count - suffix)
        if !oldMid.isEmpty || !newMid.isEmpty {
            // Match occurrences.
            var positions: [ObjectKey: [Int]] = [:]
            positions.reserveCapacity(newMid.count)
            for j in newMid.reversed() { positions[new[j], default: []].append(j) }
            var pairs: [(old: Int, new: Int)] = []
            pairs.reserveCapacity(min(oldMid.count, newMid.count))
            for i in oldMid {
                if var list = positions[old[i]], let j = list.popLast() {
                    positions[old[i]] = list.isEmpty ? nil : list
                    pairs.append((i, j))
                }
            }
            let kept = longestIncreasing(pairs)
            var keptOld = Set<Int>(minimumCapacity: kept.count)
            var keptNew = Set<Int>(minimumCapacity: kept.count)
            for p in kept {
                keptOld.insert(p.old)
                keptNew.insert(p.new)
            }
            out.deletions = oldMid.filter { !keptOld.contains($0) }
            out.insertions = newMid.filter { !keptNew.contains($0) }
        }
        // Modifications: old indices whose object is modified and still present.
        if let modified {
            if !modified.isEmpty {
                let present: Set<ObjectKey>
                if modified.count <= 8 {
                    present = modified.filter { new.contains($0) }
                } else {
                    let newSet = Set(new)
                    present = modified.filter { newSet.contains($0) }
                }
                if present.count <= 8 {
                    // A few keys: comparing is much cheaper than hashing every element.
                    let few = Array(present)
                    for i in old.indices where few.contains(old[i]) { out.modifications.append(i) }
                } else {
                    for (i, k) in old.enumerated() where present.contains(k) { out.modifications.append(i) }
                }
            }
        } else {
            let newSet = Set(new)
            for (i, k) in old.enumerated() where newSet.contains(k) { out.modifications.append(i) }
        }
        return out
    }

    /// The longest subsequence of `pairs` (ordered by `old`) whose `new` indices increase:
    /// patience sorting, O(n log n).
    static func longestIncreasing(_ pairs: [(old: Int, new: Int)]) -> [(old: Int, new: Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []  // index into pairs of the smallest tail of each length
        var previous = [Int](repeating: -1, count: pairs.count)
        for (i, p) in pairs.enumerated() {
            var lo = 0
            var hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[tails[mid]].new < p.new { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out: [(old: Int, new: Int)] = []
        var i = tails.last!
        while i >= 0 {
            out.append(pairs[i])
            i = previous[i]
        }
        return out.reversed()
    }
}
