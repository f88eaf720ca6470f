import RealmEngine

/// Link literals in the query bar: the explorer shows a link to an object without a primary key
/// as `Class#key` (`→ Dog#12`), and the same text works in a query (`friend == Dog#12`,
/// `ANY dogs IN {Dog#1, Dog#2}`). Each literal outside quotes becomes a `$n` argument, padded
/// with spaces to its length so the engine's error columns still point into what was typed.
enum LinkLiterals {
    static func bind(_ text: String, schema: Schema) -> (query: String, arguments: [Value]) {
        var out: [Character] = []
        var arguments: [Value] = []
        let chars = Array(text)
        var quote: Character?
        var i = 0
        while i < chars.count {
            let ch = chars[i]
            if let open = quote {
                out.append(ch)
                if ch == "\\", i + 1 < chars.count {
                    out.append(chars[i + 1])
                    i += 2
                    continue
                }
                if ch == open { quote = nil }
                i += 1
                continue
            }
            if ch == "'" || ch == "\"" {
                quote = ch
                out.append(ch)
                i += 1
                continue
            }
            let startsWord = ch.isLetter || ch == "_"
            let afterWord =
                out.last.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$" || $0 == "@" } ?? false
            if startsWord && !afterWord, let (length, className, key) = literal(at: i, in: chars),
                schema[className] != nil
            {
                let placeholder = "$\(arguments.count)"
                if placeholder.count <= length {
                    arguments.append(.link(ObjectKey(key)))
                    out += Array(placeholder) + Array(repeating: " ", count: length - placeholder.count)
                    i += length
                    continue
                }
            }
            out.append(ch)
            i += 1
        }
        return (String(out), arguments)
    }

    /// A `Name#digits` literal starting at `start`: its length, class name and key.
    private static func literal(at start: Int, in chars: [Character]) -> (Int, String, Int64)? {
        var i = start
        while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" { i += 1 }
        guard i < chars.count, chars[i] == "#" else { return nil }
        let name = String(chars[start..<i])
        i += 1
        let digitsStart = i
        while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
        guard i > digitsStart, let key = Int64(String(chars[digitsStart..<i])) else { return nil }
        if i < chars.count, chars[i].isLetter || chars[i] == "_" { return nil }
        return (i - start, name, key)
    }
}
