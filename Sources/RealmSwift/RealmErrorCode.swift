import Foundation
#if canImport(Glibc)
    import Glibc
#endif

extension Realm {
    /// The errors a Realm throws, as RealmSwift names them: `Realm.Error` with a `code`.
    ///
    /// ```swift
    /// do {
    ///     let realm = try Realm(configuration: config)
    /// } catch let error as Realm.Error where error.code == .fileNotFound {
    ///     // …
    /// } catch Realm.Error.incompatibleLockFile {
    ///     // …
    /// }
    /// ```
    ///
    /// It is the engine's one error type (`RealmError`): every case keeps its context and its
    /// message, and maps to one of Realm 10's codes (`RealmError.Code`).
    public typealias Error = RealmError
}

extension RealmError {
    /// The codes of Realm 10's errors (`RLMError`), with their numbers. Each `RealmError` has
    /// exactly one (`realmCode`, read as `error.code` through `Realm.Error`). Realm's codes that
    /// no error of this engine can have (`alreadyOpen`: compaction refuses an open file as
    /// `incompatibleSession`; the sync codes) are left out.
    public enum Code: Int, Sendable, CaseIterable, CustomStringConvertible {
        /// A general error, or one that no other code describes (a misuse, an invariant of
        /// this program, a cancelled operation).
        case fail = 1
        /// A file could not be read or written (an operating-system call failed).
        case fileAccess = 2
        /// The process may not open or create the file in the mode asked for.
        case filePermissionDenied = 3
        /// A file was to be created where one already exists.
        case fileExists = 4
        /// The file (or the folder it is to be written in) does not exist.
        case fileNotFound = 5
        /// The file must be upgraded to be opened, and it is opened read-only.
        case fileFormatUpgradeRequired = 6
        /// The lock file beside the Realm is of a format this program cannot share.
        case incompatibleLockFile = 8
        /// Not enough address space to map the file.
        case addressSpaceExhausted = 9
        /// The stored schema differs from the classes and no migration was given.
        case schemaMismatch = 10
        /// A value given was invalid (wrong type, nil for a required property, a duplicate
        /// primary key, a query that does not parse, a value over a limit).
        case invalidInput = 13
        /// A write failed for want of disk space.
        case outOfDiskSpace = 14
        /// Another process has the file open in a way this one cannot share.
        case incompatibleSession = 15
        /// The file is a Realm of a format version this program does not support.
        case unsupportedFileFormatVersion = 16
        /// A file operation failed in a way no other code describes.
        case fileOperationFailed = 19
        /// The file is not a Realm, is damaged, or its encryption key is missing or wrong.
        case invalidDatabase = 20

        public var description: String {
            switch self {
            case .fail: "fail"
            case .fileAccess: "fileAccess"
            case .filePermissionDenied: "filePermissionDenied"
            case .fileExists: "fileExists"
            case .fileNotFound: "fileNotFound"
            case .fileFormatUpgradeRequired: "fileFormatUpgradeRequired"
            case .incompatibleLockFile: "incompatibleLockFile"
            case .addressSpaceExhausted: "addressSpaceExhausted"
            case .schemaMismatch: "schemaMismatch"
            case .invalidInput: "invalidInput"
            case .outOfDiskSpace: "outOfDiskSpace"
            case .incompatibleSession: "incompatibleSession"
            case .unsupportedFileFormatVersion: "unsupportedFileFormatVersion"
            case .fileOperationFailed: "fileOperationFailed"
            case .invalidDatabase: "invalidDatabase"
            }
        }
    }

    /// The error's Realm 10 code: `catch let error as Realm.Error where error.code == .fileNotFound`.
    /// In code that imports RealmSwift this is the `code` of every Realm error, as in Realm
    /// Swift; the engine's stable string code (for scripts) stays `RealmEngine`'s own.
    public var code: Code { realmCode }

    /// The error's Realm 10 code (`error.code` through `Realm.Error`; the engine's `code` is
    /// the string scripts read).
    public var realmCode: Code {
        switch self {
        case .fileNotFound: .fileNotFound
        case .notARealmFile(let path, _), .corruptFile(let path, _, _):
            // The lock file beside a Realm is the one RealmSwift calls incompatible.
            path.hasSuffix(".lock") ? .incompatibleLockFile : .invalidDatabase
        case .encryption: .invalidDatabase
        case .newerFormat: .unsupportedFileFormatVersion
        case .unsupportedFormat: .fileFormatUpgradeRequired
        case .io(_, _, let errno, _): Self.code(ofErrno: errno)
        case .schemaMismatch: .schemaMismatch
        case .resourceLimit: .addressSpaceExhausted
        case .busy: .incompatibleSession
        case .noSuchClass, .noSuchProperty, .typeMismatch, .missingValue, .limitExceeded, .primaryKey,
            .indexOutOfRange, .query, .invalidInput, .invalidSchema:
            .invalidInput
        // Writing a read-only Realm is a misuse there (an exception), not a file error.
        case .readOnly, .notInWriteTransaction, .alreadyInWriteTransaction, .wrongThread, .closed, .invalidatedObject,
            .invalidOperation, .invalidState, .internalError, .cancelled, .unsupportedFeature:
            .fail
        // Realm's sync rules are Atlas's (an exception there), not a file error.
        case .notSyncable: .fail
        // A sync server's refusal: Realm's own sync codes belong to Atlas, which this is not.
        case .server: .fail
        }
    }

    /// The code of a failed system call, by its errno.
    static func code(ofErrno errno: Int32) -> Code {
        switch errno {
        case ENOENT: .fileNotFound
        // A path through a file (`/dev/null/foo`): RealmSwift's "parent path is not a directory".
        case ENOTDIR: .fileOperationFailed
        case EACCES, EPERM, EROFS: .filePermissionDenied
        case EEXIST: .fileExists
        case ENOSPC, EDQUOT: .outOfDiskSpace
        case ENOMEM: .addressSpaceExhausted
        default: .fileAccess
        }
    }

    /// The file the error is about, when it names one.
    public var fileURL: URL? {
        switch self {
        case .fileNotFound(let path), .notARealmFile(let path, _), .corruptFile(let path, _, _),
            .newerFormat(let path, _, _), .io(let path, _, _, _), .readOnly(let path), .encryption(let path, _):
            URL(fileURLWithPath: path)
        default: nil
        }
    }

    /// An error of the given code, as RealmSwift's `Realm.Error(.fail)` makes one (for a
    /// block that must throw a Realm error); its message names the code.
    public init(_ code: Code) {
        let message = "Realm error: \(code)"
        switch code {
        case .fail: self = .internalError(message)
        case .fileAccess: self = .io(path: "", operation: "access", errno: EIO, message: message)
        case .filePermissionDenied: self = .io(path: "", operation: "open", errno: EACCES, message: message)
        case .fileExists: self = .io(path: "", operation: "create", errno: EEXIST, message: message)
        case .fileNotFound: self = .io(path: "", operation: "open", errno: ENOENT, message: message)
        case .fileFormatUpgradeRequired: self = .unsupportedFormat(message)
        case .incompatibleLockFile: self = .notARealmFile(path: ".lock", reason: message)
        case .addressSpaceExhausted: self = .resourceLimit(message)
        case .schemaMismatch: self = .schemaMismatch(message)
        case .incompatibleSession: self = .busy(message)
        case .invalidInput: self = .invalidInput(message)
        case .outOfDiskSpace: self = .io(path: "", operation: "write", errno: ENOSPC, message: message)
        case .unsupportedFileFormatVersion: self = .newerFormat(path: "", found: 0, supported: 0)
        case .fileOperationFailed: self = .io(path: "", operation: "open", errno: ENOTDIR, message: message)
        case .invalidDatabase: self = .notARealmFile(path: "", reason: message)
        }
    }

    // RealmSwift's `catch Realm.Error.fileAccess { }`: each code is a member of `Realm.Error`,
    // and a pattern of a code matches every error with that code. (`fileNotFound`,
    // `schemaMismatch` and `readOnly` are cases of the enum, which the same pattern matches.)
    public static let fail = Code.fail
    public static let fileAccess = Code.fileAccess
    public static let filePermissionDenied = Code.filePermissionDenied
    public static let fileExists = Code.fileExists
    public static let fileFormatUpgradeRequired = Code.fileFormatUpgradeRequired
    public static let incompatibleLockFile = Code.incompatibleLockFile
    public static let addressSpaceExhausted = Code.addressSpaceExhausted
    public static let outOfDiskSpace = Code.outOfDiskSpace
    public static let incompatibleSession = Code.incompatibleSession
    public static let unsupportedFileFormatVersion = Code.unsupportedFileFormatVersion
    public static let fileOperationFailed = Code.fileOperationFailed
    public static let invalidDatabase = Code.invalidDatabase

}

/// Whether `error` is a Realm error with this code (`catch Realm.Error.fileAccess`).
public func ~= (code: RealmError.Code, error: any Swift.Error) -> Bool {
    (error as? RealmError)?.realmCode == code
}
