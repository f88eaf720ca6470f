import ArgumentParser
import Dispatch
import Foundation
import RealmEngine
#if canImport(Glibc)
    import Glibc
#endif

/// `realmtui watch FILE CLASS [PREDICATE] [--arg V]… [--sort KEYS] [--distinct KEYS] [--limit N]
/// [--count-events N]`: the change
/// sets of a live query as JSON lines, flushed one by one, until SIGINT/SIGTERM or N updates.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a query's changes as JSON lines while other processes write.",
        discussion: """
            First {"event": "initial", "version": V, "count": N}, then one line per delivered change:
            {"event": "update", "version": V, "count": N, "deletions": [...], "insertions": [...], "modifications": [...],
             "deleted": [...], "inserted": [...], "modified": [...]}
            (deletions and modifications as indices in the old result, insertions in the new one, ascending; \
            deleted/inserted/modified name the same objects by primary key, or {"key": K} for a class without one). \
            Takes --arg, --sort, --distinct and --limit as query does.
            Runs until interrupted (SIGINT/SIGTERM) or until --count-events updates were printed; \
            fails (status 1) when a newer version of the file cannot be read. \
            A Realm file (written by a Realm app) is polled every 0.2 s and read again after each commit; \
            an object whose sort position changed is reported as modified, not moved.
            """
    )

    @Argument(help: "The database file (opened read-only).", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    @Argument(help: "The class to watch.", completion: .custom(Completion.classNames))
    var className: String

    @Argument(help: "A predicate in Realm's query language (default TRUEPREDICATE).")
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
    @Option(name: .long, parsing: .unconditional, help: "Watch at most the first N objects.")
    var limit: Int?

    @OptionGroup var arguments: QueryArguments

    @Option(name: .customLong("count-events"), help: "Stop after N update events.")
    var countEvents: Int?

    func validate() throws {
        if let countEvents, countEvents < 0 {
            throw ValidationError("--count-events must be 0 or more, got \(countEvents)")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, got \(limit)") }
        _ = try Query.sortDescriptors(sort)
        _ = try Query.keyPaths(distinct)
    }

    func run() throws {
        try RealmFiles.requireRegularFile(file)
        let isRealmFile = RealmCoreFiles.isRealmFile(file)
        // Opened once here for its class names, so a mistyped class gets a "did you mean"
        // (a Realm file: its errors, a missing key say, are the first thing said).
        if isRealmFile {
            if try RealmFiles.open(file, readOnly: true, encryptionKey: try encryption.encryptionKey()).schema[
                className] == nil
            {
                throw RealmError.noSuchClass(className)
            }
        } else if let realm = try? RealmFiles.open(file, readOnly: true, encryptionKey: try encryption.encryptionKey())
        {
            guard realm.schema[className] != nil else { throw RealmError.noSuchClass(className) }
            try EmbeddedClasses.requireTopLevel(className, in: realm.schema, for: .query)
        }
        let control = WatchControl()
        let sources = try handleStopSignals { control.stop() }
        defer { sources.forEach { $0.cancel() } }
        let print: (String) -> Void = { line in
            Console.rawLine(line)
            Console.flush()
            // Nobody reads the lines any more (or the disk is full): stop; `Console.finish()`
            // reports a full disk.
            if Console.outputClosed { control.stop() }
        }
        if isRealmFile {
            let watch = RealmCoreWatch(
                path: file, key: try RealmCoreFiles.requireKey(file, try encryption.encryptionKey()),
                className: className, predicate: predicate ?? "TRUEPREDICATE", arguments: try arguments.values(),
                sort: try Query.sortDescriptors(sort), distinct: try Query.keyPaths(distinct), limit: limit)
            try watch.run(maxEvents: countEvents, control: control, emit: print)
            return
        }
        try watchLines(
            path: file, className: className, predicate: predicate ?? "TRUEPREDICATE",
            arguments: try arguments.values(),
            sort: try Query.sortDescriptors(sort), distinct: try Query.keyPaths(distinct), limit: limit,
            maxEvents: countEvents, encryptionKey: try encryption.encryptionKey(), control: control, emit: print)
    }
}
