import ArgumentParser
import Foundation
import RealmEngine

/// `realmtui import FILE DATA.json|-`: adds (or, by primary key, updates) objects from JSON.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import objects from JSON into an existing database.",
        discussion: """
            DATA is {"Class": [object, …], …}; an object is a JSON object (property → value) or an \
            array of values in property order; links are nested objects, arrays or primary keys. \
            Objects of a class with a primary key are upserted (only the given properties change); \
            others are added. Everything runs in one write transaction: on any error nothing is \
            written.
            """
    )

    @Argument(help: "The database file.")
    var file: String

    @Argument(help: "The JSON file to import, or '-' for standard input.")
    var data: String

    @Flag(name: .long, help: "Run the import in a transaction, then cancel it: checks the input, writes nothing.")
    var dryRun = false

    func run() throws {
        let realm = try RealmFiles.open(file, readOnly: false)
        let text = try Input.read(data, what: "JSON")
        let groups = try JSONImport.objects(fromJSON: text, schema: realm.schema)
        let total = groups.reduce(0) { $0 + $1.objects.count }
        let progress = Progress(total: total)
        let schema = realm.schema
        try realm.beginWrite()
        do {
            var done = 0
            for group in groups {
                let hasPrimaryKey = schema[group.className]?.primaryKeyProperty != nil
                for (i, object) in group.objects.enumerated() {
                    do {
                        try realm.create(group.className, value: object, update: hasPrimaryKey ? .modified : .error)
                    } catch {
                        throw CLIFailure("\(group.className) object \(i + 1): \(describe(error))")
                    }
                    done += 1
                    progress.update(done)
                }
            }
            progress.finish()
            if dryRun {
                realm.cancelWrite()
                Console.line("would import \(total) objects\(summary(groups)); nothing was written (--dry-run)")
                return
            }
            try realm.commitWrite()
        } catch {
            progress.finish()
            realm.cancelWrite()
            throw error
        }
        Console.line("imported \(total) objects\(summary(groups))")
    }

    private func summary(_ groups: [JSONImport.ClassObjects]) -> String {
        var counts: [(String, Int)] = []
        for g in groups {
            if let i = counts.firstIndex(where: { $0.0 == g.className }) { counts[i].1 += g.objects.count }
            else { counts.append((g.className, g.objects.count)) }
        }
        guard !counts.isEmpty else { return "" }
        return " (" + counts.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
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
