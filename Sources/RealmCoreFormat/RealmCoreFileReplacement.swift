import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a Realm file that was read may be written back by realmtui, decided from its header
/// and top array before anything is changed.
public enum RealmCoreEditPolicy {
    /// Realm Core's `Replication::HistoryType` values of a synced Realm: the sync client's
    /// history (3) and the sync server's (4).
    public static let syncHistoryTypes: Set<Int> = [3, 4]

    /// Nil when the file may be written back, otherwise why not:
    /// - a synced Realm (history type 3 or 4) holds the changes the sync client still has to
    ///   upload and where it is in the server's history; a file written without them would be
    ///   thrown away or make the client diverge from the server, so it is never written;
    /// - a file in format 20–23 is written back in format 24, which an app on an older SDK cannot
    ///   open, so only when the user says so with `--upgrade-format`.
    public static func refusal(path: String, format: Int, historyType: Int, upgradeFormat: Bool) -> String? {
        if syncHistoryTypes.contains(historyType) {
            return
                "\(path) is a synced Realm (history type \(historyType)): realmtui never writes one, since its sync history "
                + "(changes not yet uploaded, the server's position) cannot be kept and the app's sync client would discard "
                + "or diverge from the edited file; edit it through the app, or 'realmtui copy' it into a local file"
        }
        if format < RealmCoreWriter.formatVersion && !upgradeFormat {
            return
                "\(path) is in Realm file format \(format) and realmtui writes format \(RealmCoreWriter.formatVersion), "
                + "which an app on an older Realm SDK (\(RealmCoreHeaderFacts.coreVersions(ofFormat: format) ?? "format \(format)")) "
                + "cannot open; add --upgrade-format to write it in format \(RealmCoreWriter.formatVersion) anyway"
        }
        return nil
    }

    /// What the write commands (`update`, `import`, `delete`, `migrate`, the explorer) do with a
    /// Realm file, as `schema` says it: a synced Realm is never written; a format 20–23 file only
    /// with `--upgrade-format`; a Realm app holding the lock (`inUseByRealmApp`) makes them
    /// refuse it for as long as it does; otherwise they edit it, taking that lock themselves.
    public static func accessNote(path: String, format: Int, historyType: Int, inUseByRealmApp: Bool) -> String {
        if syncHistoryTypes.contains(historyType) {
            return "read-only: a synced Realm (history type \(historyType)), which realmtui never writes"
        }
        if format < RealmCoreWriter.formatVersion {
            return
                "read-only for the write commands unless given --upgrade-format (they write format \(RealmCoreWriter.formatVersion))"
        }
        if inUseByRealmApp {
            return "read-only while a Realm app holds its lock (\((path as NSString).lastPathComponent).lock)"
        }
        return "editable by the write commands while no Realm app holds its lock"
    }
}

extension RealmCoreWriter {
    /// Replaces the Realm file at `path` with `realm`'s version (the one it reads, uncommitted
    /// changes of its open write transaction included) written whole in format 24, with
    /// `schemaVersion` in `metadata` and encrypted with `encryptionKey` when given: a new file
    /// beside it under a temporary name, flushed, renamed over `path`, then the folder flushed.
    /// On any failure (the schema holds what the writer cannot write, a write error, a full
    /// disk) the original is untouched and the temporary file removed.
    public static func replace(_ path: String, with realm: Realm, schemaVersion: UInt64?, encryptionKey: Data?) throws {
        let key = try encryptionKey.map { try checked($0, path: path) }
        let tables = try tables(from: realm)
        let plain = try image(tables: tables, schemaVersion: schemaVersion, name: path)
        try replaceFile(try key.map { try RealmCoreEncryption.encrypt(plain, key: $0, path: path) } ?? plain, at: path)
    }

    /// Writes `bytes` to a new file beside `path`, fsyncs it, renames it over `path` and fsyncs
    /// the folder. The new file keeps the old one's permission bits (and, where allowed, owner).
    static func replaceFile(_ bytes: [UInt8], at path: String) throws {
        let failure = CoreFileWrites.failure
        var original = stat()
        guard stat(path, &original) == 0 else { throw failure("stat", path, errno) }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".realmtui-commit-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary, errno) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            var closed = false
            defer { if !closed { close(fd) } }
            _ = fchown(fd, original.st_uid, original.st_gid)  // best effort: only root may give a file away
            guard fchmod(fd, original.st_mode & 0o7777) == 0 else { throw failure("chmod", temporary, errno) }
            try CoreFileWrites.write(bytes, to: fd, at: 0, path: temporary)
            guard fsync(fd) == 0 else { throw failure("fsync", temporary, errno) }
            closed = true
            // close can report a write-back error on some file systems (NFS).
            guard close(fd) == 0 else { throw failure("close", temporary, errno) }
        }
        guard rename(temporary, path) == 0 else { throw failure("rename over the Realm file", path, errno) }
        renamed = true
        // The rename is durable only once the folder is flushed.
        let dir = open(folder, O_RDONLY | O_CLOEXEC)
        guard dir >= 0 else { throw failure("open the folder to flush", folder, errno) }
        defer { close(dir) }
        guard fsync(dir) == 0 else { throw failure("fsync", folder, errno) }
    }
}
