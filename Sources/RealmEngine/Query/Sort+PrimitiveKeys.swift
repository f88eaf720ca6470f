/// Sorting one column of numbers, dates or bools without comparing `Value`s: each value becomes
/// a small integer triple that orders exactly as `ValueOrder.sortCompare` orders the values
/// (null first, then NaN, then numbers; dates by seconds then nanoseconds), so a sort of a
/// million objects compares plain integers instead of switching over enums.
struct PrimitiveSortKey: Comparable {
    /// 0 null, 1 NaN, 2 any other value.
    var rank: Int8
    var high: Int64
    var low: Int64

    static func < (a: PrimitiveSortKey, b: PrimitiveSortKey) -> Bool {
        (a.rank, a.high, a.low) < (b.rank, b.high, b.low)
    }

    private static let null = PrimitiveSortKey(rank: 0, high: 0, low: 0)

    /// The keys of `values`, or nil when they are not all of one kind this covers (int, bool,
    /// date, float or double, each with nulls): values of mixed kinds are compared as values.
    static func keys(_ values: [Value]) -> [PrimitiveSortKey]? {
        guard let kind = values.first(where: { $0 != .null }) else { return values.map { _ in null } }
        var keys: [PrimitiveSortKey] = []
        keys.reserveCapacity(values.count)
        for value in values {
            guard let key = key(value, kindOf: kind) else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// The key of `value` when it is null or of the kind of `kind`; nil otherwise.
    static func key(_ value: Value, kindOf kind: Value) -> PrimitiveSortKey? {
        switch (kind, value) {
        case (_, .null): null
        case (.int, .int(let number)): PrimitiveSortKey(rank: 2, high: number, low: 0)
        case (.bool, .bool(let flag)): PrimitiveSortKey(rank: 2, high: flag ? 1 : 0, low: 0)
        case (.date(_), .date(let date)): PrimitiveSortKey(rank: 2, high: date.seconds, low: Int64(date.nanoseconds))
        case (.double, .double(let number)): key(number)
        case (.float, .float(let number)): key(Double(number))
        default: nil
        }
    }

    /// Whether every value of a column of `type` has a key (`key(_:kindOf:)`).
    static func covers(_ type: PropertyType) -> Bool {
        switch type {
        case .int, .int8, .int16, .int32, .bool, .date, .double, .float: true
        default: false
        }
    }

    /// A double as an integer of the same order: NaN before every number, -0 equal to 0.
    private static func key(_ number: Double) -> PrimitiveSortKey {
        if number.isNaN { return PrimitiveSortKey(rank: 1, high: 0, low: 0) }
        let bits = Int64(bitPattern: (number == 0 ? 0 : number).bitPattern)
        // Negative doubles order backwards as integers: flip every bit but the sign.
        return PrimitiveSortKey(rank: 2, high: bits < 0 ? bits ^ Int64.max : bits, low: 0)
    }
}
