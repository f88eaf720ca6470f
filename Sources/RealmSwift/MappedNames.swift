import Foundation

/// The Swift property names of code turned into the names the properties are stored under
/// (`Object.propertiesMapping()`), for the strings the engine reads: predicates, sort and
/// distinct key paths, aggregated properties and observed key paths.
///
/// A key path is followed from its class through links (`"owner.firstName"` maps `owner` in
/// the class and `firstName` in the class `owner` links to); what follows a collection
/// operator, a map key or anything that is not a property is left as written. In a predicate,
/// every key path outside quotes is translated, but not the keywords of the query language,
/// arguments (`$0`), functions (`oid(…)`), string options (`[c]`) or the variables of a
/// `SUBQUERY`. Until a class with a mapping is discovered, every translation is the identity.
enum MappedNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var anyClassMaps = false

    /// Records that a discovered class renames some property (`ClassInfo.init`).
    static func noteMapping() {
        lock.lock()
        anyClassMaps = true
        lock.unlock()
    }

    private static var isIdentity: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !anyClassMaps
    }

    /// `path` (`"owner.firstName"`) with each property's stored name, starting in `type`.
    static func path(_ path: String, from type: Object.Type) -> String {
        guard !isIdentity else { return path }
        return translate(path, from: type)
    }

    /// `paths`, each translated by `path(_:from:)`.
    static func paths(_ paths: [String], from type: Object.Type) -> [String] {
        guard !isIdentity else { return paths }
        return paths.map { translate($0, from: type) }
    }

    private static func translate(_ path: String, from type: Object.Type) -> String {
        var current: Object.Type? = type
        var out: [String] = []
        var components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...]
        while let component = components.popFirst() {
            guard let here = current, !component.hasPrefix("@"), !component.hasPrefix("$"), !component.contains("[")
            else {
                out.append(component)
                out.append(contentsOf: components)
                break
            }
            let info = ClassInfo.of(here)
            let stored = info.storedNames[component] ?? component
            out.append(stored)
            current = info.objectSchema[stored].flatMap { property in
                property.type == .object || property.type == .linkingObjects
                    ? property.objectClassName.flatMap(ClassInfo.type(named:)) : nil
            }
        }
        return out.joined(separator: ".")
    }

    /// The words of the query language, never property names.
    private static let keywords: Set<String> = [
        "AND", "OR", "NOT", "IN", "ANY", "SOME", "ALL", "NONE", "BETWEEN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE",
        "TEXT", "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL", "TRUE", "FALSE", "SUBQUERY", "SORT", "DISTINCT",
        "LIMIT",
        "ASC", "ASCENDING", "DESC", "DESCENDING",
    ]

    /// `predicate` with every key path's stored names, its key paths starting in `type`.
    static func predicate(_ predicate: String, from type: Object.Type) -> String {
        guard !isIdentity else { return predicate }
        var out = ""
        let chars = Array(predicate)
        var i = 0
        func isWordStart(_ c: Character) -> Bool { c.isLetter || c == "_" || c == "@" || c == "$" }
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "@" || c == "$" || c == "." }
        while i < chars.count {
            let c = chars[i]
            if c == "'" || c == "\"" {
                // A quoted string, copied whole (a backslash escapes the next character).
                var j = i + 1
                while j < chars.count && chars[j] != c { j += chars[j] == "\\" ? 2 : 1 }
                j = min(j + 1, chars.count)
                out += String(chars[i..<j])
                i = j
                continue
            }
            if c.isNumber {
                // A number, a date (`2020-01-01@10:00:00`) or a timestamp: not a name.
                var j = i
                while j < chars.count && (isWord(chars[j]) || chars[j] == ":" || chars[j] == "-") { j += 1 }
                out += String(chars[i..<j])
                i = j
                continue
            }
            guard isWordStart(c) else {
                out.append(c)
                i += 1
                continue
            }
            var j = i
            while j < chars.count && isWord(chars[j]) { j += 1 }
            let word = String(chars[i..<j])
            var next = j
            while next < chars.count && chars[next] == " " { next += 1 }
            let isOption = i > 0 && chars[i - 1] == "["
            let isCall = next < chars.count && chars[next] == "("
            if isOption || isCall || word.hasPrefix("$") || keywords.contains(word.uppercased()) {
                out += word
            } else {
                out += translate(word, from: type)
            }
            i = j
        }
        return out
    }
}
