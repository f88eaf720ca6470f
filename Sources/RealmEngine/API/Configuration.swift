import Foundation

extension Realm {
    /// Where and how a Realm is opened. Mirrors `Realm.Configuration` of RealmSwift.
    public struct Configuration: Sendable {
        /// The file. Defaults to `default.realm` in `Realm.defaultDirectory`.
        public var fileURL: URL?
        /// Opens an in-memory Realm shared by every instance in this process with the same
        /// identifier; nothing is persisted, and it is gone when the last instance closes.
        public var inMemoryIdentifier: String?
        /// Opens without writing anything (no lock file is created beside a file in a read-only
        /// folder); writes throw `RealmError.readOnly`.
        public var readOnly: Bool = false
        /// The classes to open the file with. `nil` opens the file with the schema stored in it
        /// (the dynamic API); a file that does not exist yet then cannot be created.
        public var schema: Schema?
        /// The version of `schema`. Opening a file whose stored schema differs requires a higher
        /// version (and migrates) unless `deleteRealmIfMigrationNeeded` is set; classes the file
        /// does not have yet and added or removed indexes need none (as in Realm).
        public var schemaVersion: UInt64 = 0
        /// Runs when the file's schema version is lower than `schemaVersion`, inside the one write
        /// transaction of the migration (see `Migration`).
        public var migrationBlock: MigrationBlock?
        /// Delete and recreate the file when a migration would be needed: another schema
        /// version (higher or lower), or a change beyond added classes and indexes.
        public var deleteRealmIfMigrationNeeded: Bool = false
        /// Restricts `schema` to these classes (and the classes they link to).
        public var objectTypes: [String]?
        /// A 64-byte key: bytes 0–31 for AES-256, 32–63 for HMAC-SHA-256. A new file is created
        /// encrypted; an existing one must have been made with the same key (a wrong key, a
        /// missing key and a key for a plain file are `RealmError.encryption`). In-memory Realms
        /// check the key's length and keep nothing on disk to encrypt.
        public var encryptionKey: Data?
        /// Called with (file size, used bytes) when the first instance of a file opens; returning
        /// true compacts the file first (never while another process has it open).
        public var shouldCompactOnLaunch: (@Sendable (UInt64, UInt64) -> Bool)?
        /// Whether a missing or empty file is created (needs `schema`). Reading tools set false.
        public var createIfMissing: Bool = true

        /// A configuration for a file path.
        public init(
            fileURL: URL? = nil, inMemoryIdentifier: String? = nil, readOnly: Bool = false, schema: Schema? = nil,
            schemaVersion: UInt64 = 0,
            deleteRealmIfMigrationNeeded: Bool = false, objectTypes: [String]? = nil, encryptionKey: Data? = nil,
            shouldCompactOnLaunch: (@Sendable (UInt64, UInt64) -> Bool)? = nil, createIfMissing: Bool = true,
            migrationBlock: MigrationBlock? = nil
        ) {
            self.migrationBlock = migrationBlock
            self.fileURL = fileURL
            self.inMemoryIdentifier = inMemoryIdentifier
            self.readOnly = readOnly
            self.schema = schema
            self.schemaVersion = schemaVersion
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.objectTypes = objectTypes
            self.encryptionKey = encryptionKey
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.createIfMissing = createIfMissing
        }

        /// A configuration for a file path given as a string.
        public static func file(_ path: String, schema: Schema? = nil, readOnly: Bool = false) -> Configuration {
            Configuration(fileURL: URL(fileURLWithPath: path), readOnly: readOnly, schema: schema)
        }

        nonisolated(unsafe) private static var _default = Configuration()
        private static let defaultLock = NSLock()

        /// The configuration `Realm()` uses.
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

        /// The file path this configuration opens.
        public var path: String {
            if let fileURL { return fileURL.path }
            return Realm.defaultDirectory.appendingPathComponent("default.realm").path
        }
    }

    /// The folder for `default.realm`: `$XDG_DATA_HOME/realmtui`, else `~/.local/share/realmtui`.
    public static var defaultDirectory: URL {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("realmtui")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/realmtui")
    }
}
