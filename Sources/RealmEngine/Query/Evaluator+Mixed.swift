extension Evaluator {
    /// `path.@type == 'name'` / `!=` / `IN {…}`: the right side holds type bits (`MixedType`);
    /// a value matches a name when its type is among those the name stands for.
    func typeTest(_ c: BoundComparison, _ p: BoundPath, _ key: ObjectKey) throws -> Bool {
        let wanted: [Int]
        switch c.rhs {
        case .constant(.int(let bits)): wanted = [Int(bits)]
        case .constantList(let items): wanted = items.compactMap { if case .int(let b) = $0 { Int(b) } else { nil } }
        default: return false
        }
        let test = { (value: Value) -> Bool in
            let bits = MixedType.bits(of: value)
            let matched = wanted.contains { $0 & bits != 0 }
            return c.op == .notEqual ? !matched : matched
        }
        if p.isMulti {
            let values = try collect(p, key)
            switch c.quantifier {
            case .any: return values.contains(where: test)
            case .all: return values.allSatisfy(test)
            case .none: return !values.contains(where: test)
            }
        }
        return test(try singleValue(p, key))
    }
}
