import Foundation

/// One token of the query language. `column` is the 1-based position (in Unicode scalars) of its
/// first character, used for error messages.
struct Token: Equatable {
    enum Kind: Equatable {
        /// A name: a property, a keyword (`AND`, `true`, `SORT`…), `@count`, `@links`, `$x`.
        case identifier(String)
        /// `$0`, `$1`, …
        case argument(Int)
        /// `%@`, `%d`, `%f` (a positional argument) or `%K` (a key path argument).
        case format(Character)
        /// A literal value: numbers, strings, dates, `oid(…)`, `uuid(…)`, `B64"…"`.
        case literal(Value)
        /// Punctuation and operators: `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`, `(`, `)`,
        /// `{`, `}`, `[`, `]`, `,`, `.`.
        case symbol(String)
        case end
    }
    var kind: Kind
    var column: Int
    /// The source text of the token, for messages.
    var text: String
}

/// Splits query text into tokens. Strings keep their content as written between the quotes
/// (a backslash only stops the next character from ending the string), as Realm Core does.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var i = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    static func tokenize(_ text: String) throws -> [Token] {
        var lexer = Lexer(text)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        i + offset < scalars.count ? scalars[i + offset] : nil
    }

    private func text(_ from: Int) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[from..<i])
        return String(s)
    }

    private static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { $0 >= "0" && $0 <= "9" } ?? false }
    private static func isIdentStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || c == "@" || c == "$" || c == "#"
            || c.value > 127
    }
    private static func isIdentPart(_ c: Unicode.Scalar) -> Bool { isIdentStart(c) || isDigit(c) }

    mutating func next() throws -> Token {
        while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1 }
        let start = i
        let column = start + 1
        guard let c = peek() else { return Token(kind: .end, column: column, text: "") }
        func make(_ kind: Token.Kind) -> Token { Token(kind: kind, column: column, text: text(start)) }

        // Two-character operators first.
        if let d = peek(1) {
            let pair = String(Character(c)) + String(Character(d))
            let canonical: String? =
                switch pair {
                case "==": "=="
                case "!=", "<>": "!="
                case "<=", "=<": "<="
                case ">=", "=>": ">="
                case "&&": "&&"
                case "||": "||"
                default: nil
                }
            if let canonical {
                i += 2
                return Token(kind: .symbol(canonical), column: column, text: pair)
            }
        }
        switch c {
        case "=":
            i += 1
            return Token(kind: .symbol("=="), column: column, text: "=")
        case "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", "*":
            i += 1
            return make(.symbol(String(Character(c))))
        case ".":
            if Lexer.isDigit(peek(1)) { return try number(start) }
            i += 1
            return make(.symbol("."))
        case "'", "\"":
            return make(.literal(.string(try quoted(c, column: column))))
        case "%":
            guard let f = peek(1), "@dfK".unicodeScalars.contains(f) else {
                throw RealmError.query(message: "expected %@, %d, %f or %K after '%'", column: column)
            }
            i += 2
            return make(.format(Character(f)))
        case "-", "+":
            if Lexer.isDigit(peek(1)) || peek(1) == "." { return try number(start) }
            // -inf, -infinity
            i += 1
            let wordStart = i
            while let d = peek(), Lexer.isIdentPart(d) { i += 1 }
            let word = text(wordStart).lowercased()
            if word == "inf" || word == "infinity" {
                return make(.literal(.double(c == "-" ? -.infinity : .infinity)))
            }
            throw RealmError.query(message: "unexpected character '\(Character(c))'", column: column)
        default:
            break
        }
        if Lexer.isDigit(c) {
            if let date = try dateLiteral(column: column) { return make(.literal(.date(date))) }
            return try number(start)
        }
        if c == "$", Lexer.isDigit(peek(1)) {
            i += 1
            while Lexer.isDigit(peek()) { i += 1 }
            guard let n = Int(text(start + 1)) else {
                throw RealmError.query(message: "argument number '\(text(start))' is too large", column: column)
            }
            return make(.argument(n))
        }
        if c == "T", Lexer.isDigit(peek(1)) || (peek(1) == "-" && Lexer.isDigit(peek(2))),
            let date = try secondsLiteral(column: column)
        {
            return make(.literal(.date(date)))
        }
        if c == "B", peek(1) == "6", peek(2) == "4", let q = peek(3), q == "\"" || q == "'" {
            i += 3
            let body = try quoted(q, column: column)
            guard let data = Data(base64Encoded: body) else {
                throw RealmError.query(
                    message: "invalid base64 data in B64\(Character(q))…\(Character(q))", column: column)
            }
            return make(.literal(.data(data)))
        }
        if Lexer.isIdentStart(c) {
            i += 1
            while let d = peek(), Lexer.isIdentPart(d) { i += 1 }
            let word = text(start)
            if word == "oid" || word == "uuid", peek() == "(" {
                i += 1
                let bodyStart = i
                while let d = peek(), d != ")" { i += 1 }
                guard peek() == ")" else {
                    throw RealmError.query(message: "expected ')' to close \(word)(", column: column)
                }
                let body = text(bodyStart).trimmingCharacters(in: .whitespaces)
                i += 1
                if word == "oid" {
                    guard let oid = ObjectId(parsing: body) else {
                        throw RealmError.query(
                            message: "invalid object id '\(body)': expected 24 hexadecimal digits", column: column)
                    }
                    return make(.literal(.objectId(oid)))
                }
                guard let uuid = UUID(uuidString: body) else {
                    throw RealmError.query(message: "invalid uuid '\(body)'", column: column)
                }
                return make(.literal(.uuid(uuid)))
            }
            return make(.identifier(word))
        }
        throw RealmError.query(message: "unexpected character '\(Character(c))'", column: column)
    }

    /// Reads a quoted string starting at the opening quote; returns its raw content.
    private mutating func quoted(_ quote: Unicode.Scalar, column: Int) throws -> String {
        i += 1
        let bodyStart = i
        while let c = peek(), c != quote {
            i += c == "\\" ? 2 : 1
        }
        guard i < scalars.count else {
            throw RealmError.query(
                message: "unterminated string: expected a closing \(Character(quote))", column: column)
        }
        let body = text(bodyStart)
        i += 1
        return body
    }

    private mutating func number(_ start: Int) throws -> Token {
        let column = start + 1
        if peek() == "-" || peek() == "+" { i += 1 }
        if peek() == "0", let x = peek(1), x == "x" || x == "X" {
            i += 2
            let digitsStart = i
            while let d = peek(), d.properties.isASCIIHexDigit { i += 1 }
            let negative = scalars[start] == "-"
            guard let v = UInt64(text(digitsStart), radix: 16) else {
                throw RealmError.query(message: "invalid hexadecimal number '\(text(start))'", column: column)
            }
            let value = Int64(bitPattern: v)
            // Wrapping: -0x8000000000000000 is Int64.min, whose magnitude Int64 cannot hold.
            return Token(kind: .literal(.int(negative ? 0 &- value : value)), column: column, text: text(start))
        }
        var isFloat = false
        while Lexer.isDigit(peek()) { i += 1 }
        if peek() == ".", Lexer.isDigit(peek(1)) || !(peek(1).map(Lexer.isIdentStart) ?? false) {
            isFloat = true
            i += 1
            while Lexer.isDigit(peek()) { i += 1 }
        }
        if let e = peek(), e == "e" || e == "E",
            Lexer.isDigit(peek(1)) || ((peek(1) == "-" || peek(1) == "+") && Lexer.isDigit(peek(2)))
        {
            isFloat = true
            i += 2
            while Lexer.isDigit(peek()) { i += 1 }
        }
        let s = text(start)
        if !isFloat, let v = Int64(s) {
            return Token(kind: .literal(.int(v)), column: column, text: s)
        }
        // A number with a point or an exponent is kept as the decimal it spells when a decimal128
        // holds it exactly, so `price > 12.50` compares exactly with a decimal column; the binder
        // turns it into the nearest double for float and double columns (what Double(s) gives).
        if let decimal = Decimal128(exactly: s), decimal.isFinite {
            return Token(kind: .literal(.decimal128(decimal)), column: column, text: s)
        }
        guard let d = Double(s) else {
            throw RealmError.query(message: "invalid number '\(s)'", column: column)
        }
        return Token(kind: .literal(.double(d)), column: column, text: s)
    }

    private mutating func digits(max: Int = 19) -> Int64? {
        let s = i
        while Lexer.isDigit(peek()), i - s < max { i += 1 }
        guard i > s else { return nil }
        return Int64(text(s))
    }

    /// `YYYY-MM-DD@HH:MM:SS[:nanoseconds]`, also with `T` for `@`. Returns nil (consuming nothing)
    /// when the text is not shaped like a date.
    private mutating func dateLiteral(column: Int) throws -> Timestamp? {
        let save = i
        func fail() -> Timestamp? {
            i = save
            return nil
        }
        guard let year = digits(max: 6), peek() == "-" else { return fail() }
        i += 1
        guard let month = digits(max: 2), peek() == "-" else { return fail() }
        i += 1
        guard let day = digits(max: 2) else { return fail() }
        guard let sep = peek(), sep == "@" || sep == "T" else {
            // `2020-01-01` alone lexed as 2020 then -01 ("unexpected '-01'"): say how a date is written.
            if peek().map({ !Lexer.isIdentPart($0) }) ?? true {
                let shown = text(save)
                throw RealmError.query(
                    message:
                        "a date needs its time (UTC): write \(shown)@00:00:00, or T<seconds since 1970>:<nanoseconds>",
                    column: column)
            }
            return fail()
        }
        i += 1
        guard let hh = digits(max: 2), peek() == ":" else { return fail() }
        i += 1
        guard let mm = digits(max: 2), peek() == ":" else { return fail() }
        i += 1
        guard let ss = digits(max: 2) else { return fail() }
        var nanos: Int64 = 0
        if peek() == ":", Lexer.isDigit(peek(1)) {
            i += 1
            guard let n = digits(max: 9), n < 1_000_000_000 else {
                throw RealmError.query(message: "invalid nanoseconds in date literal", column: column)
            }
            nanos = n
        }
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, of: year)).contains(day), hh < 24, mm < 60,
            ss < 61
        else {
            throw RealmError.query(message: "invalid date literal '\(text(save))'", column: column)
        }
        let seconds = Timestamp.days(year: year, month: month, day: day) * 86400 + hh * 3600 + mm * 60 + ss
        return Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// `T<seconds>:<nanoseconds>` (seconds since 1970).
    private mutating func secondsLiteral(column: Int) throws -> Timestamp? {
        let save = i
        i += 1
        let negative = peek() == "-"
        if negative { i += 1 }
        guard let s = digits(), peek() == ":" else {
            i = save
            return nil
        }
        i += 1
        let nNegative = peek() == "-"
        if nNegative { i += 1 }
        guard let n = digits(max: 10), n < 1_000_000_000 else {
            throw RealmError.query(message: "invalid nanoseconds in date literal", column: column)
        }
        return Timestamp(seconds: negative ? -s : s, nanoseconds: Int32(nNegative ? -n : n))
    }
}
