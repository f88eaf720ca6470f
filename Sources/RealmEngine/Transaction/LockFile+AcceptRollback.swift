import Glibc

extension LockFile {
    /// Forgets what the last session's lock file says about the database file — its latest
    /// version, a rollback it reported, the durable slot — so that the next opener takes the
    /// file's newest version as current (`Realm.acceptRollback`). Only when no process has the
    /// database open: the lock file's words are theirs while they do. No lock file: nothing to do.
    static func forgetPreviousSession(path: String) throws {
        guard access(path, F_OK) == 0 else { return }
        let fd = try openAndLockInit(path: path)
        defer {
            SystemCalls.unlockAll(fd, path: path)
            close(fd)
        }
        switch SystemCalls.lock(fd, byte: Layout.openLockByte, wait: false, path: path) {
        case 0: break
        case EAGAIN, EACCES:
            throw RealmError.busy("\(path): the Realm is open in another process; close it there first")
        case let code:
            throw RealmError.posix(path: path, operation: "test the open byte (fcntl F_OFD_SETLK)", errno: code)
        }
        // An empty lock file reads as "no previous session" (`previousSession`); the next opener
        // writes a fresh one.
        guard SystemCalls.ftruncate(fd, 0, path: path) == 0 else {
            throw RealmError.posix(path: path, operation: "ftruncate lock file", errno: errno)
        }
    }
}
