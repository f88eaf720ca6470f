import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A Realm seen through the typed API: `try Realm(configuration:)`, `realm.objects(Dog.self)`,
/// `try realm.write { realm.add(dog) }`.
///
/// Wraps one instance of the dynamic core (`dynamicRealm`), with its thread confinement and
/// snapshot rules. Inside `write`, the non-throwing calls RealmSwift has (`add`, `create`,
/// property setters, list changes) record the first error from the data (a duplicate primary
/// key, a changed primary key, nil for a required property, a value over a limit): `write`
/// then rolls the transaction back and throws it, so bad data never commits and is never
/// silently dropped. Writing outside a write transaction is a programmer error and stops with
/// a message, as in RealmSwift.
public final class Realm {
    /// The dynamic Realm this one wraps.
    public let dynamicRealm: RealmEngine.Realm
    /// The configuration the Realm was opened with.
    public let configuration: Configuration
    /// The first error recorded by a non-throwing call inside the open write transaction.
    private var pendingError: Swift.Error?
    /// Classes already checked against the file's schema.
    /// The classes checked against the file's schema, with their info.
    private var checkedTypes: [ObjectIdentifier: ClassInfo] = [:]
    /// The classes of the Realm's schema by stored name (`objectType(named:)`), made on first
    /// use under `classesLock` (a frozen Realm is read from several threads).
    private var classesByName: [String: Object.Type]?
    private let classesLock = NSLock()
    /// The thread the Realm was opened on (nil for an instance confined to a queue).
    private let thread: pthread_t?
    /// Whether `dynamicRealm` is frozen (Freeze.swift; asked on every typed read, so kept here).
    let frozen: Bool
    /// The frozen Realm `freeze()` made last, reused while this Realm reads its version. Weak:
    /// a frozen Realm pins its version (its pages are not reused) only while frozen values
    /// that use it are alive.
    weak var frozenCopy: Realm?
    /// Transactions and completions queued by `beginAsyncWrite`, `commitAsyncWrite` and
    /// `writeAsync` (Realm+AsyncWrites.swift).
    let asyncWrites = AsyncWriteQueue()

    /// What `create` and `add` do when an object with the same primary key exists.
    public typealias UpdatePolicy = RealmEngine.UpdatePolicy

    /// Opens the default Realm (`Configuration.defaultConfiguration`).
    public convenience init() throws {
        try self.init(configuration: .defaultConfiguration)
    }

    /// Opens a Realm. With `objectTypes`, the file's schema is those classes (and the classes
    /// they link to); without, every `Object` subclass the program defines (see
    /// `Object._realmIgnoreClass()` for leaving one out), or for an existing file the schema
    /// stored in it.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        if let sync = configuration.sync { try SyncSessions.start(configuration, sync) }
        dynamicRealm = try configuration.open()
        thread = pthread_self()
        frozen = false
    }

    init(wrapping realm: RealmEngine.Realm, configuration: Configuration) {
        dynamicRealm = realm
        self.configuration = configuration
        thread = nil
        frozen = realm.isFrozen
    }

    /// Stops with a message when used from another thread than the one that opened the Realm
    /// (the dynamic core throws `wrongThread` there; a typed count or subscript cannot throw and
    /// must not answer 0 instead).
    func verifyThread() {
        if let thread {
            if pthread_equal(thread, pthread_self()) == 0 {
                preconditionFailure(
                    "Realm accessed from incorrect thread: a Realm and its objects are confined to the thread that opened them "
                        + "(use ThreadSafeReference, or open a Realm on the other thread).")
            }
        } else if !frozen {
            // Confined to a queue or an actor (RealmActor.swift): the dynamic core knows which.
            do { try dynamicRealm.checkConfinement() } catch {
                preconditionFailure("Realm accessed from outside the queue or actor it is confined to: \(error)")
            }
        }
    }

    /// The schema of the version this Realm reads.
    public var schema: Schema { dynamicRealm.schema }
    /// Whether a write transaction is open.
    public var isInWriteTransaction: Bool { dynamicRealm.isInWriteTransaction }
    /// Whether every class of the Realm is empty. Asked from another thread than the Realm's,
    /// it stops with a message (the answer there is not `true`), as in RealmSwift.
    public var isEmpty: Bool {
        verifyThread()
        return schema.objectSchemas.allSatisfy { objectSchema in
            do {
                return try reading { try dynamicRealm.objects(objectSchema.name).count } == 0
            } catch {
                // The thread was checked and every class is in the schema: only misuse is left
                // (a closed Realm).
                preconditionFailure("isEmpty: \(error)")
            }
        }
    }

    // MARK: Transactions

    /// Runs `block` in a write transaction and commits it, returning the block's value. Throws
    /// (and rolls back) when the block throws, when a call inside it recorded an error, or
    /// when the commit fails.
    @discardableResult
    public func write<Result>(_ block: () throws -> Result) throws -> Result {
        try write(withoutNotifying: [], block)
    }

    /// `write(_:)` whose commit the observers of `tokens` do not hear about (a change the
    /// interface already shows). Observers with an undelivered earlier change still get it,
    /// this commit included.
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken], _ block: () throws -> Result) throws
        -> Result
    {
        refuseFrozenWrite()
        try dynamicRealm.beginWrite()
        pendingError = nil
        let result: Result
        do {
            result = try block()
        } catch {
            pendingError = nil
            if isInWriteTransaction { dynamicRealm.cancelWrite() }
            throw error
        }
        try commitWrite(withoutNotifying: tokens)
        return result
    }

    /// `commitWrite()` that the observers of `tokens` do not hear about.
    public func commitWrite(withoutNotifying tokens: [NotificationToken]) throws {
        if let error = pendingError {
            pendingError = nil
            dynamicRealm.cancelWrite()
            throw error
        }
        try dynamicRealm.commitWrite(withoutNotifying: tokens)
    }

    /// Starts a write transaction. A failure to start (a read-only Realm, a file error) is
    /// thrown by `commitWrite()`.
    public func beginWrite() {
        refuseFrozenWrite()
        pendingError = nil
        do { try dynamicRealm.beginWrite() } catch { pendingError = error }
    }

    /// Commits the write transaction, or rolls it back and throws the first error recorded in it.
    public func commitWrite() throws {
        if let error = pendingError {
            pendingError = nil
            dynamicRealm.cancelWrite()
            throw error
        }
        try dynamicRealm.commitWrite()
    }

    /// Discards the write transaction.
    public func cancelWrite() {
        pendingError = nil
        dynamicRealm.cancelWrite()
    }

    /// Moves to the newest version (delivering notifications); returns whether it changed.
    @discardableResult
    public func refresh() -> Bool { dynamicRealm.refresh() }

    /// Releases the pinned version until the next read.
    public func invalidate() { dynamicRealm.invalidate() }

    /// Writes a compacted copy of the Realm to `fileURL`, encrypted with `encryptionKey` (64
    /// bytes) or plain without one, whatever this Realm's own key: a copy encrypts, decrypts or
    /// re-keys.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        try dynamicRealm.writeCopy(toFile: fileURL.path, encryptionKey: encryptionKey)
    }

    /// Deletes a Realm's file and its auxiliary files; returns whether the file existed.
    @discardableResult
    public static func deleteFiles(for configuration: Configuration) throws -> Bool {
        let path = configuration.engineConfiguration(schema: nil).path
        let existed = FileManager.default.fileExists(atPath: path)
        try RealmEngine.Realm.deleteFiles(for: path)
        return existed
    }

    /// Records an error from a non-throwing call in a write transaction (the first one wins).
    func record(_ error: Swift.Error) {
        if pendingError == nil { pendingError = error }
    }

    /// The class this Realm reads objects stored as `name` as (a Mixed link names only the
    /// stored name): one of its `objectTypes` or a class they link to, or without `objectTypes`
    /// the program's class of that name in the default schema; else the class the process
    /// registered under that name. Two classes of the program may share a stored name (in
    /// different scopes): the process's last one need not be this Realm's.
    func objectType(named name: String) -> Object.Type? {
        classesLock.lock()
        defer { classesLock.unlock() }
        if classesByName == nil { classesByName = Self.classesByName(of: configuration) }
        return classesByName?[name] ?? ClassInfo.type(named: name)
    }

    /// The classes of `configuration`'s schema by stored name, the first of a name winning as
    /// in `ClassInfo.schema(for:)`.
    private static func classesByName(of configuration: Configuration) -> [String: Object.Type] {
        var byName: [String: Object.Type] = [:]
        var queue = configuration.objectTypes ?? ClassInfo.registered
        var next = 0
        while next < queue.count {
            let info = ClassInfo.of(queue[next])
            next += 1
            guard byName[info.objectSchema.name] == nil else { continue }
            byName[info.objectSchema.name] = info.type
            queue.append(contentsOf: info.linkedTypes)
        }
        return byName
    }

    /// Checks once that `type`'s schema is the file's; a class missing or different is a
    /// programmer error (list it in `objectTypes`, and migrate a changed class).
    /// Returns the class's info.
    @discardableResult
    func check(_ type: Object.Type) -> ClassInfo {
        verifyThread()
        if !frozen, let known = checkedTypes[ObjectIdentifier(type)] { return known }
        return reading { checkOnce(type) }
    }

    private func checkOnce(_ type: Object.Type) -> ClassInfo {
        let id = ObjectIdentifier(type)
        if let known = checkedTypes[id] { return known }
        let info = ClassInfo.of(type)
        let wanted = info.objectSchema
        guard let stored = schema[wanted.name] else {
            let why =
                ClassInfo.ambiguousNames.contains(wanted.name) && configuration.objectTypes == nil
                ? " (two classes of the program are stored as \(wanted.name), so a Realm without objectTypes has neither)"
                : ""
            preconditionFailure(
                "\(wanted.name) is not in the schema of \(dynamicRealm.path)\(why); list it in Realm.Configuration.objectTypes"
            )
        }
        guard stored == wanted else {
            let difference = RealmDifference.describe(stored: stored, wanted: wanted)
            preconditionFailure(
                "\(wanted.name) differs from the class stored in \(dynamicRealm.path) (\(difference)); "
                    + "raise schemaVersion to migrate")
        }
        checkedTypes[id] = info
        return info
    }
}

/// Describes how a model class differs from the stored one.
enum RealmDifference {
    static func describe(stored: ObjectSchema, wanted: ObjectSchema) -> String {
        for p in wanted.properties where stored[p.name] == nil { return "property '\(p.name)' is not in the file" }
        for p in stored.properties where wanted[p.name] == nil { return "property '\(p.name)' was removed" }
        for p in wanted.properties where stored[p.name] != p {
            return "property '\(p.name)' changed from \(stored[p.name]?.typeDescription ?? "?") to \(p.typeDescription)"
        }
        return "the property order changed"
    }
}
