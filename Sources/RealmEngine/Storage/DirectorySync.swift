import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Making a file's *name* durable. `fdatasync` on a file makes its bytes durable, not the
/// directory entry that names it: after a crash, a file just created (`create`, `writeCopy`)
/// or renamed into place (`compact`) may be missing, or the old file may be back, unless the
/// directory itself was synced after the change (the step SQLite takes with
/// `SQLITE_OPEN_DIRECTORY` / `unixSync` of the journal's directory).
enum PosixSync {
    /// Syncs the directory that holds `path`, after a file in it was created or renamed.
    /// File systems that cannot sync a directory (EINVAL, e.g. some network or FUSE mounts) are
    /// taken as having nothing to sync.
    static func syncDirectory(of path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try observer?(directory)
        let fd = SystemCalls.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw RealmError.posix(path: directory, operation: "open the directory to sync it", errno: errno) }
        defer { close(fd) }
        while SystemCalls.fsync(fd, path: directory) != 0 {
            let e = errno
            if e == EINTR { continue }
            if e == EINVAL { return }
            throw RealmError.posix(path: directory, operation: "sync the directory", errno: e)
        }
    }

    /// Set by tests: called with the directory before each sync; throwing makes the sync fail.
    static var observer: (@Sendable (String) throws -> Void)? {
        get {
            observerLock.lock()
            defer { observerLock.unlock() }
            return _observer
        }
        set {
            observerLock.lock()
            _observer = newValue
            observerLock.unlock()
        }
    }
    nonisolated(unsafe) private static var _observer: (@Sendable (String) throws -> Void)?
    private static let observerLock = NSLock()
}
