import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on Realm's lock file `x.realm.lock`, held while realmtui edits the
/// Realm file `x.realm`.
///
/// Every Realm process holds a `flock` on that file while it has the Realm open (Realm Core's
/// `DB::open` takes it exclusively to initialise the lock file, then keeps a shared one), so
/// while this lock is held no Realm app has the file open, and one that starts opening it waits
/// in `DB::open` until the lock is released, as it would for another Realm process.
///
/// The lock file is created when absent (as Realm creates it: an empty file the first opener
/// fills) and never truncated or written: its content belongs to Realm.
public final class RealmCoreEditLock: @unchecked Sendable {
    /// The Realm file the lock is for.
    public let path: String
    // Written once in `init`, and set to -1 by `release()` under `lock`.
    private var fd: Int32
    private let lock = NSLock()

    /// Takes the lock without waiting. Throws `RealmError.busy` naming the file when a Realm
    /// process has it open (the `flock` is held by another), `RealmError.io` when the lock file
    /// cannot be opened or created.
    public init(path: String) throws {
        self.path = path
        let lockPath = path + ".lock"
        // O_NOFOLLOW: a link planted at the lock file's name is not followed into another file.
        var fd = lockOpen(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if fd < 0 && (errno == EACCES || errno == EROFS) {
            // An existing lock file we may not write: flock needs only a descriptor.
            fd = lockOpen(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        }
        guard fd >= 0 else {
            let code = errno
            throw RealmError.io(
                path: lockPath, operation: "open Realm's lock file", errno: code,
                message: String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = lockClose(fd)
            throw RealmError.io(
                path: lockPath, operation: "open Realm's lock file", errno: EINVAL, message: "it is not a regular file")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            _ = lockClose(fd)
            if code == EWOULDBLOCK || code == EAGAIN { throw Self.busy(path) }
            throw RealmError.io(
                path: lockPath, operation: "flock Realm's lock file", errno: code,
                message: String(cString: strerror(code)))
        }
        self.fd = fd
    }

    deinit { release() }

    /// Whether the lock is still held (`release()` not called).
    public var isHeld: Bool { lock.withLock { fd >= 0 } }

    /// Lets go of the lock (a Realm app waiting for it goes on). Idempotent.
    public func release() {
        lock.withLock {
            guard fd >= 0 else { return }
            _ = flock(fd, LOCK_UN)
            _ = lockClose(fd)
            fd = -1
        }
    }

    /// The refusal when a Realm process holds the lock.
    public static func busy(_ path: String) -> RealmError {
        .busy(
            "\(path) is open in a Realm process (an app holds its lock file \((path as NSString).lastPathComponent).lock): "
                + "realmtui changes a Realm file only while no Realm process has it open; close the app and try again")
    }
}

// File-scope wrappers: inside the type `open`/`close` would name its own members.
private func lockOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func lockClose(_ fd: Int32) -> Int32 { close(fd) }
