import ArgumentParser
import RealmEngine

/// `--arg VALUE`, repeatable: the values of `$0`, `$1`, … in a predicate.
struct QueryArguments: ParsableArguments {
    @Option(
        name: .customLong("arg"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A value for $0, $1, … in the predicate (repeatable): 4, Rex, '[1,2]', null; read by the type it is compared with: dates as ISO 8601 (epoch ms as '{\"$date\": N}'), data as base64, objectId/uuid strings.",
            valueName: "value"))
    var arguments: [String] = []

    /// The parsed argument values.
    func values() throws -> [Value] {
        try arguments.map { try JSONImport.queryArgument($0) }
    }
}

/// Building the results a command works on.
enum Query {
    /// `realm.objects(className)` filtered by `predicate` (Realm's query language, trailing
    /// SORT/DISTINCT/LIMIT allowed).
    static func results(
        _ realm: Realm, className: String, predicate: String?, arguments: [Value],
        use: EmbeddedClasses.Use = .query
    ) throws -> Results {
        try EmbeddedClasses.requireTopLevel(className, in: realm.schema, for: use)
        let all = try realm.objects(className)
        let text = predicate ?? "TRUEPREDICATE"
        return try all.filter(text, arguments: arguments)
    }

    /// `name,-age` or `name ASC, age DESC` (the query language's words) → name ascending, then
    /// age descending. Empty keys and other words are a usage error.
    static func sortDescriptors(_ specs: [String]) throws -> [SortDescriptor] {
        var out: [SortDescriptor] = []
        for spec in specs {
            for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
                let words = part.split(whereSeparator: \.isWhitespace).map(String.init)
                var key = words.first ?? ""
                var ascending = true
                if key.hasPrefix("-") {
                    ascending = false
                    key.removeFirst()
                } else if key.hasPrefix("+") {
                    key.removeFirst()
                }
                if words.count == 2 {
                    switch words[1].uppercased() {
                    case "ASC", "ASCENDING": break
                    case "DESC", "DESCENDING": ascending.toggle()
                    default:
                        throw ValidationError(
                            "--sort '\(spec)': '\(words[1])' is not ASC or DESC; e.g. --sort 'created DESC' or --sort -created"
                        )
                    }
                }
                guard !key.isEmpty, words.count <= 2 else {
                    throw ValidationError(
                        "--sort '\(spec)': expected KEY [ASC|DESC][,KEY…] or [-]KEY[,…], e.g. --sort 'created DESC,name' or --sort -created,name"
                    )
                }
                out.append(SortDescriptor(keyPath: key, ascending: ascending))
            }
        }
        return out
    }

    /// `--distinct a,b` and repeated `--distinct` → key paths.
    static func keyPaths(_ specs: [String], option: String = "--distinct") throws -> [String] {
        var out: [String] = []
        for spec in specs {
            for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
                let key = part.trimmingCharacters(in: .whitespaces)
                guard !key.isEmpty else { throw ValidationError("\(option) '\(spec)': expected KEY[,KEY]…") }
                out.append(key)
            }
        }
        return out
    }
}
