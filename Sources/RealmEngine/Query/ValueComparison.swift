/// One comparison of two single values, as the query language defines it: the rule the
/// `Evaluator` applies to each pair of values an operand yields, and the column tests over a
/// collection's elements apply to an element they could not compare in place.
enum ValueComparison {
    /// Whether `l op r` holds for comparison `c` (its operator, `[c]`/`[d]` options and folded
    /// needle); `IN` compares as `==`.
    static func test(_ c: BoundComparison, _ l: Value, _ r: Value) -> Bool {
        let op = c.op == .in ? CompareOp.equal : c.op
        if op.isStringOperator || !c.options.isEmpty {
            return stringTest(op, c, l, r)
        }
        switch op {
        case .equal: return ValueOrder.equal(l, r)
        case .notEqual: return !ValueOrder.equal(l, r)
        case .less: return ValueOrder.compare(l, r).map { $0 < 0 } ?? false
        case .lessOrEqual: return ValueOrder.compare(l, r).map { $0 <= 0 } ?? false
        case .greater: return ValueOrder.compare(l, r).map { $0 > 0 } ?? false
        case .greaterOrEqual: return ValueOrder.compare(l, r).map { $0 >= 0 } ?? false
        default: return false
        }
    }

    private static func stringTest(_ op: CompareOp, _ c: BoundComparison, _ l: Value, _ r: Value) -> Bool {
        if l.isNull || r.isNull {
            switch op {
            case .equal: return l.isNull && r.isNull
            case .notEqual: return !(l.isNull && r.isNull)
            default: return false
            }
        }
        let needle: [UInt8]
        if let folded = c.needle, c.rhs.isConstant {
            needle = folded
        } else {
            switch r {
            case .string(let s): needle = StringMatch.fold(s, c.options)
            case .data(let d): needle = [UInt8](d)
            default: return false
            }
        }
        switch l {
        case .string(let s): return StringMatch.matches(op, s, needle: needle, options: c.options)
        case .data(let d): return StringMatch.matches(op, d, needle: needle)
        default: return false
        }
    }
}
