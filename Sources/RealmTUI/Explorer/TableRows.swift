import RealmEngine

/// A table's window onto its live `Results`: the count and the keys of the rows on screen,
/// cached for the version they were read at, so drawing a frame reads a screen of objects and a
/// key press that does not move the window reads nothing.
///
/// A reference (shared by copies of the state, as the `Results` it wraps): caching is not state.
final class TableRows {
    /// What the table shows, in order.
    let results: Results
    /// The same objects unordered: counting them never sorts.
    let counted: Results
    private var countCache: (stamp: UInt64, count: Int)?
    private var windowCache: (stamp: UInt64, range: Range<Int>, keys: [ObjectKey])?
    /// The values of the rows on screen just before the Realm last moved (`rememberValues`),
    /// per property (nil for linking objects and unreadable values): what a modified row showed,
    /// to find which of its cells changed.
    private var remembered: [ObjectKey: [Value?]] = [:]
    /// The last layout drawn, for the version, window and size it was made for.
    let layouts = LayoutMemo<TableLayout.Key, TableLayout>()

    init(results: Results, counted: Results) {
        self.results = results
        self.counted = counted
    }

    /// The version the caches belong to; nil inside a write transaction (nothing is cached).
    private var stamp: UInt64? {
        results.realm.isInWriteTransaction ? nil : results.realm.version
    }

    /// The number of objects (0 when they cannot be counted: `checkedCount()` says why, and
    /// the table shows that error instead of an empty class).
    var count: Int { (try? checkedCount()) ?? 0 }

    /// The number of objects, or the error that stopped counting them (a damaged class).
    func checkedCount() throws -> Int {
        if let stamp, let countCache, countCache.stamp == stamp { return countCache.count }
        let count = try counted.checkedCount()
        if let stamp { countCache = (stamp, count) }
        return count
    }

    /// The objects at positions `range` (clamped); nil where an object cannot be read.
    func objects(in range: Range<Int>) throws -> [DynamicObject?] {
        guard !range.isEmpty else { return [] }
        let keys = try self.keys(in: range)
        let className = results.objectSchema.name
        return keys.map { try? results.realm.object(ofType: className, key: $0) }
    }

    /// The object at `position`.
    func object(at position: Int) throws -> DynamicObject {
        guard let key = try keys(in: position..<(position + 1)).first,
            let object = try results.realm.object(ofType: results.objectSchema.name, key: key)
        else {
            throw RealmError.indexOutOfRange(index: position, count: count)
        }
        return object
    }

    private func keys(in range: Range<Int>) throws -> [ObjectKey] {
        if let stamp, let windowCache, windowCache.stamp == stamp,
            windowCache.range.lowerBound <= range.lowerBound, range.upperBound <= windowCache.range.upperBound
        {
            let start = range.lowerBound - windowCache.range.lowerBound
            let end = min(windowCache.keys.count, range.upperBound - windowCache.range.lowerBound)
            return start < end ? Array(windowCache.keys[start..<end]) : []
        }
        // Read a little around the window so the next few moves are served from the cache; a
        // sorted window grows from the top (a top-k pass), so keep the whole prefix.
        let margin = max(64, range.count)
        let fetched: Range<Int>
        if range.upperBound <= Results.windowedSortLimit / 2 && range.lowerBound < 4 * margin {
            fetched = 0..<max(2 * range.upperBound, 256)
        } else {
            fetched = max(0, range.lowerBound - margin)..<(range.upperBound + margin)
        }
        let keys = try results.keys(in: fetched)
        if let stamp { windowCache = (stamp, fetched, keys) }
        let start = range.lowerBound - fetched.lowerBound
        let end = min(keys.count, range.upperBound - fetched.lowerBound)
        return start < end ? Array(keys[start..<end]) : []
    }

    /// Remembers the values of the rows at `range` (the window on screen), before the Realm
    /// moves to a newer version: O(window). Forgets what was remembered before.
    func rememberValues(in range: Range<Int>) {
        remembered = [:]
        let window = range.clamped(to: 0..<max(0, count))
        guard let objects = try? objects(in: window) else { return }
        for case let object? in objects { remembered[object.key] = Self.values(of: object) }
    }

    /// The properties (indices into the schema's) of object `key` whose values differ from the
    /// ones remembered before the Realm moved; nil when the object was not on screen then (or
    /// cannot be read now).
    func changedProperties(of key: ObjectKey) -> Set<Int>? {
        guard let before = remembered[key],
            let object = try? results.realm.object(ofType: results.objectSchema.name, key: key)
        else { return nil }
        let after = Self.values(of: object)
        return Set(after.indices.filter { before.indices.contains($0) && !Value.identical(before[$0], after[$0]) })
    }

    /// An object's values per property; nil for linking objects (not stored in the object) and
    /// for a value that cannot be read.
    static func values(of object: DynamicObject) -> [Value?] {
        object.objectSchema.properties.map { property in
            property.type == .linkingObjects ? nil : try? object.value(forKey: property.name)
        }
    }
}
