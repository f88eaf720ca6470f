import ArgumentParser
import Foundation
import RealmEngine

/// How `query` prints its results.
enum QueryFormat: String, ExpressibleByArgument, CaseIterable {
    case table, line, json, csv, count
}

/// `realmtui query FILE CLASS [PREDICATE] [--sort …] [--distinct …] [--limit N] [--arg JSON]… [--format …]`.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a query and print the matching objects.",
        discussion: """
            PREDICATE is Realm's query language (default TRUEPREDICATE), e.g.
              realmtui query data.realm Dog 'age > $0 AND name BEGINSWITH[c] "r"' --arg 2 --sort -age
            Formats: table (fitted to the terminal's width, else $COLUMNS, else 80; dates kept \
            whole while there is room), line (one 'property = value' line each, as sqlite3's \
            .mode line), json (an array of objects with every stored property, which import \
            --class reads back), csv, count (one number). --columns picks the table's or line's \
            properties. A nil value shows as null, the string "null" as "null" (quoted).
            """
    )

    @Argument(help: "The database file (opened read-only).", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    @Argument(help: "The class to query.", completion: .custom(Completion.classNames))
    var className: String

    @Argument(help: "A predicate in Realm's query language.")
    var predicate: String?

    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Sort keys: name,-age or 'name ASC, age DESC' (repeatable).", valueName: "keys"))
    var sort: [String] = []

    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Keep the first object of each distinct value of these keys (repeatable).", valueName: "keys"))
    var distinct: [String] = []

    // .unconditional: "-1" is the value (refused in validate), not an unknown option.
    @Option(name: .long, parsing: .unconditional, help: "Print at most N objects.")
    var limit: Int?

    @OptionGroup var arguments: QueryArguments

    @Option(name: .long, help: "table, line, json, csv or count.")
    var format: QueryFormat = .table

    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "The properties to show in a table or line format, in order: name,age (repeatable).", valueName: "names"))
    var columns: [String] = []

    @Flag(name: .long, help: "Accepted for symmetry; query always opens the file read-only.")
    var readOnly = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, got \(limit)") }
        _ = try Query.sortDescriptors(sort)
        _ = try Query.keyPaths(distinct)
        _ = try Query.keyPaths(columns, option: "--columns")
        if !columns.isEmpty && format != .table && format != .line {
            throw ValidationError("--columns applies to --format table and line")
        }
    }

    func run() throws {
        if format == .count, let count = try wholeClassCountOfARealmFile() {
            Console.line(String(count))
            return
        }
        let realm = try RealmFiles.open(file, readOnly: true, encryptionKey: try encryption.encryptionKey())
        var results = try Query.results(
            realm, className: className, predicate: predicate, arguments: try arguments.values())
        let descriptors = try Query.sortDescriptors(sort)
        if !descriptors.isEmpty { results = try results.sorted(by: descriptors) }
        let keyPaths = try Query.keyPaths(distinct)
        if !keyPaths.isEmpty { results = try results.distinct(by: keyPaths) }
        if let limit { results = results.limit(limit) }
        switch format {
        case .count: Console.line(String(try results.keys().count))
        case .json: try Render.json(results, realm: realm)
        case .csv: try Render.csv(results, realm: realm)
        case .table:
            try Render.table(
                results, realm: realm, width: Console.width, columns: try Query.keyPaths(columns, option: "--columns"))
        case .line: try Render.lines(results, realm: realm, columns: try Query.keyPaths(columns, option: "--columns"))
        }
    }

    /// The count of a whole class of a Realm file, in O(1) from its cluster tree's root (as Realm
    /// counts), without converting the file; nil when the query asks more than a whole class.
    private func wholeClassCountOfARealmFile() throws -> Int? {
        let everything =
            predicate.map { $0.trimmingCharacters(in: .whitespaces).uppercased() == "TRUEPREDICATE" } ?? true
        // A FIFO or a device is refused before a byte of it is read (reading one may never end).
        try RealmFiles.requireRegularFile(file)
        guard everything, distinct.isEmpty, limit == nil, RealmCoreFiles.isRealmFile(file) else { return nil }
        let (schema, counts) = try RealmCoreFiles.describe(
            file, key: try RealmCoreFiles.requireKey(file, try encryption.encryptionKey()))
        guard let index = schema.objectSchemas.firstIndex(where: { $0.name == className }) else {
            throw RealmError.noSuchClass(className)
        }
        // As when the file is converted (the engine refuses to list an embedded class), not a count.
        try EmbeddedClasses.requireTopLevel(className, in: schema, for: .query)
        return counts[index]
    }
}
