import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A newest commit that was set aside: it did not verify when the file was opened (or when a
/// writer found it), so the file reads the version before it. Its bytes are kept in a copy of
/// the whole file beside it, `PATH.set-aside-vN`, made before anything erases or overwrites it.
public struct SetAsideCopy: Sendable, Equatable {
    /// The version of the commit set aside.
    public var version: UInt64
    /// The copy of the file that holds it (`Realm.recover(from:to:)` salvages it).
    public var path: String
}

/// Keeping set-aside commits (issue 29, item 2).
///
/// A newest commit that does not verify was either torn by a crash before it was acknowledged
/// (normal operation) or damaged on disk after it was acknowledged; the file cannot tell which.
/// Falling back to the version before it is right for reading, but the next write reuses the
/// space that commit's nodes lie in, and whatever it held would be gone. So before a writer
/// erases the commit's slot (`SharedFile.recoverNewest`, `SharedFile.settleNewest`) the file is
/// copied whole, byte for byte (ciphertext for an encrypted file), and the copy made durable
/// under its name the way every new file is (`StagedFile`):
/// a copy rather than keeping its pages from reuse inside the file, because a damaged commit's
/// node graph cannot be trusted to say which pages are its own, and a copy is what `recover`
/// reads anyway. The copy stays until the user discards it (`Realm.discardSetAside`); `check`
/// names it in a warning. Copying costs a pass over the file, once per set-aside commit.
enum SetAside {
    static let marker = ".set-aside-v"

    /// Where the copy for `version` of the file at `path` (canonical) is kept.
    static func copyPath(for path: String, version: UInt64) -> String { path + marker + String(version) }

    /// Copies the file whole to `copyPath(for:version:)` (unless a copy of that version exists:
    /// an earlier open made it and died before erasing), durably: written and synced under a
    /// temporary name, then given its name (`StagedFile`). Throws if the copy cannot be made (a
    /// full disk): then nothing may be erased.
    static func keep(_ file: DatabaseFile, path: String, version: UInt64) throws {
        let destination = copyPath(for: path, version: version)
        if FileManager.default.fileExists(atPath: destination) { return }
        do {
            try StagedFile.create(destination, what: "keeping a set-aside commit") { temporary in
                try copyWhole(file, path: path, to: temporary)
            }
        } catch RealmError.io(let failedPath, let operation, let code, let message) {
            throw RealmError.io(
                path: failedPath, operation: operation, errno: code,
                message: message
                    + "; a commit that could not be verified must be copied aside before anything is written on top of it (open the file read-only to read it)"
            )
        }
    }

    /// Writes every byte of `file` (ciphertext for an encrypted one) to a new file at
    /// `destination` and syncs it.
    private static func copyWhole(_ file: DatabaseFile, path: String, to destination: String) throws {
        let output = SystemCalls.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw RealmError.posix(path: destination, operation: "create", errno: errno) }
        defer { close(output) }
        var info = stat()
        guard SystemCalls.fstat(file.fd, &info, path: path) == 0 else {
            throw RealmError.posix(path: path, operation: "fstat", errno: errno)
        }
        let size = Int(info.st_size)
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < size {
            let wanted = min(chunk, size - offset)
            let read = SystemCalls.preadFully(file.fd, buffer, wanted, off_t(offset), path: path)
            guard read == wanted else {
                throw RealmError.posix(path: path, operation: "read", errno: read < 0 ? errno : EIO)
            }
            var written = 0
            while written < read {
                let count = SystemCalls.pwrite(
                    output, buffer + written, read - written, off_t(offset + written), path: destination)
                guard count > 0 else {
                    throw RealmError.posix(path: destination, operation: "write", errno: count < 0 ? errno : EIO)
                }
                written += count
            }
            offset += read
        }
        guard SystemCalls.fsync(output, path: destination) == 0 else {
            throw RealmError.posix(path: destination, operation: "fsync", errno: errno)
        }
    }

    /// The copies kept beside the file at `path` (canonical), oldest version first.
    static func copies(of path: String) -> [SetAsideCopy] {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + marker
        let folder = url.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> SetAsideCopy? in
            guard name.hasPrefix(prefix), let version = UInt64(name.dropFirst(prefix.count)) else { return nil }
            return SetAsideCopy(version: version, path: folder.appendingPathComponent(name).path)
        }.sorted { $0.version < $1.version }
    }
}

extension Realm {
    /// The set-aside commits whose bytes are kept beside this file (see `SetAsideCopy`).
    public var setAsideCopies: [SetAsideCopy] { SetAside.copies(of: path) }

    /// Deletes the copies of set-aside commits kept beside the file at `path` (after `recover`
    /// salvaged what they held, or when their data is not wanted). Returns what was deleted.
    @discardableResult
    public static func discardSetAside(path: String) throws -> [SetAsideCopy] {
        let copies = SetAside.copies(of: URL(fileURLWithPath: path).standardizedFileURL.path)
        for copy in copies { try FileManager.default.removeItem(atPath: copy.path) }
        return copies
    }
}
