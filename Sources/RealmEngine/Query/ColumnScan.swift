/// Columnar evaluation: the parts of a predicate that read only scalar columns of the queried
/// class, compiled into tests that run over a cluster leaf's packed columns — no `Value`, no
/// `String`, no tree lookup per object; comparisons of one list, set or dictionary column with
/// constants read its elements in place (`ElementScan`). Predicates that reach through links or
/// backlinks (or compare scalars with `[c]`/`[d]`, LIKE, BETWEEN on mixed types, …) are not
/// compiled and run through the `Evaluator` instead.
indirect enum ColumnTest {
    case constant(Bool)
    case and([ColumnTest])
    case or([ColumnTest])
    case not(ColumnTest)
    /// int, bool (0/1) columns against an integer; `nullable` columns check the null bitmap.
    case int(column: Int, op: CompareOp, value: Int64, nullable: Bool)
    /// float and double columns against a number.
    case double(column: Int, op: CompareOp, value: Double, nullable: Bool)
    /// date columns against a timestamp.
    case date(column: Int, op: CompareOp, value: Timestamp, nullable: Bool)
    /// string/data columns with an unfolded needle.
    case bytes(column: Int, op: CompareOp, needle: [UInt8], nullable: Bool)
    /// `column == nil` (or `!= nil` when `isNull` is false).
    case null(column: Int, isNull: Bool)
    /// A comparison over the elements (or keys, one key's value, the count) of a collection column.
    case elements(ElementScan)

    /// Compiles `predicate` for class `classIndex`, or nil when some part needs the evaluator.
    static func compile(_ predicate: BoundPredicate, classIndex: Int, schema: Schema) -> ColumnTest? {
        let properties = schema.objectSchemas[classIndex].persistedProperties
        func go(_ p: BoundPredicate) -> ColumnTest? {
            switch p {
            case .constant(let b): return .constant(b)
            case .and(let terms):
                let compiled = terms.compactMap(go)
                return compiled.count == terms.count ? .and(compiled) : nil
            case .or(let terms):
                let compiled = terms.compactMap(go)
                return compiled.count == terms.count ? .or(compiled) : nil
            case .not(let inner): return go(inner).map { .not($0) }
            case .compare(let c): return comparison(c)
            }
        }
        func comparison(_ c: BoundComparison) -> ColumnTest? {
            if let scan = ElementScan.compile(c, classIndex: classIndex, properties: properties) {
                return .elements(scan)
            }
            guard c.options.isEmpty, case .path(let path) = c.lhs, path.postfix == .none, path.steps.count == 1,
                case .column(let cls, let column) = path.steps[0], cls == classIndex, column < properties.count,
                !properties[column].isList, case .constant(let value) = c.rhs
            else { return nil }
            let p = properties[column]
            let nullable = p.isOptional
            if case .null = value {
                switch c.op {
                case .equal: return .null(column: column, isNull: true)
                case .notEqual: return .null(column: column, isNull: false)
                default: return nil
                }
            }
            switch c.op {
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
                break
            case .beginsWith, .endsWith, .contains:
                break
            default:
                return nil
            }
            switch (p.type, value) {
            case (.int, .int(let v)), (.int8, .int(let v)), (.int16, .int(let v)), (.int32, .int(let v)):
                return c.op.isStringOperator ? nil : .int(column: column, op: c.op, value: v, nullable: nullable)
            case (.bool, .bool(let b)):
                return c.op.isStringOperator
                    ? nil : .int(column: column, op: c.op, value: b ? 1 : 0, nullable: nullable)
            // Against NaN the evaluator's rule (NaN equals NaN) is not IEEE's: it decides.
            case (.double, .double(let d)), (.float, .double(let d)):
                return c.op.isStringOperator || p.type == .float || d.isNaN
                    ? nil : .double(column: column, op: c.op, value: d, nullable: nullable)
            case (.float, .float(let f)):
                return c.op.isStringOperator || f.isNaN
                    ? nil : .double(column: column, op: c.op, value: Double(f), nullable: nullable)
            case (.date, .date(let t)):
                return c.op.isStringOperator ? nil : .date(column: column, op: c.op, value: t, nullable: nullable)
            case (.string, .string(let s)):
                guard c.op == .equal || c.op == .notEqual || c.op.isStringOperator else { return nil }
                return .bytes(column: column, op: c.op, needle: c.needle ?? Array(s.utf8), nullable: nullable)
            default:
                return nil
            }
        }
        return go(predicate)
    }

    /// `a op b` for an ordering or equality operator (false for any other), as every column
    /// test compares plain numbers.
    @inline(__always)
    static func order<T: Comparable>(_ op: CompareOp, _ a: T, _ b: T) -> Bool {
        switch op {
        case .equal: a == b
        case .notEqual: a != b
        case .less: a < b
        case .lessOrEqual: a <= b
        case .greater: a > b
        case .greaterOrEqual: a >= b
        default: false
        }
    }

    /// Whether row `row` of the leaf matches. Null semantics as the evaluator: `!=` matches nil,
    /// every other operator with a non-nil constant does not.
    func matches(_ v: ClusterView, _ row: Int) -> Bool {
        switch self {
        case .constant(let b): return b
        case .and(let terms):
            for t in terms where !t.matches(v, row) { return false }
            return true
        case .or(let terms):
            for t in terms where t.matches(v, row) { return true }
            return false
        case .not(let t): return !t.matches(v, row)
        case .null(let column, let isNull): return v.isNull(row: row, column: column) == isNull
        case .elements(let scan): return scan.matches(v, row)
        case .int(let column, let op, let value, let nullable):
            if nullable && v.isNull(row: row, column: column) { return op == .notEqual }
            return ColumnTest.order(op, v.int(row: row, column: column), value)
        case .double(let column, let op, let value, let nullable):
            if nullable && v.isNull(row: row, column: column) { return op == .notEqual }
            return ColumnTest.order(op, v.double(row: row, column: column), value)
        case .date(let column, let op, let value, let nullable):
            if nullable && v.isNull(row: row, column: column) { return op == .notEqual }
            return ColumnTest.order(op, v.timestamp(row: row, column: column), value)
        case .bytes(let column, let op, let needle, let nullable):
            if nullable && v.isNull(row: row, column: column) { return op == .notEqual }
            return v.withBytes(row: row, column: column) { raw in
                StringMatch.matches(op, raw.bindMemory(to: UInt8.self), needle)
            }
        }
    }

    /// For counting: when the test is a range on one non-nullable int column (`a <= x < b`, any
    /// mix of bounds), the closed range [lower, upper] it accepts (empty when lower > upper).
    /// Closed, so that `Int64.max` itself can be in it: a half-open range ending at `Int64.max`
    /// left out the objects holding it (`value > 0` counted, windowed and bulk-deleted one
    /// object fewer than it matched).
    var intRange: (column: Int, lower: Int64, upper: Int64)? {
        var column: Int?
        var lower = Int64.min
        var upper = Int64.max
        func add(_ t: ColumnTest) -> Bool {
            guard case .int(let c, let op, let v, let nullable) = t, !nullable, column == nil || column == c else {
                return false
            }
            column = c
            switch op {
            case .greaterOrEqual: lower = Swift.max(lower, v)
            case .greater:
                guard v < .max else { return false }
                lower = Swift.max(lower, v + 1)
            case .less:
                guard v > .min else { return false }
                upper = Swift.min(upper, v - 1)
            case .lessOrEqual: upper = Swift.min(upper, v)
            case .equal:
                lower = Swift.max(lower, v)
                upper = Swift.min(upper, v)
            default: return false
            }
            return true
        }
        switch self {
        case .and(let terms): guard terms.allSatisfy(add) else { return nil }
        case .int: guard add(self) else { return nil }
        default: return nil
        }
        return column.map { ($0, lower, upper) }
    }
}

extension ColumnTest {
    /// The rows of an encoded leaf that match, ascending: a range on one non-nullable int column
    /// (`age < 50`) in one loop over its packed values, any other test row by row. Bulk deletes
    /// select a leaf's rows so, without listing keys first.
    func matchingRows(_ v: ClusterView) -> [Int] {
        if let range = intRange, let packed = v.packedInts(column: range.column) {
            return packed.rows(from: range.lower, through: range.upper)
        }
        var out = [Int]()
        for r in 0..<v.count where matches(v, r) { out.append(r) }
        return out
    }

    /// The columns the test reads.
    var columns: Set<Int> {
        switch self {
        case .constant: []
        case .and(let terms), .or(let terms): terms.reduce(into: Set<Int>()) { $0.formUnion($1.columns) }
        case .not(let t): t.columns
        case .int(let c, _, _, _), .double(let c, _, _, _), .date(let c, _, _, _), .bytes(let c, _, _, _),
            .null(let c, _):
            [c]
        case .elements(let scan): [scan.column]
        }
    }
}

extension PackedInts {
    /// The number of values in the closed range `lower ... upper` (none when lower > upper),
    /// `Int64.max` included when `upper` is: the half-open count takes the values below `lower`
    /// from the whole then.
    func count(from lower: Int64, through upper: Int64) -> Int {
        guard lower <= upper else { return 0 }
        if upper < .max { return count(inRange: lower, upper + 1) }
        return count - count(inRange: .min, lower)
    }

    /// The positions whose values lie in the closed range `lower ... upper`, ascending (as
    /// `count(from:through:)`: with `upper` at `Int64.max`, every position not below `lower`).
    func rows(from lower: Int64, through upper: Int64) -> [Int] {
        guard lower <= upper else { return [] }
        if upper < .max { return rows(inRange: lower, upper + 1) }
        guard lower > .min else { return Array(0..<count) }
        let below = rows(inRange: .min, lower)
        var out: [Int] = []
        out.reserveCapacity(count - below.count)
        var next = 0
        for row in 0..<count {
            if next < below.count && below[next] == row {
                next += 1
            } else {
                out.append(row)
            }
        }
        return out
    }

    /// The positions whose values lie in `lower ..< upper`, ascending: one switch on the width,
    /// then a branch-free loop (as `count(inRange:_:)`, on the offsets).
    func rows(inRange lower: Int64, _ upper: Int64) -> [Int] {
        guard lower < upper, count > 0, upper > base else { return [] }
        let lo: UInt64 = lower <= base ? 0 : UInt64(bitPattern: lower &- base)
        let span = UInt64(bitPattern: upper &- base) &- lo
        // Allocated at full size (a specialized allocation), filled, then cut.
        var out = [Int](repeating: 0, count: count)
        let n = out.withUnsafeMutableBufferPointer { buf -> Int in
            switch width {
            case 0: return lo == 0 ? fillAll(buf) : 0
            case 8: return collect(into: buf, lo, span) { p, i in UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
            case 16:
                return collect(into: buf, lo, span) { p, i in
                    UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
                }
            case 32:
                return collect(into: buf, lo, span) { p, i in
                    UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
                }
            case 64:
                return collect(into: buf, lo, span) { p, i in
                    UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i << 3, as: UInt64.self))
                }
            default: return collect(into: buf, lo, span) { _, i in self.offset(i) }
            }
        }
        out.removeSubrange(n...)
        return out
    }

    private func fillAll(_ buf: UnsafeMutableBufferPointer<Int>) -> Int {
        for i in 0..<count { buf[i] = i }
        return count
    }

    @inline(__always)
    private func collect(
        into buf: UnsafeMutableBufferPointer<Int>, _ lo: UInt64, _ span: UInt64,
        _ load: (UnsafeRawPointer, Int) -> UInt64
    ) -> Int {
        guard let out = buf.baseAddress else { return 0 }
        var n = 0
        for i in 0..<count {
            out[n] = i  // written always, kept only when the value matches
            n &+= load(data, i) &- lo < span ? 1 : 0
        }
        return n
    }
}
