import Foundation

extension Realm {
    /// Where and how a Realm is opened, as in RealmSwift.
    ///
    /// `Configuration()` is the default file (`default.realm` in `RealmEngine.Realm.defaultDirectory`);
    /// `Configuration(inMemoryIdentifier:)` an in-memory Realm shared by the instances that
    /// name it, gone when the last one closes.
    public struct Configuration: @unchecked Sendable {
        // @unchecked: every stored property is a value, a `@Sendable` closure or a class
        // metatype, which is immutable.

        /// The file; nil for an in-memory Realm.
        public var fileURL: URL? {
            didSet { if fileURL != nil { inMemoryIdentifier = nil } }
        }
        /// The identifier of an in-memory Realm; setting it clears `fileURL`.
        public var inMemoryIdentifier: String? {
            didSet { if inMemoryIdentifier != nil { fileURL = nil } }
        }
        /// A 64-byte encryption key: bytes 0–31 for AES-256, 32–63 for HMAC-SHA-256. A new file is
        /// created encrypted; an existing one opens only with the key it was made with (a wrong
        /// or missing key, a key for a plain file, or a key that is not 64 bytes throws
        /// `RealmError.encryption`).
        public var encryptionKey: Data?
        /// Opens without writing; writes throw.
        public var readOnly: Bool
        /// The version of the classes' schema. Opening a file with a lower stored version
        /// migrates it (`migrationBlock`); a higher stored version is an error.
        public var schemaVersion: UInt64
        /// Runs during the migration from an older schema version: `{ migration, oldSchemaVersion in … }`.
        /// Added and removed properties need no code; the whole migration is one write transaction.
        public var migrationBlock: MigrationBlock?
        /// Delete and recreate the file when its schema differs.
        public var deleteRealmIfMigrationNeeded: Bool
        /// Called with (file size, used bytes) when the first instance of a file opens; true
        /// compacts the file first.
        public var shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)?
        /// The classes of the Realm (and the classes they link to).
        public var objectTypes: [Object.Type]?
        /// `Codable` structs stored through a `Container` (each as a class of its own).
        public var codableTypes: [any CodableRecord.Type] = []
        /// Sync the file through a PostgreSQL server (`SyncConfiguration`): opening the Realm
        /// sets the file up and starts its agent (`Realm.syncSession`). Nil: no sync.
        public var sync: SyncConfiguration?

        /// A configuration; every argument has RealmSwift's default.
        public init(
            fileURL: URL? = nil, inMemoryIdentifier: String? = nil, encryptionKey: Data? = nil,
            readOnly: Bool = false, schemaVersion: UInt64 = 0, migrationBlock: MigrationBlock? = nil,
            deleteRealmIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)? = nil,
            objectTypes: [Object.Type]? = nil
        ) {
            if let inMemoryIdentifier {
                self.inMemoryIdentifier = inMemoryIdentifier
                self.fileURL = nil
            } else {
                self.fileURL = fileURL ?? RealmEngine.Realm.defaultDirectory.appendingPathComponent("default.realm")
                self.inMemoryIdentifier = nil
            }
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.objectTypes = objectTypes
        }

        nonisolated(unsafe) private static var _default = Configuration()
        private static let defaultLock = NSLock()

        /// The configuration `Realm()` opens.
        public static var defaultConfiguration: Configuration {
            get {
                defaultLock.lock()
                defer { defaultLock.unlock() }
                return _default
            }
            set {
                defaultLock.lock()
                _default = newValue
                defaultLock.unlock()
            }
        }

        /// The dynamic core's configuration for this one, opening with `schema`.
        func engineConfiguration(schema: Schema?, createIfMissing: Bool = true) -> RealmEngine.Realm.Configuration {
            let compact = shouldCompactOnLaunch.map { f in
                { @Sendable (total: UInt64, used: UInt64) in f(Int(total), Int(used)) }
            }
            return RealmEngine.Realm.Configuration(
                fileURL: fileURL, inMemoryIdentifier: inMemoryIdentifier, readOnly: readOnly, schema: schema,
                schemaVersion: schemaVersion, deleteRealmIfMigrationNeeded: deleteRealmIfMigrationNeeded,
                encryptionKey: encryptionKey, shouldCompactOnLaunch: compact, createIfMissing: createIfMissing,
                migrationBlock: migrationBlock)
        }

        /// The dynamic Realm for this configuration on this thread: the one already open here
        /// (so objects of two `Realm(configuration:)` calls on one thread are the same objects
        /// of the same Realm, as in RealmSwift), else a new one.
        func open() throws -> RealmEngine.Realm {
            let key = cacheKey
            let cache = Thread.current.threadDictionary
            // The key is not part of the cache key: a cached Realm opened with another key (or
            // none) must not be handed out, so a mismatch opens anew, which checks the key.
            if let box = cache[key] as? WeakEngineRealm, let realm = box.realm,
                realm.configuration.encryptionKey == encryptionKey
            {
                return realm
            }
            let realm = try openNew()
            realm.autorefresh = true  // as in RealmSwift: picks up other commits on the RunLoop
            cache[key] = WeakEngineRealm(realm)
            return realm
        }

        /// What makes two configurations open the same Realm.
        private var cacheKey: String {
            let types =
                objectTypes.map { ClassInfo.schema(for: $0).objectSchemas.map(\.name).joined(separator: ",") } ?? "*"
            let place = inMemoryIdentifier.map { "memory:" + $0 } ?? fileURL?.path ?? ""
            let records = codableTypes.map { String(describing: $0) }.joined(separator: ",")
            return
                "realmswift.realm|\(place)|\(schemaVersion)|\(readOnly)|\(types)|\(identities(of: objectTypes))|\(records)"
        }

        /// Opens the dynamic Realm: with the schema of `objectTypes`; without, the stored schema
        /// of an existing file, else the classes used so far.
        /// (`open` opens the engine instance: `RealmEngine.Realm(configuration:)` by default, an
        /// actor-confined one for `Realm(configuration:actor:)`.)
        func openNew(
            _ open: (RealmEngine.Realm.Configuration) throws -> RealmEngine.Realm = {
                try RealmEngine.Realm(configuration: $0)
            }
        )
            throws -> RealmEngine.Realm
        {
            if let objectTypes {
                return try open(engineConfiguration(schema: try withRecords(ClassInfo.schema(for: objectTypes))))
            }
            if readOnly { return try open(engineConfiguration(schema: nil, createIfMissing: false)) }
            let exists =
                inMemoryIdentifier != nil || fileURL.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
            if exists {
                do {
                    let realm = try open(engineConfiguration(schema: nil, createIfMissing: false))
                    // Without the classes, no migration can run: say so rather than open the
                    // file unmigrated (the block not run, the version not raised).
                    guard realm.schemaVersion == schemaVersion else {
                        throw RealmError.schemaMismatch(
                            "\(realm.path) has schema version \(realm.schemaVersion) and this configuration asks for \(schemaVersion): "
                                + "a migration needs the new schema, so give the configuration its objectTypes")
                    }
                    return realm
                } catch RealmError.notARealmFile(_, let reason) where reason.contains("empty") {
                    // A new in-memory Realm, or an empty file: created below.
                }
            }
            return try open(engineConfiguration(schema: try withRecords(ClassInfo.schema(for: ClassInfo.registered))))
        }

        /// `schema` with the classes of `codableTypes`.
        private func withRecords(_ schema: Schema) throws -> Schema {
            for name in schema.classNames {
                if let problem = ClassInfo.hookProblem(named: name) { throw RealmError.invalidSchema(problem) }
            }
            guard !codableTypes.isEmpty else { return schema }
            return Schema(schema.objectSchemas + (try codableTypes.map { try $0.recordSchema() }))
        }
    }
}

/// A dynamic Realm held weakly by a thread's cache.
final class WeakEngineRealm {
    weak var realm: RealmEngine.Realm?
    init(_ realm: RealmEngine.Realm) { self.realm = realm }
}

/// The identities of the model classes (two classes of one name are different models).
func identities(of types: [Object.Type]?) -> String {
    (types ?? []).map { String(UInt(bitPattern: ObjectIdentifier($0))) }.joined(separator: ",")
}
