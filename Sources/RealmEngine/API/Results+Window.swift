extension Results {
    /// The keys at result positions `range` (clamped to the result), reading only what the window
    /// needs where the query allows it, so a screen of a 10,000,000-object result costs a screen:
    /// - a whole class: each key found by subtree counts;
    /// - one predicate on the class's own scalars, unsorted: leaves before the window are counted,
    ///   not listed, and the scan stops at the window's end;
    /// - a class sorted, whole or filtered: the first `range.upperBound` objects by a bounded
    ///   top-k pass (over the filter's keys), so a sorted screen never waits for a full sort.
    /// Any other result is evaluated whole once (then cached, as `keys()`).
    public func keys(in range: Range<Int>) throws -> [ObjectKey] {
        try realm.checkThread()
        let lower = Swift.max(0, range.lowerBound)
        guard range.upperBound > lower else { return [] }
        let version = try realm.readable
        if query.isWholeClass { return try version.keys(classIndex: classIndex, in: lower..<range.upperBound) }
        let stamp = (version.version, realm.mutationCount)
        if cache == nil || cacheStamp != stamp {
            if let predicate = query.onlyPredicate,
                let window = try version.window(matching: predicate, skip: lower, limit: range.upperBound - lower)
            {
                return window
            }
            if query.isSortedTable, range.upperBound <= Results.windowedSortLimit {
                let prefix = try limit(range.upperBound).keys()
                return lower < prefix.count ? Array(prefix[lower..<Swift.min(prefix.count, range.upperBound)]) : []
            }
        }
        let all = try keys()
        return lower < all.count ? Array(all[lower..<Swift.min(all.count, range.upperBound)]) : []
    }

    /// Past this many leading objects, a sorted window sorts the whole result instead of a
    /// bounded top-k pass (a bounded pass costs O(n log k); a full sort is then cheaper, and cached).
    public static let windowedSortLimit = 100_000
}
