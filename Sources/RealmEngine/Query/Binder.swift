import Foundation

/// Type-checks a parsed query against a schema: resolves key paths to columns, checks that each
/// comparison's operands and operator fit together, and converts constants to the type they are
/// compared with (so evaluation never converts per object).
struct Binder {
    let schema: Schema
    let arguments: [Value]
    /// Classes read by the query.
    var dependencies: Set<Int> = []

    /// The class of each argument that is an object, by argument number (when known).
    let objectClasses: [Int: String]

    init(schema: Schema, arguments: [Value], objectClasses: [Int: String] = [:]) {
        self.schema = schema
        self.arguments = arguments
        self.objectClasses = objectClasses
    }

    mutating func bind(_ node: PredicateNode, classIndex: Int, variable: String? = nil) throws -> BoundPredicate {
        dependencies.insert(classIndex)
        switch node {
        case .constant(let b): return .constant(b)
        case .and(let terms): return .and(try terms.map { try bind($0, classIndex: classIndex, variable: variable) })
        case .or(let terms): return .or(try terms.map { try bind($0, classIndex: classIndex, variable: variable) })
        case .not(let inner): return .not(try bind(inner, classIndex: classIndex, variable: variable))
        case .comparison(let c): return .compare(try bindComparison(c, classIndex: classIndex, variable: variable))
        }
    }

    // MARK: Comparisons

    private mutating func bindComparison(_ node: ComparisonNode, classIndex: Int, variable: String?) throws
        -> BoundComparison
    {
        var lhs = try bindExpr(node.lhs, classIndex: classIndex, variable: variable)
        var rhs = try bindExpr(node.rhs, classIndex: classIndex, variable: variable)
        var op = node.op
        var lhsColumn = node.lhs.column
        var rhsColumn = node.rhs.column
        if let typeComparison = try bindTypeComparison(node, lhs: lhs, rhs: rhs) { return typeComparison }

        if op == .in, !rhs.isMulti {
            throw RealmError.query(
                message: "IN needs a list on its right: {a, b, …}, a list argument or a list property",
                column: rhsColumn)
        }
        if op == .between {
            guard case .constantList(let bounds) = rhs, bounds.count == 2 else {
                throw RealmError.query(message: "BETWEEN needs two constant values: {lower, upper}", column: rhsColumn)
            }
        }
        if case .constantList = lhs {
            throw RealmError.query(message: "a list {…} can only be on the right of IN or BETWEEN", column: lhsColumn)
        }
        if node.quantifier != nil, !lhs.isMulti {
            throw RealmError.query(
                message: "ANY, ALL and NONE need a key path through a list, like 'ANY dogs.age > 2'",
                column: lhsColumn)
        }

        // Arguments ($0, …) follow the one value syntax (`ValueSyntax`): a date may be an ISO 8601
        // string, data base64, an objectId or uuid its string. (A bare number stays a number:
        // realm-js's suite requires `date == $0` with 1 to fail; epoch ms is {"$date": N}.)
        try checkObjectArgument(node.rhs, against: lhs)
        try checkObjectArgument(node.lhs, against: rhs)
        rhs = typedLinkArgument(node.rhs, rhs, against: lhs)
        lhs = typedLinkArgument(node.lhs, lhs, against: rhs)
        if case .argument = node.rhs, let t = Binder.type(of: lhs) { rhs = Binder.argument(rhs, as: t) }
        if case .argument = node.lhs, let t = Binder.type(of: rhs) { lhs = Binder.argument(lhs, as: t) }
        let lhsType = Binder.type(of: lhs)
        let rhsType = Binder.type(of: rhs)
        if let lt = lhsType, let rt = rhsType, !Binder.compatible(lt, rt) {
            throw RealmError.query(
                message: "cannot compare \(Binder.describe(lhs)) (\(lt)) with \(Binder.describe(rhs)) (\(rt))",
                column: node.column)
        }
        if let reference = lhsType ?? rhsType {
            lhs = try coerce(lhs, to: reference, other: rhs, column: lhsColumn)
            rhs = try coerce(rhs, to: reference, other: lhs, column: rhsColumn)
            try check(op, node.options, on: reference, lhs: lhs, rhs: rhs, column: node.column)
        }
        // Keep constants on the right: `5 < age` is `age > 5`.
        if case .constant = lhs, case .path = rhs, !op.isStringOperator, op != .in, op != .between {
            swap(&lhs, &rhs)
            swap(&lhsColumn, &rhsColumn)
            op = op.flipped
        }
        var needle: [UInt8]?
        if op.isStringOperator || !node.options.isEmpty, case .constant(let value) = rhs {
            switch value {
            case .string(let s): needle = StringMatch.fold(s, node.options)
            case .data(let d): needle = [UInt8](d)
            default: break
            }
        }
        return BoundComparison(
            quantifier: node.quantifier ?? .any, lhs: lhs, op: op, options: node.options, rhs: rhs,
            needle: needle)
    }

    /// An object argument compared with a link must be of the link's class: a link holds only
    /// a key, and keys repeat across classes.
    private func checkObjectArgument(_ node: ExprNode, against other: BoundExpr) throws {
        guard case .argument(let n, let column) = node, let given = objectClasses[n],
            case .object(let target)? = Binder.type(of: other), schema.objectSchemas.indices.contains(target)
        else { return }
        let expected = schema.objectSchemas[target].name
        guard given != expected else { return }
        throw RealmError.query(
            message: "argument \(n) is a \(given) object, but \(Binder.describe(other)) links to \(expected)",
            column: column)
    }

    /// The static type of an operand; nil for constants, which take the type of the other side.
    static func type(of expr: BoundExpr) -> QueryType? {
        switch expr {
        case .constant, .constantList: nil
        case .path(let p): p.type
        case .subqueryCount: .int
        }
    }

    static func describe(_ expr: BoundExpr) -> String {
        switch expr {
        case .constant(let v): v.kindName == "string" ? "'\(v)'" : "\(v)"
        case .constantList(let vs): "{" + vs.map(\.description).joined(separator: ", ") + "}"
        case .path(let p): "'\(p.name)'"
        case .subqueryCount: "SUBQUERY(…).@count"
        }
    }

    /// A constant's kind as a message names it: a decimal is what a number with a point reads
    /// as (`10.5`), so it is called a number there.
    static func kind(of value: Value) -> String {
        if case .decimal128 = value { return "number" }
        return value.kindName
    }

    static func compatible(_ a: QueryType, _ b: QueryType) -> Bool {
        if a.isNumeric && b.isNumeric { return true }
        // A Mixed value may be of any type: which values match is decided per object.
        if a == .mixed || b == .mixed { return true }
        if case .object(let x) = a, case .object(let y) = b { return x == y || x < 0 || y < 0 }
        return a == b
    }

    /// Converts a constant (or each element of a constant list) to `type`, or throws naming both sides.
    private func coerce(_ expr: BoundExpr, to type: QueryType, other: BoundExpr, column: Int) throws -> BoundExpr {
        func convert(_ value: Value) throws -> Value {
            if let v = Binder.convert(value, to: type) { return v }
            throw RealmError.query(
                message:
                    "cannot compare \(Binder.describe(other)) (\(type)) with \(Binder.kind(of: value)) \(Binder.describe(.constant(value)))",
                column: column)
        }
        switch expr {
        case .constant(let v): return .constant(try convert(v))
        case .constantList(let vs): return .constantList(try vs.map(convert))
        default: return expr
        }
    }

    /// An argument constant read by the value syntax for `type` (strings that spell a date, data,
    /// objectId or uuid); other values unchanged (the usual conversion follows).
    static func argument(_ expr: BoundExpr, as type: QueryType) -> BoundExpr {
        func typed(_ value: Value) -> Value {
            switch (type, value) {
            case (.date, .string(let s)): return Timestamp.parseISO8601(s).map(Value.date) ?? value
            case (.data, .string(let s)): return Data(base64Encoded: s).map(Value.data) ?? value
            case (.objectId, .string(let s)): return ObjectId(parsing: s).map(Value.objectId) ?? value
            case (.uuid, .string(let s)): return UUID(uuidString: s).map(Value.uuid) ?? value
            case (.decimal128, .string(let s)): return Decimal128(s).map(Value.decimal128) ?? value
            default: return value
            }
        }
        switch expr {
        case .constant(let v): return .constant(typed(v))
        case .constantList(let vs): return .constantList(vs.map(typed))
        default: return expr
        }
    }

    /// `value` as a constant compared with values of `type`, or nil if they cannot be compared.
    static func convert(_ value: Value, to type: QueryType) -> Value? {
        switch (type, value) {
        case (_, .null): return .null
        // Any constant compares with a Mixed value (an object argument as a link to its class's object).
        case (.mixed, _): return value
        case (.int, .int), (.int, .float), (.int, .double), (.double, .int), (.double, .float), (.double, .double):
            return value
        case (.float, .int(let i)): return .float(Float(i))
        case (.float, .double(let d)): return .float(Float(d))
        case (.float, .float): return value
        // A decimal column against a number: exactly for decimals and ints, a double as Realm
        // Core converts one (15 significant digits). A decimal literal against a float or double
        // column is the double nearest its text, as before there were decimals.
        case (.decimal128, .decimal128): return value
        case (.decimal128, .int(let i)): return .decimal128(Decimal128(i))
        case (.decimal128, .double(let d)): return .decimal128(Decimal128(d))
        case (.decimal128, .float(let f)): return .decimal128(Decimal128(Double(f)))
        case (.int, .decimal128(let d)), (.double, .decimal128(let d)): return .double(d.doubleValue)
        case (.float, .decimal128(let d)): return .float(Float(d.doubleValue))
        case (.bool, .bool), (.string, .string), (.data, .data), (.date, .date), (.objectId, .objectId), (.uuid, .uuid):
            return value
        case (.data, .string(let s)): return .data(Data(s.utf8))
        case (.object, .link): return value
        default: return nil
        }
    }

    private func check(
        _ op: CompareOp, _ options: StringOptions, on type: QueryType, lhs: BoundExpr, rhs: BoundExpr,
        column: Int
    ) throws {
        let subject = Binder.type(of: lhs) != nil ? lhs : rhs
        if op.isStringOperator, type != .string, type != .data, type != .mixed {
            throw RealmError.query(
                message: "\(op.rawValue) needs a string or data operand, but \(Binder.describe(subject)) is \(type)",
                column: column)
        }
        if op.isOrdering, case .object = type {
            throw RealmError.query(
                message: "objects can only be compared with == or !=, not \(op.rawValue)", column: column)
        }
        if !options.isEmpty, op.isOrdering {
            throw RealmError.query(
                message: "[c] and [d] apply to ==, !=, IN, BEGINSWITH, ENDSWITH, CONTAINS and LIKE, not \(op.rawValue)",
                column: column)
        }
        if !options.isEmpty, type != .string, type != .data, type != .mixed {
            throw RealmError.query(
                message: "[c] and [d] apply to strings only; \(Binder.describe(subject)) is \(type)",
                column: column)
        }
    }

    // MARK: Operands

    private mutating func bindExpr(_ node: ExprNode, classIndex: Int, variable: String?) throws -> BoundExpr {
        switch node {
        case .literal(let v, _):
            return .constant(v)
        case .argument(let n, let column):
            guard n < arguments.count else {
                throw RealmError.query(
                    message: "argument $\(n) was not given (\(arguments.count) arguments)", column: column)
            }
            if case .list(let items) = arguments[n] { return .constantList(items) }
            return .constant(arguments[n])
        case .list(let items, _):
            return .constantList(
                try items.map { item in
                    let bound = try bindExpr(item, classIndex: classIndex, variable: variable)
                    guard case .constant(let v) = bound else {
                        throw RealmError.query(message: "a list {…} may hold only constants", column: item.column)
                    }
                    return v
                })
        case .keyPath(let components, _):
            if components.count == 1, variable == nil || components[0].name != variable,
                schema.objectSchemas[classIndex][components[0].name] == nil
            {
                switch components[0].name.lowercased() {
                case "inf", "infinity": return .constant(.double(.infinity))
                case "nan": return .constant(.double(.nan))
                default: break
                }
            }
            return .path(try bindPath(components, classIndex: classIndex, variable: variable))
        case .subquery(let collection, let name, let predicate, let column):
            let path = try bindPath(collection, classIndex: classIndex, variable: variable)
            guard path.throughCollection, path.postfix == .none, case .object(let target) = path.elementType else {
                throw RealmError.query(
                    message: "SUBQUERY needs a list of objects or linking objects, but '\(path.name)' is not one",
                    column: column)
            }
            let inner = try bind(predicate, classIndex: target, variable: name)
            return .subqueryCount(BoundSubquery(collection: path, predicate: inner))
        }
    }
}
