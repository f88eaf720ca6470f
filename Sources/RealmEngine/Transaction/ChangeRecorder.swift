/// What a transaction changed, per class: the input of change notifications and of the change
/// log kept in the file.
///
/// New objects get ascending keys, so the objects a transaction inserted into a class are the
/// keys from its first insert to its last, minus those it deleted again: recording an insert
/// costs two stores, not a hash-set insert.
///
/// Bulk writes (`Results.setValue`, `Realm.delete(results)`) touch up to millions of objects
/// at once, so recording must not cost a hash operation per object while the transaction runs:
/// - a deleted object can never come back (keys are not reused), so deletions are a plain
///   array, appended to, and sorted once when the change log asks for them;
/// - a bulk modification is kept as one sorted key array and a column mask; the per-key
///   dictionary the change log reads is built once, at its full size, when it is asked for.
///   Objects deleted after being modified are left out then (a key that was deleted is never
///   modified again), which is what removing them from the dictionary at delete time did.
struct ChangeRecorder {
    struct ClassChanges {
        /// The first and last key inserted by this transaction (`firstNew > lastNew`: none).
        var firstNew: Int64 = .max
        var lastNew: Int64 = .min
        /// Inserted keys that were deleted again.
        var deletedNew = Set<Int64>()
        /// Objects (not inserted in this transaction) deleted, in the order of deletion; each
        /// once, since an object is deleted at most once.
        var deletedKeys: [Int64] = []
        /// Modified objects (not inserted in this transaction), one at a time, and a bitmask of
        /// the columns that changed (bit 63 stands for column 63 and later, as in the change log).
        var modifiedSingles: [Int64: UInt64] = [:]
        /// Bulk modifications: ascending keys (none inserted in this transaction) and the mask.
        var modifiedRuns: [(keys: [Int64], mask: UInt64)] = []

        func isNew(_ key: Int64) -> Bool {
            key >= firstNew && key <= lastNew && !deletedNew.contains(key)
        }

        /// The deleted objects (not inserted in this transaction), ascending.
        var deleted: [Int64] {
            // Bulk deletes append in key order: then there is nothing to sort.
            var i = 1
            while i < deletedKeys.count && deletedKeys[i - 1] < deletedKeys[i] { i += 1 }
            return i >= deletedKeys.count ? deletedKeys : deletedKeys.sorted()
        }

        /// Modified objects still present and not inserted in this transaction, with the
        /// bitmask of the columns that changed.
        var modified: [Int64: UInt64] {
            if modifiedRuns.isEmpty && deletedKeys.isEmpty { return modifiedSingles }
            var out = modifiedSingles
            out.reserveCapacity(modifiedSingles.count + modifiedRuns.reduce(0) { $0 + $1.keys.count })
            for run in modifiedRuns {
                for k in run.keys { out[k, default: 0] |= run.mask }
            }
            if !out.isEmpty {
                for k in deletedKeys { out.removeValue(forKey: k) }
            }
            return out
        }
    }
    var classes: [Int: ClassChanges] = [:]
    /// Set when every object of some class may have changed (schema change, migration).
    var everything = false

    var isEmpty: Bool { classes.isEmpty && !everything }

    /// Changes one class's record in place (one hash lookup).
    private mutating func update(_ c: Int, _ body: (inout ClassChanges) -> Void) {
        body(&classes[c, default: ClassChanges()])
    }

    mutating func insert(_ c: Int, _ key: Int64) {
        update(c) { ch in
            ch.firstNew = Swift.min(ch.firstNew, key)
            ch.lastNew = Swift.max(ch.lastNew, key)
        }
    }

    mutating func delete(_ c: Int, _ key: Int64) {
        update(c) { ch in
            if ch.isNew(key) {
                ch.deletedNew.insert(key)
            } else {
                ch.deletedKeys.append(key)
            }
        }
    }

    /// Records the deletion of every key of `keys` (each present until now).
    mutating func delete(_ c: Int, keys: [Int64]) {
        update(c) { ch in
            guard ch.firstNew <= ch.lastNew else {
                // The first deletion takes the array as it is (no copy).
                if ch.deletedKeys.isEmpty { ch.deletedKeys = keys } else { ch.deletedKeys.append(contentsOf: keys) }
                return
            }
            for key in keys {
                if ch.isNew(key) { ch.deletedNew.insert(key) } else { ch.deletedKeys.append(key) }
            }
        }
    }

    mutating func modify(_ c: Int, _ key: Int64, column: Int) {
        update(c) { ch in
            if !ch.isNew(key) { ch.modifiedSingles[key, default: 0] |= Self.mask(column) }
        }
    }

    /// Records that `column` changed on every object of `keys` (ascending, each present).
    mutating func modify(_ c: Int, keys: [Int64], column: Int) {
        guard !keys.isEmpty else { return }
        update(c) { ch in
            let noneNew = ch.firstNew > ch.lastNew || keys[keys.count - 1] < ch.firstNew || keys[0] > ch.lastNew
            let old = noneNew ? keys : keys.filter { !ch.isNew($0) }
            if !old.isEmpty { ch.modifiedRuns.append((old, Self.mask(column))) }
        }
    }

    /// The bit of `column` in a column mask: bit 63 stands for column 63 and every later one.
    static func mask(_ column: Int) -> UInt64 { 1 << UInt64(Swift.min(column, 63)) }

    /// Whether a column mask says `column` may have changed (a superset from column 63 on).
    static func mask(_ mask: UInt64, includes column: Int) -> Bool { mask & Self.mask(column) != 0 }
}
/// Key runs, as the change log stores them: `(first key, count, column mask)` for consecutive
/// keys with the same mask. Built straight from the recorder, so encoding a commit's record
/// costs no per-key hashing or sorting in the usual cases (one bulk modification, an insert
/// range, deletions in key order).
extension ChangeRecorder.ClassChanges {
    typealias Run = (first: Int64, count: Int64, mask: UInt64)

    /// Appends `key` (ascending) to `runs`.
    private static func add(_ key: Int64, _ mask: UInt64, to runs: inout [Run]) {
        if let last = runs.last, last.mask == mask, last.first &+ last.count == key {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((key, 1, mask))
        }
    }

    /// The inserted objects still present, as runs (the insert range split at re-deleted keys).
    var insertedRuns: [Run] {
        guard firstNew <= lastNew else { return [] }
        var out: [Run] = []
        var start = firstNew
        for gone in deletedNew.sorted() where gone >= start && gone <= lastNew {
            if gone > start { out.append((start, gone - start, 0)) }
            start = gone + 1
        }
        if start <= lastNew { out.append((start, lastNew - start + 1, 0)) }
        return out
    }

    /// Ascending keys read as runs of consecutive keys.
    struct KeyRuns {
        let keys: [Int64]
        /// The number of runs.
        let count: Int

        init(_ keys: [Int64]) {
            self.keys = keys
            count = keys.withUnsafeBufferPointer { k in
                guard !k.isEmpty else { return 0 }
                var n = 1  // a run starts at the first key and at each key that does not follow the one before
                for i in 1..<k.count where k[i] != k[i - 1] &+ 1 { n += 1 }
                return n
            }
        }

        var isEmpty: Bool { count == 0 }

        /// Calls `body` with each run's first key and length, in order.
        func forEach(_ body: (Int64, Int64) -> Void) {
            keys.withUnsafeBufferPointer { k in
                guard var first = k.first else { return }
                var length: Int64 = 0
                for key in k {
                    if first &+ length != key {
                        body(first, length)
                        first = key
                        length = 0
                    }
                    length += 1
                }
                body(first, length)
            }
        }
    }

    /// The modified objects still present, as runs with their column masks; `gone` is
    /// `deleted`, which the caller has at hand.
    func modifiedRunList(deleted gone: [Int64]) -> [Run] {
        var out: [Run] = []
        if modifiedSingles.isEmpty, modifiedRuns.count == 1 {
            // One bulk modification: its keys are ascending; leave out those deleted since.
            let run = modifiedRuns[0]
            var g = 0
            for k in run.keys {
                while g < gone.count && gone[g] < k { g += 1 }
                if g < gone.count && gone[g] == k { continue }
                Self.add(k, run.mask, to: &out)
            }
            return out
        }
        for (k, mask) in modified.sorted(by: { $0.key < $1.key }) { Self.add(k, mask, to: &out) }
        return out
    }
}
