import ArgumentParser
import Foundation
import RealmCoreFormat
import RealmEngine

/// `realmtui migrate FILE --schema NEW.json --version N [--rename Class.old=new …]`: the same
/// migration the Swift API runs, from the command line.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a database to a new realm-js JSON schema and schema version.",
        discussion: """
            Properties the new schema adds start at their default (nil when optional), properties
            it removes are dropped, and --rename moves a property's values to its new name. Classes
            the new schema does not list are kept. A property whose type changed keeps each value
            that converts without loss ("42" to 42, 42 to "42", 2.0 to 2, "true" to true); a value
            that does not ("4x" to int, 2.5 to int, 300 to int8) is an error naming its object,
            unless --lossy sets such values to the default (the count is printed). The migration is
            one write transaction: on any error (a value that does not fit the new schema, a
            version not higher than the file's) the file is left unchanged.
            """
    )

    @Argument(help: "The database file to migrate.")
    var file: String

    @Option(name: .long, help: "The new realm-js JSON schema ('-' for standard input).")
    var schema: String

    @Option(name: .long, help: "The new schema version (higher than the file's).")
    var version: UInt64

    @Option(name: .long, help: "A renamed property, as Class.oldName=newName (repeatable).")
    var rename: [String] = []

    @Flag(
        name: .long, help: "Set values that do not convert to a property's new type to the default, instead of failing."
    )
    var lossy = false

    @OptionGroup var encryption: EncryptionOptions

    @OptionGroup var realmFile: RealmFileWriteOptions

    /// How many values the migration block saw set to their default (it runs inside the
    /// Realm's open, so it reports through a box).
    private final class LossCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int {
            get {
                lock.lock()
                defer { lock.unlock() }
                return count
            }
            set {
                lock.lock()
                count = newValue
                lock.unlock()
            }
        }
    }

    func run() throws {
        let parsed = try Schema(realmJSJSON: try Input.read(schema, what: "schema"))
        let renames = try rename.map(MigrateCommand.parseRename)
        let lossy = self.lossy
        let lost = LossCount()
        guard FileManager.default.fileExists(atPath: file) else { throw RealmError.fileNotFound(path: file) }
        // A Realm file is read into memory (locked), migrated in a realmtui copy in a temporary
        // folder, and written back whole.
        var realmFileEdit: (session: RealmCoreEditSession, folder: URL)?
        var fileURL = URL(fileURLWithPath: file)
        var key = try encryption.encryptionKey()
        if RealmCoreFiles.isRealmFile(file) {
            try RealmFiles.requireRegularFile(file)
            let (converted, session) = try RealmCoreFiles.openForEditing(
                file, encryptionKey: key, upgradeFormat: realmFile.upgradeFormat)
            guard version > converted.schemaVersion else {
                throw CLIFailure(
                    "\(file): the new schema version \(version) must be higher than the file's (\(converted.schemaVersion))"
                )
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "realmtui-migrate-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            realmFileEdit = (session, folder)
            fileURL = folder.appendingPathComponent("converted.realm")
            key = nil
            do {
                try converted.writeCopy(toFile: fileURL.path)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
        }
        defer { if let realmFileEdit { try? FileManager.default.removeItem(at: realmFileEdit.folder) } }
        let config = Realm.Configuration(
            fileURL: fileURL, schema: parsed, schemaVersion: version, encryptionKey: key,
            createIfMissing: false,
            migrationBlock: { migration, _ in
                for (className, from, to) in renames {
                    guard migration.oldSchema[className]?[from] != nil else {
                        throw CLIFailure(
                            "--rename \(className).\(from)=\(to): \(className) has no property '\(from)' in \(file)")
                    }
                    migration.renameProperty(onType: className, from: from, to: to)
                }
                // Checked after the renames: a renamed property converts its values too.
                let unconverted = migration.unconvertedValues
                if let first = unconverted.first, !lossy {
                    let count = unconverted.count == 1 ? "1 value does" : "\(unconverted.count) values do"
                    throw CLIFailure(
                        "\(file): \(first) (\(count) not convert in all; --lossy sets them to the default)")
                }
                migration.allowsLossyTypeChanges = lossy
                lost.value = unconverted.count
            })
        let realm = try Realm(configuration: config)
        if let realmFileEdit {
            try realmFileEdit.session.commit(realm, schemaVersion: version)
        }
        Console.line(
            "migrated \(file) to schema version \(realm.schemaVersion): \(classCount(realm.schema.objectSchemas.count))"
        )
        if lost.value > 0 {
            Console.line(
                lost.value == 1
                    ? "1 value did not convert and was set to the default"
                    : "\(lost.value) values did not convert and were set to the default")
        }
    }

    static func parseRename(_ text: String) throws -> (String, String, String) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let left = parts.first?.split(separator: ".", maxSplits: 1).map(String.init) ?? []
        guard parts.count == 2, left.count == 2, !left[0].isEmpty, !left[1].isEmpty, !parts[1].isEmpty else {
            throw ValidationError("--rename takes Class.oldName=newName, not '\(text)'")
        }
        return (left[0], left[1], parts[1])
    }
}
