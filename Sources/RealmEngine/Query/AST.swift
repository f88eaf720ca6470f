/// The syntax tree of a query, as parsed and before type checking.

/// A comparison operator. `IN` and `BETWEEN` compare against a list.
enum CompareOp: String, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case `in` = "IN"
    case between = "BETWEEN"

    /// Whether this is a string/data operator (`BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`).
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like: true
        default: false
        }
    }

    /// Whether this orders values (`<`, `<=`, `>`, `>=`, `BETWEEN`).
    var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: true
        default: false
        }
    }

    /// The operator with its operands swapped (`a < b` ⇔ `b > a`).
    var flipped: CompareOp {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: self
        }
    }
}

/// `ANY`/`SOME`, `ALL`, `NONE` before a key path through a list.
enum Quantifier: Sendable { case any, all, none }

/// `[c]`, `[d]`, `[cd]` after a string operator.
struct StringOptions: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let caseInsensitive = StringOptions(rawValue: 1)
    static let diacriticInsensitive = StringOptions(rawValue: 2)
}

/// One component of a key path with its position.
struct PathComponent: Equatable {
    var name: String
    var column: Int
    /// A dictionary key written in brackets (`attrs['color']`): taken as it is, never as an
    /// operator (`attrs['@count']` is the key "@count").
    var isKey = false
    /// A bracketed position (`mixed[0]`, `[LAST]`, `[*]`): `name` is its text.
    var position: PathPosition?
}

/// An operand of a comparison.
indirect enum ExprNode {
    /// `a.b.@count`; `column` is where the path starts.
    case keyPath([PathComponent], column: Int)
    /// A literal (`.null` for nil/null).
    case literal(Value, column: Int)
    /// A positional argument, numbered from 0 (`$n`, or the n-th `%@`).
    case argument(Int, column: Int)
    /// `{a, b, …}`.
    case list([ExprNode], column: Int)
    /// `SUBQUERY(collection, $x, predicate).@count`.
    case subquery(collection: [PathComponent], variable: String, predicate: PredicateNode, column: Int)

    var column: Int {
        switch self {
        case .keyPath(_, let c), .literal(_, let c), .argument(_, let c), .list(_, let c): c
        case .subquery(_, _, _, let c): c
        }
    }
}

/// A comparison: `[quantifier] lhs op[options] rhs`. For `BETWEEN`, `rhs` is a two-element list.
struct ComparisonNode {
    var quantifier: Quantifier?
    var lhs: ExprNode
    var op: CompareOp
    var options: StringOptions
    var rhs: ExprNode
    /// Position of the operator.
    var column: Int
}

/// A predicate.
indirect enum PredicateNode {
    case constant(Bool)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    case comparison(ComparisonNode)
}

/// One trailing clause, applied left to right after filtering.
enum OrderingClause: Equatable {
    case sort([SortDescriptor])
    case distinct([String])
    case limit(Int)
}

/// A whole parsed query.
struct QueryNode {
    var predicate: PredicateNode
    var ordering: [OrderingClause]
}
