import ArgumentParser
import Foundation
import RealmCoreFormat
import RealmEngine

/// `realmtui check FILE`: the integrity check of the newest version.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a file's integrity (read-only); exit 0 if it is sound.",
        discussion: """
            Walks every node of the newest version: checksums, tree order and counts, free space, \
            indexes, links and backlinks. Prints a summary, or one 'error:' line naming the first \
            problem and exits 1. A newest commit that could not be verified (cut short by a crash, \
            or damaged) is set aside, not lost: check reads the version before it, exits 0 and says \
            in a 'warning:' line where its bytes are kept (FILE.set-aside-vN; 'realmtui recover' \
            salvages them). --discard-set-aside deletes those copies. A file put back to an older \
            copy (its lock file remembers a newer version) fails check as a rollback; if you did \
            that on purpose, --accept-rollback makes the file's newest version current.
            """
    )

    @Argument(help: "The database file (opened read-only).", completion: .file())
    var file: String

    @Flag(name: .long, help: "Accepted for symmetry; check always opens the file read-only.")
    var readOnly = false

    @Flag(
        name: .customLong("discard-set-aside"),
        help: "Delete the kept copies of set-aside commits (FILE.set-aside-vN) after checking.")
    var discardSetAside = false

    @Flag(
        name: .customLong("accept-rollback"),
        help:
            "The file was put back to an older copy on purpose: make its newest version current (no other process may have it open)."
    )
    var acceptRollback = false

    @OptionGroup var encryption: EncryptionOptions

    func run() throws {
        try RealmFiles.requireRegularFile(file)
        if RealmCoreFiles.isRealmFile(file) {
            return try RealmCoreFiles.check(
                file, key: try RealmCoreFiles.requireKey(file, try encryption.encryptionKey()))
        }
        if acceptRollback {
            try Realm.acceptRollback(path: file)
            Console.line("accepted: \(file) reads its newest version as current")
        }
        var report = try Realm.check(path: file, encryptionKey: try encryption.encryptionKey())
        if discardSetAside {
            // Only once the file itself checked sound: until then the copies may be all there is.
            for copy in try Realm.discardSetAside(path: file) {
                Console.line("discarded \(copy.path) (version \(copy.version), set aside)")
                report.warnings.removeAll { $0.contains(copy.path) }
            }
        }
        for warning in report.warnings { Console.error("warning: " + warning) }
        let objects = report.objects.values.reduce(0, +)
        Console.line(
            "ok: \(file): version \(report.version), \(report.nodes) nodes, \(objectCount(objects)) in \(classCount(report.objects.count))"
        )
        for name in report.objects.keys.sorted() {
            Console.line("  \(name): \(report.objects[name] ?? 0)")
        }
        Console.line("bytes: \(report.liveBytes) live, \(report.freeBytes) free, \(report.fileBytes) in the file")
    }
}

/// `realmtui copy SRC DST`: a compacted copy.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Write a compacted copy of a file (DST must not exist).",
        discussion: """
            Copies the newest version only, without free space. SRC is opened read-only. The copy is encrypted with --new-key, \
            else plain: copy encrypts, decrypts and re-keys. A Realm file (written by a Realm app) is converted into a realmtui \
            file you can edit, keeping its classes, objects, keys, links, primary keys and indexes, embedded objects included; \
            it is refused when it holds what this version cannot hold yet (typed-link columns, asymmetric classes) unless \
            --leave-out-unsupported. \
            With --format realm-core the copy is a Realm file (Realm Core format 24) a Realm app opens; classes holding \
            a set Realm Core takes as holding one value twice (in a set of Mixed a float 0.1 \
            and a decimal 0.1, which Realm Core compares at 7 digits) are \
            refused, naming the class and property, and no file is written. \
            --streaming (with --format realm-core) writes the streaming form instead: what Realm's writeCopy and \
            compaction make (the top ref in a footer at the end of the file, no free space, no history), the usual \
            form of a bundled seed file; Realm opens it read-only as it is, and converts it into the committed form \
            on the first read-write open in the app.
            """
    )

    /// The copy's file format.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case realmtui
        case realmCore = "realm-core"
    }

    @Argument(help: "The database file to copy.", completion: .file())
    var source: String

    @Argument(help: "The new file.", completion: .file())
    var destination: String

    @OptionGroup var encryption: EncryptionOptions

    @Option(
        name: .customLong("new-key"),
        help: ArgumentHelp(
            "Encrypt the copy with this key (128 hex digits; with --format realm-core, Realm's encryption, which apps open with encryptionKey); without it (or with --decrypt) the copy is plain.",
            valueName: "HEX"))
    var newKey: String?

    @Flag(
        name: .long,
        help: "Write a plain copy of an encrypted file (the default without --new-key; says so explicitly).")
    var decrypt = false

    @Flag(
        name: .long,
        help: "Converting a Realm file: copy what this version can hold and leave the rest out (listed on stderr).")
    var leaveOutUnsupported = false

    @Option(
        help: ArgumentHelp(
            "The copy's format: realmtui, or realm-core (a Realm file, Realm Core format 24, that Realm apps open).",
            valueName: "FORMAT"))
    var format: Format = .realmtui

    @Flag(
        name: .long,
        help:
            "With --format realm-core: write the streaming form, as Realm's writeCopy does (converted on the app's first read-write open)."
    )
    var streaming = false

    func validate() throws {
        if streaming && format != .realmCore {
            throw ValidationError("--streaming is a form of a Realm file: give it with --format realm-core")
        }
        if newKey != nil && decrypt { throw ValidationError("give --new-key or --decrypt, not both") }
        if let newKey { _ = try EncryptionOptions.parse(hex: newKey, what: "--new-key") }
    }

    func run() throws {
        if FileManager.default.fileExists(atPath: destination) {
            throw CLIFailure("\(destination) already exists; copy writes a new file")
        }
        try RealmFiles.requireRegularFile(source)
        let realm =
            RealmCoreFiles.isRealmFile(source)
            ? try RealmCoreFiles.openConverted(
                source, key: try RealmCoreFiles.requireKey(source, try encryption.encryptionKey()),
                refusingOmissions: !leaveOutUnsupported)
            : try RealmFiles.open(source, readOnly: true, encryptionKey: try encryption.encryptionKey())
        switch format {
        case .realmtui:
            try realm.writeCopy(
                toFile: destination,
                encryptionKey: try newKey.map { try EncryptionOptions.parse(hex: $0, what: "--new-key") })
        case .realmCore:
            // Realm's own encryption layout, which a Realm app opens with `encryptionKey`.
            try RealmCoreWriter.write(
                realm, toFile: destination,
                encryptionKey: try newKey.map { try EncryptionOptions.parse(hex: $0, what: "--new-key") },
                streaming: streaming)
        }
        Console.line(
            "copied \(source) (\(RealmFiles.fileSize(source)) bytes) to \(destination) (\(RealmFiles.fileSize(destination)) bytes)"
        )
    }
}

/// `realmtui compact FILE`: rewrites a file without free space, in place.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Compact a file in place; prints its size before and after.",
        discussion: "Refused while another process has the file open."
    )

    @Argument(help: "The database file.", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    func run() throws {
        try RealmFiles.requireRegularFile(file)
        let (before, after): (UInt64, UInt64)
        do {
            (before, after) = try Realm.compact(path: file, encryptionKey: try encryption.encryptionKey())
        } catch RealmError.io(let p, let operation, let code, let message) where code == EACCES || code == EROFS {
            throw CLIFailure(
                "\(p): cannot \(operation) (\(message)); compact rewrites the file, so it needs write permission "
                    + "to the file and its folder")
        }
        Console.line("compacted \(file): \(before) → \(after) bytes")
    }
}
