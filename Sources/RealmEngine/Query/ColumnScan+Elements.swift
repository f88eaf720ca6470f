import Foundation

/// A column test over the elements of one list, set or dictionary column, read where the leaf
/// keeps them (each row's elements flattened, a dictionary's keys ascending by bytes): no
/// `Value` array or `Dictionary` per object, and ANY stops at the first element that matches.
///
/// It answers what the `Evaluator` answers for the comparisons it compiles from:
/// `ANY|ALL|NONE coll op k`, `ANY coll IN {…}`, `k IN coll`, `coll.@count op k`, `map['key'] op k`
/// (nil for a missing key) and `map.@keys`/`map.@values` — ints, bools, strings and data in
/// place, every other element (Mixed, numbers of other kinds, dates, `[c]`/`[d]`) decoded one
/// at a time and compared by the evaluator's own rule (`ValueComparison`).
struct ElementScan {
    /// Which values of a row the test reads.
    enum Source {
        /// A list's or set's elements; a dictionary's values.
        case elements
        /// A dictionary's keys.
        case keys
        /// The value of one dictionary key, given as its UTF-8 bytes (nil when missing).
        case key([UInt8])
        /// How many elements the row holds (`@count`, `@size`).
        case count
    }

    /// How one value is compared with the constants (it matches when any constant matches).
    enum Match {
        /// int and bool values (bools as 0 and 1) against integers; `op` has no string operator.
        case ints(op: CompareOp, values: [Int64])
        /// string or data values against unfolded bytes of the same kind.
        case bytes(op: CompareOp, needles: [[UInt8]])
        /// Any other: the value decoded and compared as the evaluator compares.
        case values(BoundComparison, constants: [Value])
    }

    let column: Int
    let source: Source
    /// Over the elements (ANY for a single value: a key's value, a count).
    let quantifier: Quantifier
    /// The constant is the comparison's left side (`'x' IN tags`, `5 == attrs['a']`).
    let constantFirst: Bool
    let match: Match
    /// The stored type of the values read (string for a dictionary's keys).
    let type: PropertyType

    /// The test for comparison `c` on class `classIndex`, or nil when it is not a comparison of
    /// one collection column of the class with constants.
    static func compile(_ c: BoundComparison, classIndex: Int, properties: [Property]) -> ElementScan? {
        guard c.op != .between else { return nil }
        let path: BoundPath
        let constants: [Value]
        let constantFirst: Bool
        switch (c.lhs, c.rhs) {
        case (.path(let p), .constant(let v)):
            (path, constants, constantFirst) = (p, [v], false)
        case (.path(let p), .constantList(let vs)):
            // A single value against a list compares with each only for IN (else a quantifier
            // over the constants decides).
            guard p.isMulti || c.op == .in else { return nil }
            (path, constants, constantFirst) = (p, vs, false)
        case (.constant(let v), .path(let p)):
            (path, constants, constantFirst) = (p, [v], true)
        default:
            return nil
        }
        guard path.steps.count == 1 else { return nil }
        let column: Int
        var source: Source
        switch path.steps[0] {
        case .column(let cls, let col):
            guard cls == classIndex, col < properties.count, properties[col].isList else { return nil }
            column = col
            source = .elements
        case .map(let cls, let col, let part):
            guard cls == classIndex, col < properties.count, properties[col].isMap else { return nil }
            column = col
            switch part {
            case .values: source = .elements
            case .keys: source = .keys
            case .key(let k): source = .key(Array(k.utf8))
            }
        default:
            return nil
        }
        let property = properties[column]
        switch path.postfix {
        case .none:
            // Links compare as objects: left to the evaluator.
            guard source.isKeys || property.type != .object, property.type != .linkingObjects else { return nil }
        case .aggregate(.count):
            guard path.throughCollection else { return nil }
            source = .count
        default:
            return nil
        }
        let single: Bool
        switch source {
        case .elements, .keys: single = false
        case .key, .count: single = true
        }
        guard single != path.isMulti else { return nil }
        // ANY/ALL/NONE over the elements; `k IN coll` is ANY whatever the quantifier.
        let quantifier: Quantifier = single || (constantFirst && c.op == .in) ? .any : c.quantifier
        let type: PropertyType =
            switch source {
            case .keys: .string
            case .count: .int
            default: property.type
            }
        return ElementScan(
            column: column, source: source, quantifier: quantifier, constantFirst: constantFirst,
            match: match(c, type: type, constants: constants, constantFirst: constantFirst), type: type)
    }

    /// The in-place comparison when one applies, else the evaluator's rule per decoded value.
    private static func match(_ c: BoundComparison, type: PropertyType, constants: [Value], constantFirst: Bool)
        -> Match
    {
        let op = c.op == .in ? CompareOp.equal : c.op
        let generic = Match.values(c, constants: constants)
        // With the constant first only symmetric operators read the same either way round.
        guard c.options.isEmpty, !constantFirst || op == .equal || op == .notEqual else { return generic }
        let ordered: Set<CompareOp> = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        switch type {
        case .int, .int8, .int16, .int32, .bool:
            guard ordered.contains(op) else { return generic }
            var ints: [Int64] = []
            for constant in constants {
                switch (type, constant) {
                case (.bool, .bool(let b)): ints.append(b ? 1 : 0)
                case (.bool, _): return generic
                case (_, .int(let i)): ints.append(i)
                default: return generic
                }
            }
            return .ints(op: op, values: ints)
        case .string, .data:
            guard ordered.contains(op) || op.isStringOperator else { return generic }
            var needles: [[UInt8]] = []
            for constant in constants {
                switch (type, constant) {
                case (.string, .string(let s)): needles.append(Array(s.utf8))
                case (.data, .data(let d)): needles.append([UInt8](d))
                default: return generic
                }
            }
            return .bytes(op: op, needles: needles)
        default:
            return generic
        }
    }

    /// Whether row `row` of the leaf matches.
    func matches(_ v: ClusterView, _ row: Int) -> Bool {
        let range = v.listRange(row: row, column: column)
        let layout = v.layouts[column]
        switch source {
        case .count:
            return matchesCount(range.count)
        case .key(let key):
            guard let keys = layout.keys, let i = Self.find(key, in: keys, range) else { return matchesNil() }
            return matches(layout.data, i)
        case .elements:
            return quantify(layout.data, range)
        case .keys:
            guard let keys = layout.keys else { return quantify(layout.data, 0..<0) }
            return quantify(keys, range)
        }
    }

    @inline(__always)
    private func quantify(_ slice: ClusterColumnSlice, _ range: Range<Int>) -> Bool {
        switch quantifier {
        case .any:
            for i in range where matches(slice, i) { return true }
            return false
        case .all:
            for i in range where !matches(slice, i) { return false }
            return true
        case .none:
            for i in range where matches(slice, i) { return false }
            return true
        }
    }

    /// Element `i` of `slice` against the constants.
    @inline(__always)
    private func matches(_ slice: ClusterColumnSlice, _ i: Int) -> Bool {
        switch match {
        case .ints(let op, let values):
            if slice.isNull(i) { return matchesNil() }
            let e = slice.ints[i]
            for k in values where ColumnTest.order(op, e, k) { return true }
            return false
        case .bytes(let op, let needles):
            if slice.isNull(i) { return matchesNil() }
            let h = slice.bytes(at: i)
            for n in needles where Self.bytes(op, h, n) { return true }
            return false
        case .values(let c, let constants):
            return test(c, constants, slice.value(at: i, type: type))
        }
    }

    /// A nil value (a nil element, a missing key) against the constants: of the in-place
    /// comparisons (whose constants are never nil) only `!=` holds, as in the evaluator.
    private func matchesNil() -> Bool {
        switch match {
        case .ints(let op, let values): op == .notEqual && !values.isEmpty
        case .bytes(let op, let needles): op == .notEqual && !needles.isEmpty
        case .values(let c, let constants): test(c, constants, .null)
        }
    }

    private func matchesCount(_ n: Int) -> Bool {
        switch match {
        case .ints(let op, let values):
            for k in values where ColumnTest.order(op, Int64(n), k) { return true }
            return false
        case .bytes: return false
        case .values(let c, let constants): return test(c, constants, .int(Int64(n)))
        }
    }

    private func test(_ c: BoundComparison, _ constants: [Value], _ value: Value) -> Bool {
        for k in constants where constantFirst ? ValueComparison.test(c, k, value) : ValueComparison.test(c, value, k) {
            return true
        }
        return false
    }

    /// Stored bytes `h` against needle `n`: string operators as `StringMatch`, the rest by bytes
    /// (as `ValueOrder` orders strings and data).
    @inline(__always)
    private static func bytes(_ op: CompareOp, _ h: UnsafeRawBufferPointer, _ n: [UInt8]) -> Bool {
        switch op {
        case .equal, .notEqual:
            let equal =
                h.count == n.count
                && n.withUnsafeBufferPointer { ValueOrder.bytes(h.bindMemory(to: UInt8.self), $0) == 0 }
            return equal == (op == .equal)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let c = n.withUnsafeBufferPointer { ValueOrder.bytes(h.bindMemory(to: UInt8.self), $0) }
            return ColumnTest.order(op, Int64(c), 0)
        default:
            return StringMatch.matches(op, h.bindMemory(to: UInt8.self), n)
        }
    }

    /// The index of `key` among the (ascending) keys in `range`, by binary search.
    private static func find(_ key: [UInt8], in keys: ClusterColumnSlice, _ range: Range<Int>) -> Int? {
        key.withUnsafeBufferPointer { k in
            var lo = range.lowerBound
            var hi = range.upperBound
            while lo < hi {
                let mid = (lo + hi) >> 1
                let c = ValueOrder.bytes(keys.bytes(at: mid).bindMemory(to: UInt8.self), k)
                if c < 0 { lo = mid + 1 } else if c > 0 { hi = mid } else { return mid }
            }
            return nil
        }
    }
}

extension ElementScan.Source {
    fileprivate var isKeys: Bool { if case .keys = self { true } else { false } }
}
