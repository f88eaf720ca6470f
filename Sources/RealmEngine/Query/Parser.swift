/// Recursive-descent parser for the query language.
///
/// Grammar (keywords are case-insensitive):
///
///     query      := or ordering* END
///     or         := and (("OR" | "||") and)*
///     and        := not (("AND" | "&&") not)*
///     not        := ("NOT" | "!") not | "(" or ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
///     comparison := [ANY|SOME|ALL|NONE] expr op ["[" c|d|cd "]"] expr
///                 | expr BETWEEN "{" expr "," expr "}"
///     expr       := literal | $n | %@ | %d | %f | keypath | %K | "{" expr, … "}"
///                 | SUBQUERY "(" keypath "," $var "," or ")" "." "@count"
///     ordering   := SORT "(" keypath [ASC|DESC], … ")" | DISTINCT "(" keypath, … ")" | LIMIT "(" int ")"
///
/// Nesting (parentheses, NOT, SUBQUERY) is limited to `Limits.maxQueryDepth`, so hostile input
/// is an error, never a stack overflow; AND/OR chains are parsed iteratively.
struct Parser {
    private var tokens: [Token]
    private var position = 0
    private var depth = 0
    private let arguments: [Value]
    /// The next `%@`/`%d`/`%f`/`%K` argument.
    private var nextFormatArgument = 0

    init(tokens: [Token], arguments: [Value]) {
        self.tokens = tokens
        self.arguments = arguments
    }

    /// Parses a whole query.
    static func parse(_ text: String, arguments: [Value]) throws -> QueryNode {
        var parser = Parser(tokens: try Lexer.tokenize(text), arguments: arguments)
        return try parser.parseQuery()
    }

    private var current: Token { tokens[position] }
    private var previous: Token { tokens[max(0, position - 1)] }
    private func peek(_ n: Int) -> Token { tokens[min(position + n, tokens.count - 1)] }
    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isKeyword(_ token: Token, _ words: String...) -> Bool {
        guard case .identifier(let name) = token.kind else { return false }
        let upper = name.uppercased()
        return words.contains(upper)
    }

    private func isSymbol(_ token: Token, _ symbol: String) -> Bool { token.kind == .symbol(symbol) }

    private func describe(_ token: Token) -> String {
        token.kind == .end ? "the end of the query" : "'\(token.text)'"
    }

    private func error(_ message: String, at token: Token) -> RealmError {
        .query(message: message, column: token.column)
    }

    private mutating func expect(_ symbol: String, _ context: String) throws {
        guard isSymbol(current, symbol) else {
            throw error("expected '\(symbol)' \(context), found \(describe(current))", at: current)
        }
        advance()
    }

    mutating func parseQuery() throws -> QueryNode {
        if current.kind == .end {
            throw error("expected a predicate, found an empty query", at: current)
        }
        let predicate = try parseOr()
        var ordering: [OrderingClause] = []
        while isKeyword(current, "SORT", "DISTINCT", "LIMIT"), isSymbol(peek(1), "(") {
            ordering.append(try parseOrdering())
        }
        guard current.kind == .end else {
            throw error(
                "unexpected \(describe(current)); expected AND, OR, SORT, DISTINCT, LIMIT or the end", at: current)
        }
        return QueryNode(predicate: predicate, ordering: ordering)
    }

    private mutating func enter(_ token: Token) throws {
        depth += 1
        if depth > Limits.maxQueryDepth {
            throw error("the query is nested too deeply (more than \(Limits.maxQueryDepth) levels)", at: token)
        }
    }

    private mutating func parseOr() throws -> PredicateNode {
        var terms = [try parseAnd()]
        while isSymbol(current, "||") || isKeyword(current, "OR") {
            advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws -> PredicateNode {
        var terms = [try parseNot()]
        while isSymbol(current, "&&") || isKeyword(current, "AND") {
            advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws -> PredicateNode {
        let token = current
        if isSymbol(token, "!") || isKeyword(token, "NOT") {
            try enter(token)
            advance()
            let inner = try parseNot()
            depth -= 1
            return .not(inner)
        }
        if isSymbol(token, "(") {
            try enter(token)
            advance()
            let inner = try parseOr()
            try expect(")", "to close the '(' at column \(token.column)")
            depth -= 1
            return inner
        }
        if isKeyword(token, "TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if isKeyword(token, "FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> PredicateNode {
        var quantifier: Quantifier?
        if isKeyword(current, "ANY", "SOME", "ALL", "NONE"), !isOperator(peek(1)) {
            quantifier = isKeyword(current, "ALL") ? .all : isKeyword(current, "NONE") ? Quantifier.none : .any
            advance()
        }
        if current.kind == .end {
            throw error(
                position == 0 ? "expected a predicate" : "expected a predicate after '\(previous.text)'", at: current)
        }
        let lhs = try parseExpr()
        let opToken = current
        guard let op = comparisonOperator(opToken) else {
            throw error(
                "expected a comparison operator after '\(previous.text)', found \(describe(opToken))", at: opToken)
        }
        advance()
        var options: StringOptions = []
        if isSymbol(current, "["), case .identifier(let flags) = peek(1).kind, isSymbol(peek(2), "]") {
            for f in flags.lowercased() {
                switch f {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                default: throw error("unknown string option '\(f)'; use [c], [d] or [cd]", at: peek(1))
                }
            }
            advance()
            advance()
            advance()
        }
        if current.kind == .end || isSymbol(current, ")") {
            throw error("expected a value after '\(tokens[position - (options.isEmpty ? 1 : 4)].text)'", at: current)
        }
        let rhs: ExprNode
        if op == .between {
            let open = current
            guard isSymbol(open, "{") else {
                throw error("expected '{lower, upper}' after BETWEEN, found \(describe(open))", at: open)
            }
            rhs = try parseExpr()
            if case .list(let items, _) = rhs, items.count == 2 {
            } else {
                throw error("BETWEEN needs exactly two values: {lower, upper}", at: open)
            }
        } else {
            rhs = try parseExpr()
        }
        return .comparison(
            ComparisonNode(
                quantifier: quantifier, lhs: lhs, op: op, options: options, rhs: rhs,
                column: opToken.column))
    }

    private func isOperator(_ token: Token) -> Bool { comparisonOperator(token) != nil }

    private func comparisonOperator(_ token: Token) -> CompareOp? {
        switch token.kind {
        case .symbol(let s): return CompareOp(rawValue: s)
        case .identifier(let name): return CompareOp(rawValue: name.uppercased())
        default: return nil
        }
    }

    private mutating func nextFormat(_ token: Token) throws -> Int {
        let n = nextFormatArgument
        guard n < arguments.count else {
            throw error("'\(token.text)' needs argument \(n), but only \(arguments.count) were given", at: token)
        }
        nextFormatArgument += 1
        return n
    }

    private mutating func parseExpr() throws -> ExprNode {
        let token = current
        switch token.kind {
        case .literal(let value):
            advance()
            return .literal(value, column: token.column)
        case .argument(let n):
            advance()
            return .argument(n, column: token.column)
        case .format("K"):
            let n = try nextFormat(token)
            guard case .string(let path) = arguments[n], !path.isEmpty else {
                throw error("%K needs a key path string argument; argument \(n) is \(arguments[n].kindName)", at: token)
            }
            advance()
            var components = path.split(separator: ".", omittingEmptySubsequences: false).map {
                PathComponent(name: String($0), column: token.column)
            }
            try parsePathTail(&components)
            return .keyPath(components, column: token.column)
        case .format:
            let n = try nextFormat(token)
            advance()
            return .argument(n, column: token.column)
        case .symbol("{"):
            advance()
            var items: [ExprNode] = []
            if !isSymbol(current, "}") {
                while true {
                    let item = try parseExpr()
                    if case .list = item { throw error("lists cannot be nested", at: token) }
                    items.append(item)
                    if isSymbol(current, ",") {
                        advance()
                        continue
                    }
                    break
                }
            }
            try expect("}", "to close the list at column \(token.column)")
            return .list(items, column: token.column)
        case .identifier(let name):
            switch name.lowercased() {
            case "true":
                advance()
                return .literal(.bool(true), column: token.column)
            case "false":
                advance()
                return .literal(.bool(false), column: token.column)
            case "null", "nil":
                advance()
                return .literal(.null, column: token.column)
            case "subquery" where isSymbol(peek(1), "("): return try parseSubquery()
            default:
                return .keyPath(try parseKeyPath(), column: token.column)
            }
        default:
            throw error("expected a value or a property, found \(describe(token))", at: token)
        }
    }

    /// `name(.name)*`.
    private mutating func parseKeyPath() throws -> [PathComponent] {
        guard case .identifier(let name) = current.kind else {
            throw error("expected a property name, found \(describe(current))", at: current)
        }
        var components = [PathComponent(name: name, column: current.column)]
        advance()
        try parsePathTail(&components)
        return components
    }

    private mutating func parsePathTail(_ components: inout [PathComponent]) throws {
        while isSymbol(current, ".") || isSymbol(current, "[") {
            if isSymbol(current, "[") {
                // `attrs['key']`: a dictionary's key (a string literal or an argument).
                let open = current
                advance()
                if let position = try parsePosition() {
                    components.append(PathComponent(name: position.text, column: current.column, position: position))
                    advance()
                    try expect("]", "to close the position at column \(open.column)")
                    continue
                }
                let key: String
                switch current.kind {
                case .literal(.string(let k)):
                    key = k
                case .argument(let n) where n < arguments.count:
                    guard case .string(let k) = arguments[n] else {
                        throw error("a dictionary key must be a string", at: current)
                    }
                    key = k
                case .format("@"):
                    let n = try nextFormat(current)
                    guard case .string(let k) = arguments[n] else {
                        throw error("a dictionary key must be a string", at: current)
                    }
                    key = k
                default:
                    throw error(
                        "expected a dictionary key in quotes after '[', found \(describe(current))", at: current)
                }
                components.append(PathComponent(name: key, column: current.column, isKey: true))
                advance()
                try expect("]", "to close the key at column \(open.column)")
                continue
            }
            advance()
            switch current.kind {
            case .identifier(let next):
                components.append(PathComponent(name: next, column: current.column))
                advance()
            case .format("K"):
                let n = try nextFormat(current)
                guard case .string(let path) = arguments[n] else {
                    throw error("%K needs a key path string argument", at: current)
                }
                components += path.split(separator: ".").map { PathComponent(name: String($0), column: current.column) }
                advance()
            default:
                throw error("expected a property name after '.', found \(describe(current))", at: current)
            }
        }
    }

    /// A position in brackets (`[0]`, `[FIRST]`, `[LAST]`, `[*]`) at the current token, or nil
    /// when the token is something else (a dictionary key).
    private func parsePosition() throws -> PathPosition? {
        switch current.kind {
        case .literal(.int(let n)):
            guard n >= 0, let i = Int(exactly: n) else {
                throw error("a position in brackets must be 0 or more, not \(n)", at: current)
            }
            return .index(i)
        case .symbol("*"): return .all
        case .identifier(let word) where word.uppercased() == "LAST": return .last
        case .identifier(let word) where word.uppercased() == "FIRST": return .index(0)
        default: return nil
        }
    }

    private mutating func parseSubquery() throws -> ExprNode {
        let start = current
        try enter(start)
        advance()
        try expect("(", "after SUBQUERY")
        let collection = try parseKeyPath()
        try expect(",", "after the SUBQUERY collection")
        guard case .identifier(let variable) = current.kind, variable.hasPrefix("$") else {
            throw error(
                "expected a variable like $x as SUBQUERY's second argument, found \(describe(current))", at: current)
        }
        advance()
        try expect(",", "after the SUBQUERY variable")
        let predicate = try parseOr()
        try expect(")", "to close SUBQUERY")
        try expect(".", "after SUBQUERY(…): SUBQUERY must be followed by .@count")
        guard isKeyword(current, "@COUNT", "@SIZE") else {
            throw error("SUBQUERY(…) must be followed by .@count", at: current)
        }
        advance()
        depth -= 1
        return .subquery(collection: collection, variable: variable, predicate: predicate, column: start.column)
    }

    private mutating func parseOrdering() throws -> OrderingClause {
        let keyword = current
        advance()
        try expect("(", "after \(keyword.text)")
        if isKeyword(keyword, "LIMIT") {
            guard case .literal(.int(let n)) = current.kind, n >= 0 else {
                throw error("LIMIT needs a non-negative integer, found \(describe(current))", at: current)
            }
            advance()
            try expect(")", "to close LIMIT(")
            return .limit(Int(clamping: n))
        }
        var sorts: [SortDescriptor] = []
        var paths: [String] = []
        while true {
            let path = try parseKeyPath().map(\.name).joined(separator: ".")
            if isKeyword(keyword, "SORT") {
                var ascending = true
                if isKeyword(current, "ASC", "ASCENDING") {
                    advance()
                } else if isKeyword(current, "DESC", "DESCENDING") {
                    ascending = false
                    advance()
                } else {
                    throw error("expected ASC or DESC after '\(path)' in SORT, found \(describe(current))", at: current)
                }
                sorts.append(SortDescriptor(keyPath: path, ascending: ascending))
            } else {
                paths.append(path)
            }
            if isSymbol(current, ",") {
                advance()
                continue
            }
            break
        }
        try expect(")", "to close \(keyword.text)(")
        return isKeyword(keyword, "SORT") ? .sort(sorts) : .distinct(paths)
    }
}
