/// The one error type of the engine. Every case has a stable code and a message that says what
/// went wrong, where, and when possible how to fix it.
public enum RealmError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist and the operation does not create files.
    case fileNotFound(path: String)
    /// The file exists but is not a realmtui file (empty, foreign, or random bytes).
    case notARealmFile(path: String, reason: String)
    /// A structure read from the file is inconsistent. `offset` is where it was found.
    case corruptFile(path: String, offset: UInt64, reason: String)
    /// The file was written by a newer version of the format than this program can read.
    case newerFormat(path: String, found: UInt16, supported: UInt16)
    /// An operating-system call failed.
    case io(path: String, operation: String, errno: Int32, message: String)
    /// The Realm (or file) was opened read-only and a write was attempted.
    case readOnly(path: String)
    /// A write was attempted outside a write transaction, or a transaction call came at the wrong time.
    case notInWriteTransaction
    case alreadyInWriteTransaction
    /// A Realm instance was used on a thread other than the one that opened it.
    case wrongThread
    /// The Realm instance was invalidated or closed.
    case closed
    /// The schema is invalid (duplicate names, unknown link targets, too-long names, …).
    case invalidSchema(String)
    /// The stored schema differs from the requested one and no migration was allowed.
    case schemaMismatch(String)
    /// No class with this name.
    case noSuchClass(String)
    /// No property with this name on this class; `available` lists the class's properties.
    case noSuchProperty(className: String, property: String, available: [String])
    /// A value of the wrong type for a property.
    case typeMismatch(className: String, property: String, expected: String, got: String)
    /// A required property was given nil or no value.
    case missingValue(className: String, property: String)
    /// A String or Data value is too large, or a name is too long.
    case limitExceeded(String)
    /// A primary key value that is already used, or an attempt to change a primary key.
    case primaryKey(String)
    /// The object was deleted (or its Realm closed) and can no longer be used.
    case invalidatedObject
    /// An index past the end of a collection.
    case indexOutOfRange(index: Int, count: Int)
    /// A query that does not parse or does not type-check. `column` is 1-based.
    case query(message: String, column: Int)
    /// A file format or version this program does not read, or reads but does not write: a
    /// Realm Core format outside 20–24 (or one realmtui would have to upgrade), a newer
    /// realmtui write format (the file opens read-only), a property type a newer program wrote.
    case unsupportedFormat(String)
    /// Something this program cannot (yet) do with this kind of file: a value, size or
    /// structure the Realm Core writer does not write, a Realm Core file whose parts a
    /// write-back would lose, a synced Realm Core file (never edited).
    case unsupportedFeature(String)
    /// The schema or a value is refused by sync's rules: a class without a primary key, an
    /// embedded class, a reserved name, a link inside a Mixed value, a schema change of a
    /// synced file.
    case notSyncable(String)
    /// An operation the object, collection or class does not offer (a list of values asked for
    /// objects, a primary-key lookup on a class without one, an export the import cannot read back).
    case invalidOperation(String)
    /// A call that is right in general but not in this state (writing a frozen Realm, observing
    /// inside a write transaction, freezing an uncommitted version).
    case invalidState(String)
    /// The process ran out of something it needs (address space for the file's mapping).
    case resourceLimit(String)
    /// An invariant of this program's own code did not hold: a bug, never bad bytes or bad input
    /// (those are `corruptFile` and `invalidInput`). The operation was cancelled whole.
    case internalError(String)
    /// A long read was cancelled by the user (`ProgressMonitor`); nothing was changed.
    case cancelled
    /// Another process or instance holds the file in a way that forbids the operation.
    case busy(String)
    /// Bad input that fits no other case (for instance JSON that does not parse).
    case invalidInput(String)
    /// An encrypted file opened without its key or with a wrong one, a key given for a plain
    /// file, or a key that is not 64 bytes. A damaged encrypted page is `corruptFile`.
    case encryption(path: String, reason: String)
    /// A sync server (PostgreSQL) refused a connection or a statement. `server` names it as
    /// `postgres://user@host:port/database`, never with the password; `state` is the server's
    /// SQLSTATE (e.g. `23505`), empty when the connection itself failed.
    case server(server: String, operation: String, state: String, message: String)

    /// A stable, short code for scripts.
    public var code: String {
        switch self {
        case .fileNotFound: "file-not-found"
        case .notARealmFile: "not-a-realm-file"
        case .corruptFile: "corrupt-file"
        case .newerFormat: "newer-format"
        case .io: "io"
        case .readOnly: "read-only"
        case .notInWriteTransaction: "not-in-write-transaction"
        case .alreadyInWriteTransaction: "already-in-write-transaction"
        case .wrongThread: "wrong-thread"
        case .closed: "closed"
        case .invalidSchema: "invalid-schema"
        case .schemaMismatch: "schema-mismatch"
        case .noSuchClass: "no-such-class"
        case .noSuchProperty: "no-such-property"
        case .typeMismatch: "type-mismatch"
        case .missingValue: "missing-value"
        case .limitExceeded: "limit-exceeded"
        case .primaryKey: "primary-key"
        case .invalidatedObject: "invalidated-object"
        case .indexOutOfRange: "index-out-of-range"
        case .query: "query"
        case .unsupportedFormat: "unsupported-format"
        case .unsupportedFeature: "unsupported-feature"
        case .notSyncable: "not-syncable"
        case .invalidOperation: "invalid-operation"
        case .invalidState: "invalid-state"
        case .resourceLimit: "resource-limit"
        case .internalError: "internal-error"
        case .cancelled: "cancelled"
        case .busy: "busy"
        case .invalidInput: "invalid-input"
        case .encryption: "encryption"
        case .server: "server"
        }
    }

    public var description: String {
        switch self {
        case .fileNotFound(let path): "\(path): no such file"
        case .notARealmFile(let path, let reason): "\(path): not a realmtui database (\(reason))"
        case .corruptFile(let path, let offset, let reason): "\(path): corrupt file at offset \(offset): \(reason)"
        case .newerFormat(let path, let found, let supported):
            "\(path): written by a newer format (version \(found); this program reads up to \(supported)); upgrade realmtui"
        case .io(let path, let operation, let errno, let message):
            "\(path): \(operation) failed: \(message) (errno \(errno))"
        case .readOnly(let path): "\(path) is open read-only; writes are refused"
        case .notInWriteTransaction: "not in a write transaction: call beginWrite() or write { } first"
        case .alreadyInWriteTransaction: "already in a write transaction"
        case .wrongThread: "Realm accessed from the wrong thread: each thread must open its own Realm instance"
        case .closed: "the Realm has been invalidated or closed"
        case .invalidSchema(let message): "invalid schema: \(message)"
        case .schemaMismatch(let message): "schema mismatch: \(message)"
        case .noSuchClass(let name): "no class named '\(name)'"
        case .noSuchProperty(let className, let property, let available):
            "class '\(className)' has no property '\(property)'; its properties are: \(available.joined(separator: ", "))"
        case .typeMismatch(let className, let property, let expected, let got):
            "\(className).\(property) expects \(expected), got \(got)"
        case .missingValue(let className, let property): "\(className).\(property) is required and cannot be nil"
        case .limitExceeded(let message): message
        case .primaryKey(let message): message
        case .invalidatedObject: "the object has been deleted or invalidated"
        case .indexOutOfRange(let index, let count): "index \(index) is out of range (count \(count))"
        case .query(let message, let column): "\(message) at column \(column)"
        case .unsupportedFormat(let message), .unsupportedFeature(let message), .notSyncable(let message),
            .invalidOperation(let message), .invalidState(let message),
            .resourceLimit(let message), .internalError(let message):
            message
        case .busy(let message): message
        case .invalidInput(let message): message
        case .encryption(let path, let reason): "\(path): \(reason)"
        case .server(let server, let operation, let state, let message):
            // The SQLSTATE (the cause's code) says which refusal it was when the text is localized.
            "\(server): \(operation) failed: \(message)" + (state.isEmpty ? "" : " (SQLSTATE \(state))")
        case .cancelled: "cancelled: nothing was changed"
        }
    }
}

extension RealmError {
    /// The reason of `encryption` for an encrypted file opened without a key.
    public static let missingKeyReason = "the file is encrypted: give its key"

    /// A `corruptFile` error with the class it was found in named at the front of its reason
    /// (unless it already names one); any other error unchanged.
    func naming(class name: String) -> RealmError {
        guard case .corruptFile(let path, let offset, let reason) = self, !reason.hasPrefix("class ") else {
            return self
        }
        return .corruptFile(path: path, offset: offset, reason: "class \(name): \(reason)")
    }
}
