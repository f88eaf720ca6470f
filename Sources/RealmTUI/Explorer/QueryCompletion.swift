import RealmEngine

/// Tab completion in the query bar: property names and key paths through links of the table's
/// class, and the query language's keywords.
struct QueryCompletion {
    let schema: Schema
    let className: String

    static let keywords = [
        "AND", "OR", "NOT", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN", "ANY", "ALL", "NONE",
        "SORT", "DISTINCT", "LIMIT", "ASC", "DESC", "TRUEPREDICATE", "FALSEPREDICATE", "nil", "true", "false",
        "@count", "@size", "@min", "@max", "@sum", "@avg",
    ]

    /// The word before `cursor` (letters, digits, `_`, `.`, `@`) as a character range, and the
    /// texts that could replace it.
    func candidates(in text: String, cursor: Int) -> (Range<Int>, [String]) {
        let chars = Array(text)
        var start = min(cursor, chars.count)
        while start > 0, chars[start - 1].isLetter || chars[start - 1].isNumber || "_.@".contains(chars[start - 1]) {
            start -= 1
        }
        let word = String(chars[start..<min(cursor, chars.count)])
        let range = start..<min(cursor, chars.count)
        var components = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = components.removeLast()
        var current = schema[className]
        for component in components {
            guard let property = current?[component], let target = property.objectClassName else { return (range, []) }
            current = schema[target]
        }
        guard let objectSchema = current else { return (range, []) }
        let prefix = components.isEmpty ? "" : components.joined(separator: ".") + "."
        var names = objectSchema.properties.map(\.name).filter { $0.hasPrefix(last) }.map { prefix + $0 }
        if components.isEmpty && !last.isEmpty {
            names += QueryCompletion.keywords.filter { $0.lowercased().hasPrefix(last.lowercased()) && $0 != last }
        }
        return (range, names)
    }

    /// The longest prefix all `words` share.
    static func commonPrefix(_ words: [String]) -> String {
        guard var prefix = words.first.map(Array.init) else { return "" }
        for word in words.dropFirst() {
            let chars = Array(word)
            var n = 0
            while n < prefix.count, n < chars.count, prefix[n] == chars[n] { n += 1 }
            prefix = Array(prefix[0..<n])
        }
        return String(prefix)
    }
}
