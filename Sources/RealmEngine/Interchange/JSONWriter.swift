/// Writes JSON text by hand, so member order is exactly the order given (`JSONSerialization`
/// reorders keys) and non-ASCII text stays readable UTF-8 (`"张三"`, not `"\u5f20\u4e09"`).
///
/// Escaping follows RFC 8259: `"` and `\` are escaped, control characters U+0000–U+001F become
/// `\n`, `\t`, … or `\u00XX`; DEL and U+2028/U+2029 are escaped too so the output is also safe
/// inside JavaScript and when printed to a terminal. Everything else is written as is.
public struct JSONWriter: Sendable {
    /// The text written so far.
    public private(set) var output = ""
    /// Whether nested arrays and objects are indented (two spaces a level).
    public let pretty: Bool

    /// Creates an empty writer.
    public init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// Appends a value.
    public mutating func write(_ value: JSONValue) {
        write(value, indent: 0)
    }

    /// Takes the text written so far and empties the buffer (for streaming large exports).
    public mutating func flush() -> String {
        defer { output = "" }
        return output
    }

    /// Appends raw, already valid JSON text (separators, newlines between streamed values).
    public mutating func writeRaw(_ text: String) {
        output += text
    }

    private mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .number(let text): output += text
        case .string(let s): JSONWriter.appendQuoted(s, to: &output)
        case .array(let items):
            if items.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (i, item) in items.enumerated() {
                if i > 0 { output += "," }
                newline(indent + 1)
                write(item, indent: indent + 1)
            }
            newline(indent)
            output += "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { output += "," }
                newline(indent + 1)
                JSONWriter.appendQuoted(member.key, to: &output)
                output += pretty ? ": " : ":"
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            output += "}"
        }
    }

    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// `s` as a quoted JSON string.
    public static func quoted(_ s: String) -> String {
        var out = ""
        appendQuoted(s, to: &out)
        return out
    }

    /// Appends `s` as a quoted JSON string.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        // Fast path: nothing to escape (0xE2 leads U+2028 and U+2029, so it takes the slow path).
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
            out += s
            out += "\""
            return
        }
        var run = s.unicodeScalars.startIndex
        let scalars = s.unicodeScalars
        var i = run
        while i != scalars.endIndex {
            let c = scalars[i]
            let escape: String?
            switch c.value {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00..<0x20, 0x7F, 0x2028, 0x2029:
                let hex = String(c.value, radix: 16)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escape = nil
            }
            if let escape {
                out.unicodeScalars.append(contentsOf: scalars[run..<i])
                out += escape
                run = scalars.index(after: i)
            }
            i = scalars.index(after: i)
        }
        out.unicodeScalars.append(contentsOf: scalars[run..<scalars.endIndex])
        out += "\""
    }
}
