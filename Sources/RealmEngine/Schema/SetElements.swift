/// The stored form of a set (`MutableSet`): its elements sorted in Realm's order (nil first,
/// numbers by value, strings and data by bytes, links by key) with no two equal by value —
/// what Realm Core keeps, so `1.0` and `1.00` (decimals), `0.0` and `-0.0`, and every NaN are
/// each one element. Of equal elements the one given first stays: inserting a value equal to
/// one already in a set changes nothing, as in Realm.
package enum SetElements {
    /// `items` sorted and free of duplicates (stable: the first of equal elements is kept).
    package static func normalized(_ items: [Value]) -> [Value] {
        guard items.count > 1 else { return items }
        // Already sorted and unique (the usual case when a stored set is written back): keep it.
        if zip(items, items.dropFirst()).allSatisfy({ ValueOrder.sortCompare($0, $1) < 0 }) { return items }
        let order = items.indices.sorted { a, b in
            let c = ValueOrder.sortCompare(items[a], items[b])
            return c != 0 ? c < 0 : a < b
        }
        var out = [Value]()
        out.reserveCapacity(items.count)
        for i in order where out.last.map({ ValueOrder.sortCompare($0, items[i]) != 0 }) ?? true {
            out.append(items[i])
        }
        return out
    }

    /// Whether `items` is in the stored form (sorted, no duplicates): what the integrity check
    /// asks of every stored set.
    static func isNormalized(_ items: [Value]) -> Bool {
        zip(items, items.dropFirst()).allSatisfy { ValueOrder.sortCompare($0, $1) < 0 }
    }

    /// The position of `value` in a normalized set, or where it would go.
    static func position(of value: Value, in items: [Value]) -> (index: Int, found: Bool) {
        var lo = 0
        var hi = items.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let c = ValueOrder.sortCompare(items[mid], value)
            if c == 0 { return (mid, true) }
            if c < 0 { lo = mid + 1 } else { hi = mid }
        }
        return (lo, false)
    }
}

/// The keys of a dictionary (`Map<String, T>`) property, checked as Realm Core checks them
/// (`Dictionary::insert`): a key must not start with `$` nor contain `.`, since both would be
/// ambiguous in a key path (`map.key`) and in the query language. The empty key is allowed, as
/// Realm Core allows it.
package enum MapKey {
    package static func check(_ key: String, className: String, property: String) throws {
        if key.utf8.first == UInt8(ascii: "$") {
            throw RealmError.invalidInput(
                "\(className).\(property): the dictionary key '\(key)' starts with '$'; a key must not start with '$'")
        }
        if key.utf8.contains(UInt8(ascii: ".")) {
            throw RealmError.invalidInput(
                "\(className).\(property): the dictionary key '\(key)' contains '.'; a key must not contain '.'")
        }
        if key.utf8.count > Limits.maxValueBytes {
            throw RealmError.limitExceeded(
                "\(className).\(property): a dictionary key of \(key.utf8.count) bytes exceeds the limit of \(Limits.maxValueBytes) bytes"
            )
        }
    }
}
