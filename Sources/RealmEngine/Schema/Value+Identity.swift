/// Whether two stored values are the same: what every change check asks ("did this property
/// change since?", "is this the value undo wrote?").
///
/// `==` is the wrong question there: a NaN is not `==` to itself, so a property holding NaN
/// looked changed by every write to its object (undo refused, batch conflicts, "was: nan").
/// Floats and doubles compare by their bits: the same NaN is the same value, and 0.0 and -0.0,
/// stored differently, differ; so do decimals (1.0 and 1.00 are equal, not identical).
extension Value {
    /// Whether `self` and `other` would be stored alike (floating-point values by their bits,
    /// lists element by element).
    public func isIdentical(to other: Value) -> Bool {
        switch (self, other) {
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.float(let a), .float(let b)): return a.bitPattern == b.bitPattern
        // By the words: 1.0 and 1.00 are equal but stored differently, so one over the other is a change.
        case (.decimal128(let a), .decimal128(let b)): return a.low == b.low && a.high == b.high
        case (.list(let a), .list(let b)): return Value.identical(a, b)
        case (.map(let a), .map(let b)):
            return a.count == b.count
                && a.allSatisfy { key, value in b[key].map { value.isIdentical(to: $0) } ?? false }
        default: return self == other
        }
    }

    /// `isIdentical(to:)` for values that may be missing (unreadable): two missing values are
    /// identical, a missing one and a present one are not.
    public static func identical(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return a.isIdentical(to: b)
        default: return false
        }
    }

    /// `isIdentical(to:)` over whole rows or lists.
    public static func identical(_ a: [Value], _ b: [Value]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
    }

    /// `isIdentical(to:)` over rows whose values may be missing.
    public static func identical(_ a: [Value?], _ b: [Value?]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
    }
}
