import Foundation

/// Turns an NSPredicate-style format (`"color = %@ AND %K > %d"`) into Realm's query language
/// with numbered arguments (`"color = $0 AND age > $1"`): `%@`, `%d`, `%i`, `%f`, `%ld`, `%lld`
/// become `$n`; `%K` inserts a property name; `%%` is a percent sign. Text inside quotes
/// (where a backslash escapes the next character) is copied unchanged. A format already
/// written with `$n` keeps its arguments.
enum PredicateFormat {
    /// A converted predicate: the text, its arguments, and the class of each argument that is
    /// an object (by argument number), which the engine checks against the key path it meets.
    struct Converted {
        let text: String
        let values: [Value]
        let objectClasses: [Int: String]
    }

    static func convert(_ format: String, _ args: [Any]) throws -> Converted {
        let (text, values, sources) = try numbered(format, args)
        var classes: [Int: String] = [:]
        for (number, source) in sources.enumerated() {
            if let object = source as? Object { classes[number] = type(of: object).className() }
        }
        return Converted(text: text, values: values, objectClasses: classes)
    }

    /// The text with `$n` arguments, their values, and the argument each came from.
    private static func numbered(_ format: String, _ args: [Any]) throws -> (String, [Value], [Any]) {
        var out = ""
        var values: [Value] = []
        var sources: [Any] = []
        var next = 0
        var quote: Character?
        var chars = Array(format)[...]
        func take() throws -> Any {
            guard next < args.count else {
                throw RealmError.query(
                    message: "the predicate has more placeholders than the \(args.count) arguments given", column: 0)
            }
            defer { next += 1 }
            return args[next]
        }
        while let c = chars.popFirst() {
            if let q = quote {
                out.append(c)
                // A backslash escapes the next character, a quote included (as the lexer reads it).
                if c == "\\", let escaped = chars.popFirst() { out.append(escaped) } else if c == q { quote = nil }
                continue
            }
            if c == "'" || c == "\"" {
                quote = c
                out.append(c)
                continue
            }
            guard c == "%" else {
                out.append(c)
                continue
            }
            var spec = ""
            while let f = chars.first, "l".contains(f) {
                spec.append(f)
                chars.removeFirst()
            }
            guard let kind = chars.popFirst() else {
                out.append("%")
                break
            }
            switch kind {
            case "%": out.append("%")
            case "K":
                guard let name = try take() as? String else {
                    throw RealmError.query(message: "%K needs a property name (a String)", column: 0)
                }
                out += name
            case "@", "d", "i", "f", "u":
                let a = try take()
                out += "$\(values.count)"
                values.append(try value(a))
                sources.append(a)
            default:
                throw RealmError.query(message: "unsupported format specifier %\(spec)\(kind)", column: 0)
            }
        }
        if next == 0 && values.isEmpty { return (out, try args.map(value), args) }
        return (out, values, sources)
    }

    static func value(_ any: Any) throws -> Value {
        if let array = any as? [Any] { return .list(try array.map(value)) }
        guard let v = try storedValue(any) else {
            throw RealmError.query(message: "a \(type(of: any)) cannot be a query argument", column: 0)
        }
        return v
    }
}
