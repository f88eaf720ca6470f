import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Realm file (Realm Core's format) open for editing: the exclusive lock on its
/// `x.realm.lock` (`RealmCoreEditLock`, held until the session is released, so no Realm app
/// opens the file meanwhile), the file read whole into an in-memory Realm, and what writing it
/// back needs — its key and its schema version.
///
/// A commit that only gives existing objects new values in plain scalar columns (not indexed,
/// not the primary key, no links, Mixed or collections) of a plain format-24 file is written in
/// place, copy-on-write as Realm Core commits (`RealmCoreInPlaceCommit`: the changed leaves and
/// the nodes above them, new free lists and top, then the header's slot flip), so its cost
/// follows the change, not the file. Every other commit — objects created or deleted, links,
/// indexed columns, a schema change or migration, an encrypted file, a file read in format
/// 20–23 or in the streaming form — writes the whole file anew in format 24
/// (`RealmCoreWriter.replace`: temporary file, fsync, rename, fsync of the folder), whose cost
/// follows the file's size. `lastCommit` says which one a commit took.
///
///     let session = try RealmCoreEditSession(path: "seed.realm", key: nil, upgradeFormat: false)
///     let realm = try session.makeRealm()
///     try realm.write { …; try session.commit(realm) }   // inside: a failure cancels both
public final class RealmCoreEditSession: @unchecked Sendable {
    /// The Realm file, as given (messages name it).
    public let path: String
    /// The file it names, links resolved: what is locked and replaced.
    public let filePath: String
    /// The lock held for the session.
    public let lock: RealmCoreEditLock
    /// The key the file was read with, and is written back with (nil: plain).
    public let encryptionKey: Data?
    /// The schema version stored in the file's `metadata`, written back as read (nil: none).
    public let schemaVersion: UInt64?
    /// The file format it was read in (20–24; it is written back in 24).
    public let formatVersion: Int
    /// The in-memory Realm's identifier (`makeRealm`).
    public let inMemoryIdentifier: String
    /// What the file held, ready to copy into the in-memory Realm (`makeRealm`).
    private var conversion: RealmCoreConversion?

    /// Takes the lock, then reads the file (mapped: no app can commit while the lock is held).
    /// Throws, changing nothing: `RealmError.busy` while a Realm process has the file open;
    /// `RealmError.unsupportedFeature` for a synced Realm and a file holding what the conversion
    /// leaves out (writing it back would lose it), `unsupportedFormat` for a format 20–23 file
    /// without `upgradeFormat` (`RealmCoreEditPolicy`); the reader's errors for a damaged file
    /// or a wrong key.
    public init(path: String, key: [UInt8]?, upgradeFormat: Bool) throws {
        // A link is followed: the file it names is locked and replaced (a rename over the link
        // itself would leave the file unchanged and the link turned into a copy).
        guard let resolved = realpath(path, nil) else {
            let code = errno
            throw code == ENOENT
                ? RealmError.fileNotFound(path: path)
                : RealmError.io(path: path, operation: "resolve", errno: code, message: String(cString: strerror(code)))
        }
        let filePath = String(cString: resolved)
        free(resolved)
        let lock = try RealmCoreEditLock(path: filePath)
        let access =
            try key.map { try RealmCoreFileAccess.open(path: filePath, key: $0, lockHeld: true) }
            ?? RealmCoreFileAccess.open(path: filePath, lockHeld: true)
        if let reason = access.facts.unsupportedReason { throw RealmError.unsupportedFormat("\(path): \(reason)") }
        let file = try RealmCoreFile(image: access.image, name: path)
        if let refusal = RealmCoreEditPolicy.refusal(
            path: path, format: access.facts.format, historyType: file.historyType,
            upgradeFormat: upgradeFormat)
        {
            // A synced Realm is refused as a kind of file; an older format until --upgrade-format.
            throw RealmCoreEditPolicy.syncHistoryTypes.contains(file.historyType)
                ? RealmError.unsupportedFeature(refusal) : RealmError.unsupportedFormat(refusal)
        }
        let conversion = try RealmCoreConversion(file: file)
        if !conversion.omissions.isEmpty {
            throw RealmError.unsupportedFeature(
                "\(path) holds what this version of realmtui cannot hold yet, so writing it back would lose it: "
                    + conversion.omissions.map(\.description).joined(separator: ", ")
                    + "; the file is not changed ('realmtui copy' converts the rest into a file you can edit)")
        }
        self.path = path
        self.filePath = filePath
        self.lock = lock
        self.conversion = conversion
        encryptionKey = key.map { Data($0) }
        schemaVersion = try file.schemaVersion().map { UInt64(bitPattern: $0) }
        formatVersion = access.facts.format
        inMemoryIdentifier = "realm-core-edit:\(path):\(UUID().uuidString)"
    }

    /// The file's conversion (its schema, object count and omissions).
    public var schema: Schema? { conversion?.schema }

    /// Links to deleted objects the reading turned into no link (written back as no link).
    public private(set) var droppedUnresolvedLinks = 0

    /// The file's objects copied into a new in-memory Realm (with the file's schema version;
    /// Realm's "not versioned" reads as 0). Once per session.
    public func makeRealm(progress: (Int, Int) -> Void = { _, _ in }) throws -> Realm {
        guard var conversion else {
            throw RealmError.invalidState("\(path): the edit session's Realm was made already")
        }
        self.conversion = nil
        let version = schemaVersion.flatMap { Int64(bitPattern: $0) >= 0 ? $0 : nil } ?? 0
        let realm = try Realm(
            configuration: .init(
                inMemoryIdentifier: inMemoryIdentifier, schema: conversion.schema, schemaVersion: version))
        try realm.write { try conversion.copy(into: realm, progress: progress) }
        droppedUnresolvedLinks = conversion.droppedUnresolvedLinks
        return realm
    }

    /// Writes `realm`'s version (an open write transaction's changes included) as the file,
    /// with `schemaVersion` (default: the file's) in `metadata`. On failure the file is as it
    /// was (the caller cancels its transaction).
    public func commit(_ realm: Realm, schemaVersion: UInt64? = nil) throws {
        guard lock.isHeld else {
            throw RealmError.invalidState("\(path): the edit session is closed (its lock let go): nothing written")
        }
        let version = schemaVersion ?? self.schemaVersion
        var reason = "the schema version changes"
        if version == self.schemaVersion {
            switch try inPlaceChanges(realm) {
            case .success(let changes) where changes.isEmpty:
                // Nothing changed (an update that matched nothing): the file stays as it is.
                lastCommit = .nothingChanged
                return
            case .success(let changes):
                switch try RealmCoreInPlaceCommit.commit(path: filePath, changes: changes) {
                case .committed(let newVersion, _, let written, _, _):
                    lastCommit = .inPlace(version: newVersion, writtenBytes: written)
                    return
                case .notInPlace(let why): reason = why
                }
            case .failure(let why): reason = why.message
            }
        }
        try RealmCoreWriter.replace(filePath, with: realm, schemaVersion: version, encryptionKey: encryptionKey)
        lastCommit = .wholeFile(reason: reason)
    }

    /// How a commit was written.
    public enum CommitKind: Sendable, Equatable {
        /// Copy-on-write into the file: the new version and the bytes written.
        case inPlace(version: Int64, writtenBytes: Int)
        /// The whole file written anew, and why not in place.
        case wholeFile(reason: String)
        /// The transaction changed nothing: nothing written.
        case nothingChanged
    }

    /// How the last commit of this session was written (nil before the first).
    public private(set) var lastCommit: CommitKind?

    /// A reason a commit is not written in place.
    public struct NotInPlace: Error {
        public let message: String
    }

    /// Most changes a commit writes in place; beyond, the whole file is rewritten, which also
    /// leaves it without free space.
    public static let inPlaceCellLimit = 10_000

    /// The open write transaction's changes as new values of existing objects, when that is all
    /// it did and each is in a column the in-place commit writes; else why not.
    func inPlaceChanges(_ realm: Realm) throws -> Result<[RealmCoreCellChange], NotInPlace> {
        if encryptionKey != nil {
            return .failure(.init(message: "an encrypted file is rewritten whole (its pages are re-encrypted)"))
        }
        guard let pending = try realm.pendingWriteChanges() else {
            return .failure(.init(message: "no write transaction"))
        }
        if pending.schemaChanged { return .failure(.init(message: "the schema changed")) }
        var out: [RealmCoreCellChange] = []
        for (className, changes) in pending.classes.sorted(by: { $0.key < $1.key }) {
            if changes.inserted > 0 || !changes.deleted.isEmpty {
                return .failure(
                    .init(
                        message:
                            "\(className): objects created or deleted (the cluster tree, indexes and backlinks change shape)"
                    ))
            }
            guard let objectSchema = realm.schema[className] else {
                return .failure(.init(message: "\(className) is not in the schema"))
            }
            let properties = objectSchema.persistedProperties
            for (key, names) in changes.modified.sorted(by: { $0.key < $1.key }) {
                guard let object = try realm.object(ofType: className, key: key) else {
                    return .failure(.init(message: "\(className): object \(key) is gone"))
                }
                let values = try object.values()
                for name in names {
                    guard let i = properties.firstIndex(where: { $0.name == name }), i < values.count else {
                        return .failure(.init(message: "\(className).\(name) is not a persisted property"))
                    }
                    let p = properties[i]
                    if p.isLink || p.type == .mixed || p.isList || p.isSet || p.isMap || p.isPrimaryKey || p.isIndexed {
                        return .failure(
                            .init(
                                message:
                                    "\(className).\(name): links, Mixed, collections and indexed properties are rewritten whole"
                            ))
                    }
                    out.append(
                        RealmCoreCellChange(
                            table: "class_" + className, key: key.rawValue, column: name,
                            value: try RealmCoreWriter.coreValue(values[i], className, p)))
                    if out.count > Self.inPlaceCellLimit {
                        return .failure(.init(message: "more than \(Self.inPlaceCellLimit) values changed"))
                    }
                }
            }
        }
        return .success(out)
    }

    /// Lets go of the lock (the session writes nothing more).
    public func close() { lock.release() }
}
