import ArgumentParser
import Foundation
import RealmEngine

/// The input formats `import` reads.
enum ImportFormat: String, ExpressibleByArgument, CaseIterable {
    case json, csv
}

/// `realmtui import FILE DATA|- [--class C] [--format json|csv]`: adds (or, by primary key,
/// updates) objects from what `export` and `query --format json|csv` write.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import objects from JSON or CSV into an existing database.",
        discussion: """
            DATA is what export writes: {"Class": [object, …], …}; or, with --class C, a JSON array \
            of C objects or CSV of C (header row = property names; chosen by a .csv name or \
            --format csv). An object is a JSON object (property → value) or an array of values in \
            property order. DATA may be a file, a pipe, a FIFO, <(command) or '-' for stdin.

            Values, by the property's type (the syntax of update --set):
              bool        true, false
              int…        42            float, double   2.5, nan, inf, -inf
              string      "text"        date  "2020-01-02T03:04:05.25Z" (ISO 8601,
                                              fraction kept) or epoch ms 1577934245250
              data        base64 "AAEC"  objectId  "6001c033600510df3bbfd864"
              uuid        "d1b186e1-e9e0-4768-a1a7-c492519d47ee"
              decimal128  "12.50", 12.50, "-1E-6143", "NaN", "Inf" (exact: at most 34 digits)
              link        the target's primary key, a nested object, or
                          {"$ref": "Dog", "$index": 3} (the 4th Dog of the input: how
                          export writes links to objects without a primary key)
              list        [a, b, …]     nil   null
            In CSV a cell holds the value's text: an unquoted empty cell is null,
            "" the empty string.

            Links may name objects that come later in the input. Objects of a class with a primary \
            key are upserted (only the given properties change); two objects with the same primary \
            key are an error (--upsert-duplicates: the later one updates the earlier). An unknown \
            property is an error (--ignore-unknown skips it, with a warning). Everything runs in one \
            write transaction: on any error or Ctrl-C nothing is written. Prints the objects \
            created, updated and unchanged.
            """
    )

    @Argument(help: "The database file.", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    @Argument(help: "The JSON or CSV input: a file, a pipe or FIFO, or '-' for standard input.", completion: .file())
    var data: String

    @Option(name: .customLong("class"), help: "The class of a bare JSON array or of CSV input.", completion: .custom(Completion.classNames))
    var className: String?

    @Option(name: .long, help: "json or csv (default: csv for a .csv file name, else json).")
    var format: ImportFormat?

    @Flag(name: .long, help: "Skip properties the class does not have (with a warning counting them) instead of failing.")
    var ignoreUnknown = false

    @Flag(name: .long, help: "Let a later object with the same primary key update an earlier one instead of failing.")
    var upsertDuplicates = false

    @Flag(name: .long, help: "Run the import in a transaction, then cancel it: checks the input, writes nothing.")
    var dryRun = false

    func validate() throws {
        if effectiveFormat == .csv && className == nil {
            throw ValidationError("CSV input needs --class CLASS (CSV holds one class)")
        }
    }

    private var effectiveFormat: ImportFormat {
        format ?? (data.lowercased().hasSuffix(".csv") ? .csv : .json)
    }

    func run() throws {
        let realm = try RealmFiles.open(file, readOnly: false, encryptionKey: try encryption.encryptionKey())
        let interrupt = try Interrupt.install()
        defer { interrupt.remove() }
        let text = try Input.read(data, what: effectiveFormat == .csv ? "CSV" : "JSON")
        if interrupt.requested { throw CLIFailure(DataImport.Interrupted().description) }
        let groups: [ImportDocument.Group]
        switch effectiveFormat {
        case .json: groups = try ImportDocument.groups(fromJSON: text, className: className, schema: realm.schema)
        case .csv:
            groups = try ImportDocument.groups(fromCSV: text, className: className ?? "", schema: realm.schema,
                                               ignoreUnknown: ignoreUnknown)
        }
        let total = groups.reduce(0) { $0 + $1.objects.count }
        let progress = Progress(total: total * 2)
        let importer = DataImport(realm: realm, options: .init(ignoreUnknown: ignoreUnknown, upsertDuplicates: upsertDuplicates))
        importer.shouldStop = { interrupt.requested }
        importer.progress = { done, _ in progress.update(done) }
        let summary: DataImport.Summary
        try WriteLock.begin(realm, path: file)
        interrupt.exitsAtOnce = false
        do {
            summary = try importer.run(groups)
            progress.finish()
            if interrupt.requested { throw DataImport.Interrupted() }
            if dryRun {
                realm.cancelWrite()
                Console.line("would import \(objectCount(total))\(describe(summary)); nothing was written (--dry-run)")
                warnIgnored(summary)
                return
            }
            try realm.commitWrite()
        } catch {
            progress.finish()
            realm.cancelWrite()
            if error is DataImport.Interrupted { throw CLIFailure(DataImport.Interrupted().description) }
            throw error
        }
        Console.line("imported \(objectCount(total))\(describe(summary))")
        warnIgnored(summary)
    }

    private func warnIgnored(_ summary: DataImport.Summary) {
        guard summary.ignoredProperties > 0 else { return }
        Console.error("warning: skipped \(summary.ignoredProperties) unknown \(summary.ignoredProperties == 1 ? "property" : "properties") (--ignore-unknown)")
    }

    private func describe(_ summary: DataImport.Summary) -> String {
        let classes = summary.perClass.isEmpty ? "" : " (" + summary.perClass.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
        return classes + ": \(summary.created) created, \(summary.updated) updated, \(summary.unchanged) unchanged"
    }
}

/// The one-line text of an error from the engine or a command.
func describe(_ error: Error) -> String {
    if let e = error as? RealmError { return e.description }
    if let e = error as? CLIFailure { return e.description }
    return String(describing: error)
}

/// A progress line on standard error for long imports, only when stderr is a terminal.
final class Progress {
    private let total: Int
    private let enabled: Bool
    private var lastShown = ContinuousClock.now
    private var shown = false
    /// Imports smaller than this finish too fast to need a progress line.
    static let threshold = 10_000

    init(total: Int) {
        self.total = total
        enabled = total >= Progress.threshold && Console.stderrIsTerminal
    }

    func update(_ done: Int) {
        guard enabled, done % 256 == 0 else { return }
        let now = ContinuousClock.now
        guard now - lastShown >= .milliseconds(200) else { return }
        lastShown = now
        shown = true
        Console.errorRaw("\rimporting… \(done)/\(total) (\(done * 100 / max(total, 1))%)")
    }

    func finish() {
        if shown { Console.errorRaw("\r\u{1B}[K") }
        shown = false
    }
}
