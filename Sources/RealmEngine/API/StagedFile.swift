import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new database file written under a temporary name in its destination's folder and given the
/// destination's name only when it is complete and durable (`writeCopy`, `recover`; `compact`
/// writes its copy under such a name too).
///
/// Why: a copy written in place and killed half-way left a file at the destination that opened
/// as a sound, empty database (the copy commits its empty start first), and a rerun refused
/// because the destination existed. Now, at every moment of a kill, the destination either does
/// not exist or holds the whole copy.
///
/// The temporary name is `.<destination name>.partial-<pid>-<n>`: hidden, in the same folder (a
/// rename or link does not cross file systems), and never shared between writers. One that a
/// killed process left behind is removed by the next write to the same destination once no
/// process with that pid is alive; while one is (the writer, or a process that reused its pid),
/// it is left alone and ignored.
enum StagedFile {
    private static let counter = Counter()

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        func take() -> Int {
            lock.withLock {
                next += 1
                return next
            }
        }
    }

    /// The prefix of every temporary name for `destination`.
    private static func prefix(for destination: String) -> String {
        "." + (destination as NSString).lastPathComponent + ".partial-"
    }

    /// A fresh temporary path beside `destination`, unique in this process and among processes.
    static func temporaryPath(for destination: String) -> String {
        let folder = (destination as NSString).deletingLastPathComponent
        let name = prefix(for: destination) + "\(getpid())-\(counter.take())"
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    /// Removes the temporary files (and their lock files) a killed writer to `destination` left:
    /// those whose pid is not alive. Best effort: what cannot be removed stays, ignored.
    static func removeStale(for destination: String) {
        let folder = (destination as NSString).deletingLastPathComponent
        let prefix = prefix(for: destination)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else {
            return
        }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0, pid != getpid(),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(
                atPath: folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name))
        }
    }

    /// Runs `write` with a temporary path beside `destination`, then gives the file it wrote
    /// (complete and synced: `write` returns only then) the destination's name, failing if
    /// something else took that name meanwhile. Whatever fails, the temporary files are removed
    /// and the destination is untouched.
    ///
    /// - Throws: `invalidInput` if `destination` exists (before or after the write), and every
    ///   error of `write` or of publishing the file.
    static func create<T>(_ destination: String, what: String, _ write: (_ temporary: String) throws -> T) throws -> T {
        if FileManager.default.fileExists(atPath: destination) {
            throw RealmError.invalidInput("\(destination) already exists; \(what) does not overwrite files")
        }
        removeStale(for: destination)
        let temporary = temporaryPath(for: destination)
        do {
            let result = try write(temporary)
            try publish(temporary, as: destination, what: what)
            return result
        } catch {
            try? Realm.deleteFiles(for: temporary)
            throw error
        }
    }

    /// Gives `temporary` the name `destination` without replacing a file that has it: `link`
    /// fails with EEXIST where `rename` would replace. Then drops the temporary name and its lock
    /// file, and syncs the folder so that the new name survives a crash.
    private static func publish(_ temporary: String, as destination: String, what: String) throws {
        if SystemCalls.link(temporary, destination) != 0 {
            let code = errno
            if code == EEXIST {
                throw RealmError.invalidInput("\(destination) already exists; \(what) does not overwrite files")
            }
            // A file system without hard links: rename, after one more look for the name.
            guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(code),
                !FileManager.default.fileExists(atPath: destination)
            else {
                throw RealmError.posix(path: destination, operation: "link the finished copy", errno: code)
            }
            if SystemCalls.rename(temporary, destination) != 0 { throw DatabaseFile.ioError(destination, "rename") }
        } else {
            _ = unlink(temporary)
        }
        try? FileManager.default.removeItem(atPath: LockFile.path(forRealmAt: temporary))
        do {
            try PosixSync.syncDirectory(of: destination)
        } catch {
            // The name is ours (the link made it): a write that fails leaves nothing behind.
            _ = unlink(destination)
            throw error
        }
    }
}
