/// Evaluates a bound predicate against one object of a store.
///
/// Single-valued operands (scalars, to-one links, aggregates) are read as one `Value` with no
/// array; operands through lists or backlinks collect their values and compare with the
/// comparison's quantifier (ANY by default; ALL and NONE are true over no values).
struct Evaluator<Store: ObjectStore> {
    let store: Store

    func matches(_ predicate: BoundPredicate, _ key: ObjectKey) throws -> Bool {
        switch predicate {
        case .constant(let b): return b
        case .and(let terms):
            for term in terms where try !matches(term, key) { return false }
            return true
        case .or(let terms):
            for term in terms where try matches(term, key) { return true }
            return false
        case .not(let inner): return try !matches(inner, key)
        case .compare(let c): return try compare(c, key)
        }
    }

    // MARK: Comparisons

    private func compare(_ c: BoundComparison, _ key: ObjectKey) throws -> Bool {
        if case .path(let p) = c.lhs, p.postfix == .typeOf { return try typeTest(c, p, key) }
        if c.op == .between {
            guard case .constantList(let bounds) = c.rhs, bounds.count == 2 else { return false }
            let test = { (l: Value) -> Bool in
                guard let lo = ValueOrder.compare(l, bounds[0]), let hi = ValueOrder.compare(l, bounds[1]) else {
                    return false
                }
                return lo >= 0 && hi <= 0
            }
            if !c.lhs.isMulti { return test(try single(c.lhs, key)) }
            return quantify(c.quantifier, try values(c.lhs, key), test)
        }
        switch (c.lhs.isMulti, c.rhs.isMulti) {
        case (false, false):
            return test(c, try single(c.lhs, key), try single(c.rhs, key))
        case (false, true):
            let l = try single(c.lhs, key)
            let rs = try values(c.rhs, key)
            if c.op == .in { return rs.contains { test(c, l, $0) } }
            return quantify(c.quantifier, rs) { test(c, l, $0) }
        case (true, false):
            let r = try single(c.rhs, key)
            return quantify(c.quantifier, try values(c.lhs, key)) { test(c, $0, r) }
        case (true, true):
            let rs = try values(c.rhs, key)
            return quantify(c.quantifier, try values(c.lhs, key)) { l in rs.contains { test(c, l, $0) } }
        }
    }

    private func quantify(_ quantifier: Quantifier, _ values: [Value], _ test: (Value) -> Bool) -> Bool {
        switch quantifier {
        case .any: values.contains(where: test)
        case .all: values.allSatisfy(test)
        case .none: !values.contains(where: test)
        }
    }

    /// One comparison of two single values.
    private func test(_ c: BoundComparison, _ l: Value, _ r: Value) -> Bool {
        ValueComparison.test(c, l, r)
    }

    // MARK: Operands

    /// The value of a single-valued operand.
    func single(_ expr: BoundExpr, _ key: ObjectKey) throws -> Value {
        switch expr {
        case .constant(let v): return v
        case .constantList(let vs): return vs.first ?? .null
        case .path(let p):
            if p.throughCollection { return try reduce(p, try collect(p, key)) }
            return try singleValue(p, key)
        case .subqueryCount(let s):
            var count: Int64 = 0
            for element in try collect(s.collection, key) {
                if case .link(let k) = element, try matches(s.predicate, k) { count += 1 }
            }
            return .int(count)
        }
    }

    /// The values of a multi-valued operand.
    func values(_ expr: BoundExpr, _ key: ObjectKey) throws -> [Value] {
        switch expr {
        case .constantList(let vs): return vs
        case .path(let p) where p.isMulti:
            let raw = try collect(p, key)
            return p.postfix == .length ? raw.map(ValueLength.length) : raw
        default: return [try single(expr, key)]
        }
    }

    /// Walks a path with no list or backlinks step.
    func singleValue(_ p: BoundPath, _ key: ObjectKey) throws -> Value {
        var current = key
        var value = Value.link(key)
        for (i, step) in p.steps.enumerated() {
            switch step {
            case .column(let cls, let column):
                value = try store.value(classIndex: cls, key: current, column: column)
            case .map(let cls, let column, .key(let k)):
                guard case .map(let entries) = try store.value(classIndex: cls, key: current, column: column) else {
                    return .null
                }
                value = Self.entry(entries, k)
            case .mixed(let step):
                // `[*]` makes a path many-valued, so a single path's steps each give one value.
                value = step.apply(to: value).first ?? .null
            default:
                return .null
            }
            if i < p.steps.count - 1, !p.steps[i + 1].isMixed {
                guard case .link(let next) = value else { return .null }
                current = next
            }
        }
        return p.postfix == .length ? ValueLength.length(value) : value
    }

    /// Every value a path reaches (through lists and backlinks), before its postfix.
    func collect(_ p: BoundPath, _ key: ObjectKey) throws -> [Value] {
        var out: [Value] = []
        try collect(p.steps[...], from: key, nilLinkReadsAsNull: !p.throughCollection, into: &out)
        return out
    }

    /// `nilLinkReadsAsNull`: a path of to-one links alone reads as nil past a nil link; a path
    /// through a list or backlinks reaches no objects through it (as Realm's link maps skip it).
    private func collect(
        _ steps: ArraySlice<BoundPath.Step>, from key: ObjectKey, nilLinkReadsAsNull: Bool,
        into out: inout [Value]
    ) throws {
        guard let step = steps.first else {
            out.append(.link(key))
            return
        }
        let rest = steps.dropFirst()
        let isLast = rest.isEmpty
        // Steps into Mixed values apply to each value this step reaches.
        if rest.first?.isMixed == true {
            let value: Value
            switch step {
            case .column(let cls, let column): value = try store.value(classIndex: cls, key: key, column: column)
            case .map(let cls, let column, .key(let k)):
                guard case .map(let entries) = try store.value(classIndex: cls, key: key, column: column) else {
                    return
                }
                value = Self.entry(entries, k)
            default: return
            }
            out += MixedStep.apply(rest, to: value)
            return
        }
        switch step {
        case .column(let cls, let column):
            let value = try store.value(classIndex: cls, key: key, column: column)
            switch value {
            // A Mixed property holding a list is one value (its elements are reached with [*]).
            case .list where isLast && store.schema.objectSchemas[cls].isSingleMixedColumn(column):
                out.append(value)
            case .list(let items):
                if isLast {
                    out += items
                    return
                }
                for case .link(let k) in items {
                    try collect(rest, from: k, nilLinkReadsAsNull: nilLinkReadsAsNull, into: &out)
                }
            case .link(let k) where !isLast:
                try collect(rest, from: k, nilLinkReadsAsNull: nilLinkReadsAsNull, into: &out)
            default:
                if isLast { out.append(value) } else if nilLinkReadsAsNull { out.append(.null) }
            }
        case .map(let cls, let column, let part):
            guard case .map(let entries) = try store.value(classIndex: cls, key: key, column: column) else { return }
            let items: [Value]
            switch part {
            case .values: items = Value.map(entries).sortedEntries.map(\.value)
            case .keys: items = Value.map(entries).sortedEntries.map { .string($0.key) }
            case .key(let k):
                let value = Self.entry(entries, k)
                if isLast {
                    out.append(value)
                    return
                }
                if case .link(let next) = value {
                    try collect(rest, from: next, nilLinkReadsAsNull: nilLinkReadsAsNull, into: &out)
                } else if nilLinkReadsAsNull {
                    out.append(.null)
                }
                return
            }
            if isLast {
                out += items
                return
            }
            for case .link(let k) in items {
                try collect(rest, from: k, nilLinkReadsAsNull: nilLinkReadsAsNull, into: &out)
            }
        case .mixed:
            return  // handled with the step before it
        case .backlinks(let cls, let originClass, let originColumn):
            let owners = try store.backlinks(
                classIndex: cls, key: key,
                originClass: originClass, originColumn: originColumn)
            for owner in owners {
                if isLast {
                    out.append(.link(owner))
                } else {
                    try collect(rest, from: owner, nilLinkReadsAsNull: nilLinkReadsAsNull, into: &out)
                }
            }
        }
    }

    /// The value of dictionary key `k` (nil when missing), the key found by its bytes as Realm
    /// Core finds it and as `@keys` compares: `String` equality would also take a canonically
    /// equivalent key (`e` + U+0301 for U+00E9).
    private static func entry(_ entries: [String: Value], _ k: String) -> Value {
        guard let i = entries.index(forKey: k), entries[i].key.utf8.elementsEqual(k.utf8) else { return .null }
        return entries[i].value
    }

    /// Applies a path's postfix to the values it reached.
    private func reduce(_ p: BoundPath, _ values: [Value]) throws -> Value {
        guard case .aggregate(let aggregate) = p.postfix else {
            return values.first.map { p.postfix == .length ? ValueLength.length($0) : $0 } ?? .null
        }
        switch aggregate {
        case .count:
            return .int(Int64(values.count))
        case .min, .max:
            return ValueOrder.extreme(values, smallest: aggregate == .min)
        case .sum:
            if p.elementType == .decimal128 { return .decimal128(DecimalAggregate.sum(values)) }
            if p.elementType == .int {
                var total: Int64 = 0
                for case .int(let i) in values {
                    let (sum, overflow) = total.addingReportingOverflow(i)
                    // Past 64 bits the sum is compared as a double: near, where wrapping was far.
                    if overflow { return .double(values.reduce(0.0) { $0 + (ValueOrder.double($1) ?? 0) }) }
                    total = sum
                }
                return .int(total)
            }
            return .double(values.reduce(0.0) { $0 + (ValueOrder.double($1) ?? 0) })
        case .avg:
            if p.elementType == .decimal128 { return DecimalAggregate.average(values).map(Value.decimal128) ?? .null }
            let numbers = values.compactMap(ValueOrder.double)
            return numbers.isEmpty ? .null : .double(numbers.reduce(0, +) / Double(numbers.count))
        }
    }
}

/// `.length` / `@size` of a string (UTF-8 bytes, as Realm Core) or data.
enum ValueLength {
    static func length(_ v: Value) -> Value {
        switch v {
        case .string(let s): .int(Int64(s.utf8.count))
        case .data(let d): .int(Int64(d.count))
        // `@size` of a list or dictionary held by a Mixed value.
        case .list(let items): .int(Int64(items.count))
        case .map(let entries): .int(Int64(entries.count))
        default: .null
        }
    }
}

extension BoundExpr {
    var isConstant: Bool { if case .constant = self { true } else { false } }
}
