import Foundation

/// A strict RFC 8259 JSON parser producing `JSONValue` (ordered members, booleans apart from
/// numbers, number text kept).
///
/// What holds:
/// - Any byte sequence either parses or throws `RealmError.invalidInput` naming the line and
///   column; nothing traps. Nesting deeper than `JSONParser.maxDepth` is an error, not a stack
///   overflow.
/// - Strings must be valid UTF-8; `\u` escapes must pair surrogates correctly.
/// - A leading UTF-8 byte order mark is skipped; anything after the value but whitespace is an
///   error.
public struct JSONParser {
    /// Deepest nesting of arrays and objects accepted. Import files nest one level per linked
    /// object created inline; 512 is far beyond real data and far below the stack's limit.
    public static let maxDepth = 512

    /// The input, borrowed for the parse (no copy of an element cut out of a larger buffer).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Where `bytes` begin in the whole input (1-based line and column), for errors in one
    /// element that `JSONElementStream` cut out of a larger document.
    private var origin = (line: 1, column: 1)

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one JSON document.
    public static func parse(_ data: Data) throws -> JSONValue {
        try parse(bytes: [UInt8](data))
    }

    /// Parses one JSON document from text.
    public static func parse(_ text: String) throws -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses one JSON value that begins at `line`, `column` of a larger input (errors say
    /// where in that input).
    static func parse(bytes: [UInt8], line: Int, column: Int) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { try parse(bytes: $0, line: line, column: column) }
    }

    /// `parse(bytes:line:column:)` over borrowed bytes.
    static func parse(bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int) throws -> JSONValue {
        var parser = JSONParser(bytes)
        parser.origin = (line, column)
        parser.skipWhitespace()
        guard parser.index < bytes.count else { throw parser.error("unexpected end of input: expected a JSON value") }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    static func parse(bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { try parse(document: $0) }
    }

    private static func parse(document bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var parser = JSONParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        guard parser.index < bytes.count else { throw parser.error("empty input: expected a JSON value") }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    // MARK: - Grammar

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal(Self.trueBytes)
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal(Self.falseBytes)
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal(Self.nullBytes)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeByte()): expected a JSON value")
        }
    }

    private mutating func enter() throws {
        depth += 1
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enter()
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw error("unexpected \(describeByte()): expected a quoted member name")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error("unexpected \(describeByte()): expected ':' after member name")
            }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue()))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "}")) {
                index += 1
                break
            }
            throw error("unexpected \(describeByte()): expected ',' or '}' in an object")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func parseArray() throws -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            if peek(UInt8(ascii: "]")) {
                index += 1
                break
            }
            throw error("unexpected \(describeByte()): expected ',' or ']' in an array")
        }
        depth -= 1
        return .array(items)
    }

    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8), nullBytes = Array("null".utf8)

    private mutating func literal(_ word: [UInt8]) throws {
        guard index + word.count <= bytes.count, bytes[index..<index + word.count].elementsEqual(word) else {
            throw error("unexpected \(describeByte()): expected a JSON value")
        }
        index += word.count
    }

    private mutating func parseNumber() throws -> String {
        let start = index
        func digits() -> Int {
            let s = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - s
        }
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                throw error("a number cannot have a leading zero")
            }
        } else if digits() == 0 {
            throw error("unexpected \(describeByte()): expected a digit")
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            if digits() == 0 { throw error("unexpected \(describeByte()): expected a digit after '.'") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            if digits() == 0 { throw error("unexpected \(describeByte()): expected a digit in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws -> String {
        index += 1  // opening quote
        // Most strings have no escape and are ASCII: made straight from the input (ASCII is
        // valid UTF-8), without the copy and the check below.
        var scan = index
        while scan < bytes.count {
            let c = bytes[scan]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: bytes[index..<scan], as: UTF8.self)
                index = scan + 1
                return s
            }
            if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\\") { break }
            scan += 1
        }
        var out: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if c < 0x20 {
                throw error("a control character (0x\(String(c, radix: 16))) must be escaped inside a string")
            }
            if c != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            out.append(contentsOf: bytes[runStart..<index])
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else {
                        throw error(
                            "a high surrogate \\u\(String(scalar, radix: 16)) must be followed by a low surrogate")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("invalid low surrogate \\u\(String(low, radix: 16))")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("a lone low surrogate \\u\(String(scalar, radix: 16))")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                index -= 1
                throw error("invalid escape '\\\(describeByte())'")
            }
            runStart = index
        }
        // `String(decoding:)` repairs bad UTF-8 with U+FFFD; if that changed the bytes, the input
        // was not UTF-8. (`String(validating:as:)` needs macOS 15.)
        let s = String(decoding: out, as: UTF8.self)
        guard s.utf8.elementsEqual(out) else { throw error("a string is not valid UTF-8") }
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hexadecimal digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            default: throw error("a \\u escape needs four hexadecimal digits")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    // MARK: - Helpers

    private func peek(_ c: UInt8) -> Bool { index < bytes.count && bytes[index] == c }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describeByte() -> String {
        guard index < bytes.count else { return "end of input" }
        let c = bytes[index]
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    /// An `invalidInput` error at the current position (1-based line and column in characters).
    private func error(_ message: String) -> RealmError {
        var line = origin.line
        var lineStart = 0
        let end = min(index, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let characters = String(decoding: bytes[lineStart..<end], as: UTF8.self).count
        let column = line == origin.line ? origin.column + characters : characters + 1
        return RealmError.invalidInput("JSON: \(message) at line \(line), column \(column)")
    }
}
