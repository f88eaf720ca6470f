import ArgumentParser
import Foundation
import RealmEngine

/// `realmtui update FILE CLASS PREDICATE --set prop=VALUE …`.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Set properties on every object matching a predicate.",
        discussion: """
            Each --set is prop=VALUE, read by the property's type (the syntax import uses): age=4, \
            name=Rex (or 'name="Rex"'; 'name="null"' is the string, name=null is nil), \
            born=2020-01-01T00:00:00.25Z or born=1577836800250 (epoch ms), photo=AAEC (base64), \
            oid=6001c033600510df3bbfd864, u=d1b186e1-e9e0-4768-a1a7-c492519d47ee, price=12.50 (decimal128, exact), \
            owner=1 (a primary key), 'tags=["a","b"]'. \
            Collections change in place: tags+=x adds x to a set (unless an equal element is there) \
            or appends it to a list; tags-=x removes x from a set, and from a list every equal element; \
            attrs.color=red puts a dictionary entry (the key is everything after the first dot, and \
            Realm refuses a key with '.' or a leading '$'); attrs-=color removes the key color. \
            x is one element, read by the element type (a linked object by its primary key); \
            removing what is not there changes nothing. \
            An embedded object is set whole ('address={"city": "Oslo"}', replacing the old one) or \
            changed in place through its to-one link: address.city=Oslo, address.geo.lat=60 (any \
            form above after the dot). \
            The --set options apply in order. One write transaction; on any error nothing is written. \
            Prints how many objects changed.
            """
    )

    @Argument(help: "The database file.", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    @OptionGroup var realmFile: RealmFileWriteOptions

    @Argument(help: "The class to update.", completion: .custom(Completion.classNames))
    var className: String

    @Argument(help: "Which objects, in Realm's query language (TRUEPREDICATE for all).")
    var predicate: String

    @Option(
        name: .customLong("set"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "prop=VALUE, prop+=VALUE, prop-=VALUE or dict.KEY=VALUE (repeatable).", valueName: "prop=value"))
    var assignments: [String] = []

    @OptionGroup var arguments: QueryArguments

    @Flag(name: .long, help: "Run the update in a transaction, then cancel it: writes nothing.")
    var dryRun = false

    func validate() throws {
        if assignments.isEmpty { throw ValidationError("update needs at least one --set prop=VALUE") }
    }

    func run() throws {
        let realm = try RealmFiles.open(
            file, readOnly: false, encryptionKey: try encryption.encryptionKey(),
            upgradeFormat: realmFile.upgradeFormat)
        guard let objectSchema = realm.schema[className] else { throw RealmError.noSuchClass(className) }
        try EmbeddedClasses.requireTopLevel(className, in: realm.schema, for: .change)
        let sets = try assignments.map { try Assignment.parse($0, objectSchema: objectSchema, schema: realm.schema) }
        let values = try arguments.values()
        let changed = try Transaction.run(realm, path: file, dryRun: dryRun) {
            let results = try Query.results(
                realm, className: className, predicate: predicate, arguments: values, use: .change)
            let keys = try results.keys()
            for key in keys {
                guard let object = try realm.object(ofType: className, key: key) else { continue }
                for set in sets { try set.apply(to: object) }
            }
            return keys.count
        }
        Console.line("\(dryRun ? "would update" : "updated") \(objectCount(changed))")
    }
}

/// `realmtui delete FILE CLASS PREDICATE` or `realmtui delete FILE CLASS --all`.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the objects matching a predicate (every object of the class with --all).",
        discussion: """
            Without a predicate, --all is required: deleting a whole class should never be one \
            forgotten argument away. Links to deleted objects become null and they leave every \
            list. One write transaction. Prints how many objects were deleted.
            """
    )

    @Argument(help: "The database file.", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    @OptionGroup var realmFile: RealmFileWriteOptions

    @Argument(help: "The class to delete from.", completion: .custom(Completion.classNames))
    var className: String

    @Argument(help: "Which objects, in Realm's query language.")
    var predicate: String?

    @Flag(name: .long, help: "Delete every object of the class (required without a predicate).")
    var all = false

    @OptionGroup var arguments: QueryArguments

    @Flag(name: .long, help: "Run the delete in a transaction, then cancel it: writes nothing.")
    var dryRun = false

    func validate() throws {
        if predicate == nil && !all {
            throw ValidationError(
                "delete without a predicate would delete every \(className); add --all to mean that, or give a predicate"
            )
        }
        if predicate != nil && all {
            throw ValidationError("give a predicate or --all, not both")
        }
    }

    func run() throws {
        let realm = try RealmFiles.open(
            file, readOnly: false, encryptionKey: try encryption.encryptionKey(),
            upgradeFormat: realmFile.upgradeFormat)
        let values = try arguments.values()
        try EmbeddedClasses.requireTopLevel(className, in: realm.schema, for: .change)
        _ = try realm.objects(className)
        let deleted = try Transaction.run(realm, path: file, dryRun: dryRun) {
            let results = try Query.results(
                realm, className: className, predicate: predicate, arguments: values, use: .change)
            let count = try results.keys().count
            try realm.delete(results)
            return count
        }
        Console.line("\(dryRun ? "would delete" : "deleted") \(objectCount(deleted))")
    }
}

/// One write transaction around a command's changes.
enum Transaction {
    /// Runs `body` in a write transaction and commits it; cancels on error, or when `dryRun`.
    /// While another process holds the write lock it says so after a second, and Ctrl-C ends
    /// the wait (nothing is written yet).
    static func run<T>(_ realm: Realm, path: String, dryRun: Bool, _ body: () throws -> T) throws -> T {
        let interrupt = try Interrupt.install()
        do {
            try WriteLock.begin(realm, path: path)
        } catch {
            interrupt.remove()
            throw error
        }
        interrupt.remove()
        let result: T
        do {
            result = try body()
        } catch {
            realm.cancelWrite()
            throw error
        }
        if dryRun {
            realm.cancelWrite()
        } else {
            try commit(realm)
        }
        return result
    }

    /// Commits the open write transaction; a Realm file open for editing is written first
    /// (`RealmCoreFiles.commitEdits`), and when that fails the transaction is cancelled:
    /// neither the file nor the Realm changes.
    static func commit(_ realm: Realm) throws {
        do {
            try RealmCoreFiles.commitEdits(realm)
        } catch {
            realm.cancelWrite()
            throw error
        }
        try realm.commitWrite()
    }
}
