/// Index keys of a Mixed column, consistent with query equality (`ValueOrder.equal`).
///
/// A Mixed column holds numbers of four kinds, equal across kinds by value: 1 == 1.0 ==
/// Decimal128(1). A decimal equals a double when it equals the double's 15-significant-digit
/// decimal (as Realm Core converts it), so the double 0.1 equals the decimal 0.1 though their
/// exact values differ; keying each number by its exact value would therefore miss matches.
/// Instead every number is keyed by a *bucket*: its nearest double's order-preserving bits with
/// the low `bucketShift` bits dropped (a width of 2^-40 relative). Numbers that compare equal
/// lie within about 5e-15 relative of each other, so they sit in the same or a neighbouring
/// bucket, and a lookup reads the value's bucket and its two neighbours (`mixedLookupKeys`).
/// Every NaN (double, float or decimal) shares one key, as every NaN equals every other.
/// Other kinds key as in a column of their own type (strings and data by hashes with different
/// seeds, so the string "a" and the data "a" are different keys), nil by its own key; nested
/// lists and dictionaries share one key (no query constant equals them). Lookups check every
/// candidate's value, so buckets shared by unequal numbers never give a wrong answer.
extension SearchIndex {
    /// The index key of `value` in a column of `type`: Mixed columns key numbers by value.
    static func key(_ value: Value, type: PropertyType) -> UInt64 {
        type == .mixed ? mixedKey(value) : key(value)
    }

    /// Low bits of a double's order-preserving bits that a numeric bucket leaves out.
    static let bucketShift: UInt64 = 12
    /// The tag in a numeric key's top 12 bits (a bucket uses the 52 below them).
    private static let numericTag: UInt64 = 0x9A7 << 52
    /// The key of every NaN.
    private static let nanKey: UInt64 = 0x4E61_4E4E_614E_4E61

    /// The key of a value stored in a Mixed column.
    static func mixedKey(_ value: Value) -> UInt64 {
        guard let d = ValueOrder.double(value) else { return key(value) }
        guard let bucket = bucket(d) else { return nanKey }
        return numericTag | bucket
    }

    /// The keys under which a value equal to `value` can be stored in a Mixed column.
    static func mixedLookupKeys(_ value: Value) -> [UInt64] {
        guard let d = ValueOrder.double(value) else { return [key(value)] }
        guard let bucket = bucket(d) else { return [nanKey] }
        let last = (UInt64(1) << (64 - bucketShift)) - 1
        var keys = [numericTag | bucket]
        if bucket > 0 { keys.append(numericTag | (bucket - 1)) }
        if bucket < last { keys.append(numericTag | (bucket + 1)) }
        return keys
    }

    /// A number's bucket from its nearest double (ints round, decimals round correctly, so the
    /// map is monotone): nil for NaN; -0.0 and 0.0 are one.
    private static func bucket(_ d: Double) -> UInt64? {
        if d.isNaN { return nil }
        let bits = d == 0 ? 0 : d.bitPattern
        // Order-preserving: negatives flipped below the positives.
        let ordered = d < 0 ? ~bits : bits | (1 << 63)
        return ordered >> bucketShift
    }
}
