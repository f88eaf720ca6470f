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
              list, set   [a, b, …]     nil   null
              dictionary  {"key": value, …} (no '.' in a key, none starting with '$')
              mixed       its JSON value (5 an int, 5.0 a double, "5" a string, [..] a list,
                          {..} a dictionary) or a tag: {"$date": …}, {"$oid": …},
                          {"$uuid": …}, {"$binary": base64}, {"$decimal": "…"},
                          {"$float": 2.5}, {"$double": "nan"}, {"$link": {"class": "Dog",
                          "key": <primary key>}} or {"$link": {"class": "Cat", "index": N}}
            In CSV a cell holds the value's text: an unquoted empty cell is null,
            "" the empty string; a mixed cell holds JSON text.

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

    @OptionGroup var realmFile: RealmFileWriteOptions

    @Argument(help: "The JSON or CSV input: a file, a pipe or FIFO, or '-' for standard input.", completion: .file())
    var data: String

    @Option(
        name: .customLong("class"), help: "The class of a bare JSON array or of CSV input.",
        completion: .custom(Completion.classNames))
    var className: String?

    @Option(name: .long, help: "json or csv (default: csv for a .csv file name, else json).")
    var format: ImportFormat?

    @Flag(
        name: .long, help: "Skip properties the class does not have (with a warning counting them) instead of failing.")
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
        let realm = try RealmFiles.open(
            file, readOnly: false, encryptionKey: try encryption.encryptionKey(),
            upgradeFormat: realmFile.upgradeFormat)
        let interrupt = try Interrupt.install()
        defer { interrupt.remove() }
        let importer = DataImport(
            realm: realm, options: .init(ignoreUnknown: ignoreUnknown, upsertDuplicates: upsertDuplicates))
        importer.shouldStop = { interrupt.requested }
        // JSON is read and imported one object at a time (memory does not grow with the input);
        // CSV is read whole.
        var groups: [ImportDocument.Group] = []
        var stream: JSONElementStream?
        var input: (descriptor: Int32, size: Int64?, read: (UnsafeMutableRawBufferPointer) throws -> Int)?
        defer { if let input, data != "-" { close(input.descriptor) } }
        switch effectiveFormat {
        case .json:
            let opened = try Input.open(data, what: "JSON", shouldStop: { interrupt.requested })
            input = opened
            stream = JSONElementStream(className: className, source: opened.read)
        case .csv:
            let text = try Input.read(data, what: "CSV")
            if interrupt.requested { throw CLIFailure(DataImport.Interrupted().description) }
            groups = try ImportDocument.groups(
                fromCSV: text, className: className ?? "", schema: realm.schema,
                ignoreUnknown: ignoreUnknown)
        }
        let progress = Progress(inputSize: input?.size, objects: groups.reduce(0) { $0 + $1.objects.count })
        // Called per object: the line changes every 256 objects at most (`update`).
        importer.progress = { done, total in
            if done % 256 == 0 { progress.update(done, total: total, bytesRead: stream?.bytesRead) }
        }
        let summary: DataImport.Summary
        try WriteLock.begin(realm, path: file)
        interrupt.exitsAtOnce = false
        do {
            if let stream { summary = try importer.run(stream) } else { summary = try importer.run(groups) }
            progress.finish()
            if interrupt.requested { throw DataImport.Interrupted() }
            let total = summary.perClass.reduce(0) { $0 + $1.1 }
            if dryRun {
                realm.cancelWrite()
                Console.line("would import \(objectCount(total))\(describe(summary)); nothing was written (--dry-run)")
                warnIgnored(summary)
                return
            }
            // A Realm file open for editing is written before the commit (nothing changes if that fails).
            try RealmCoreFiles.commitEdits(realm)
            try realm.commitWrite()
        } catch {
            progress.finish()
            realm.cancelWrite()
            if error is DataImport.Interrupted {
                // As a signal before the transaction ends the process: the same line, status 130.
                Console.error("error: \(DataImport.Interrupted().description)")
                throw ExitCode(130)
            }
            throw error
        }
        let total = summary.perClass.reduce(0) { $0 + $1.1 }
        Console.line("imported \(objectCount(total))\(describe(summary))")
        warnIgnored(summary)
    }

    private func warnIgnored(_ summary: DataImport.Summary) {
        guard summary.ignoredProperties > 0 else { return }
        Console.error(
            "warning: skipped \(summary.ignoredProperties) unknown \(summary.ignoredProperties == 1 ? "property" : "properties") (--ignore-unknown)"
        )
    }

    private func describe(_ summary: DataImport.Summary) -> String {
        let classes =
            summary.perClass.isEmpty
            ? "" : " (" + summary.perClass.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
        return classes + ": \(summary.created) created, \(summary.updated) updated, \(summary.unchanged) unchanged"
    }
}

/// The one-line text of an error from the engine or a command.
func describe(_ error: Error) -> String {
    if let e = error as? RealmError { return e.description }
    if let e = error as? CLIFailure { return e.description }
    return String(describing: error)
}

/// A progress line on standard error for long work (an import, reading a Realm file), only
/// when stderr is a terminal: the share of the input read (of a file whose size is known) or
/// the objects done so far.
final class Progress {
    private let inputSize: Int64?
    private let objects: Int
    private let enabled: Bool
    /// What the line says is going on ("importing", "reading data.realm").
    private let doing: String
    private var lastShown = ContinuousClock.now
    private var shown = false
    /// Inputs smaller than this (bytes, or objects read whole) finish too fast to need a line.
    static let threshold = 10_000

    init(inputSize: Int64?, objects: Int, doing: String = "importing") {
        self.inputSize = inputSize
        self.objects = objects
        self.doing = doing
        let large =
            (inputSize ?? 0) >= Int64(Progress.threshold) * 100 || objects >= Progress.threshold
            || (inputSize == nil && objects == 0)
        enabled = large && Console.stderrIsTerminal
    }

    /// `done` of `total` steps (0: not known yet), `bytesRead` of a streamed input.
    func update(_ done: Int, total: Int, bytesRead: Int64?) {
        guard enabled, done % 256 == 0 else { return }
        let now = ContinuousClock.now
        guard now - lastShown >= .milliseconds(200) else { return }
        lastShown = now
        shown = true
        if total > 0 {
            Console.errorRaw("\r\(doing)… \(done)/\(total) (\(done * 100 / max(total, 1))%)\u{1B}[K")
        } else if let inputSize, inputSize > 0, let bytesRead {
            Console.errorRaw("\r\(doing)… \(done) objects (\(bytesRead * 100 / inputSize)% of the input)\u{1B}[K")
        } else {
            Console.errorRaw("\r\(doing)… \(done) objects\u{1B}[K")
        }
    }

    func finish() {
        if shown { Console.errorRaw("\r\u{1B}[K") }
        shown = false
    }
}
