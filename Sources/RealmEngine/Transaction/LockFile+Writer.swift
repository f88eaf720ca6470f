#if canImport(Glibc)
    import Glibc
#endif
import CShims

/// The writer lock and the open locks (see the essay in LockFile.swift).
extension LockFile {
    /// Takes the write lock, waiting for other threads of this process and for other processes
    /// (and other `LockFile` instances on the same path). The kernel releases it if the process
    /// dies.
    ///
    /// Timeline with two processes A and B:
    ///
    ///     A: lockWriter ─ write ─ fdatasync ─ publish ─ unlockWriter
    ///     B:        lockWriter ········ (blocked in F_OFD_SETLKW) ········ ─ acquired
    func lockWriter() throws {
        writerGate.lock()
        while writerHeld { writerGate.wait() }
        writerHeld = true
        writerThread = pthread_self()
        writerGate.unlock()
        guard fd >= 0 else { return }
        let result = SystemCalls.lock(fd, byte: Layout.writerLockByte, wait: true, path: path)
        if result != 0 {
            releaseWriterGate()
            throw RealmError.posix(path: path, operation: "lock the writer byte (fcntl F_OFD_SETLKW)", errno: result)
        }
    }

    /// Takes the write lock if it is free right now; returns false if a thread of this process or
    /// another process holds it.
    func tryLockWriter() throws -> Bool {
        let gotGate = writerGate.withLock {
            if writerHeld { return false }
            writerHeld = true
            writerThread = pthread_self()
            return true
        }
        guard gotGate else { return false }
        guard fd >= 0 else { return true }
        switch SystemCalls.lock(fd, byte: Layout.writerLockByte, wait: false, path: path) {
        case 0:
            return true
        case EAGAIN, EACCES:
            releaseWriterGate()
            return false
        case let code:
            releaseWriterGate()
            throw RealmError.posix(path: path, operation: "lock the writer byte (fcntl F_OFD_SETLK)", errno: code)
        }
    }

    /// Releases the write lock taken by `lockWriter` or a successful `tryLockWriter`.
    func unlockWriter() {
        // The OFD lock first: once the gate opens, another thread of this process may take the
        // OFD lock on the same description, and an unlock after that would release its lock.
        // A release that fails is tried again: kept, the byte would block every other process's
        // writer until this one closes the file (threads of this process share the description,
        // which its own lock does not block).
        if fd >= 0 && SystemCalls.unlock(fd, byte: Layout.writerLockByte, path: path) != 0 {
            SystemCalls.unlock(fd, byte: Layout.writerLockByte, path: path)
        }
        releaseWriterGate()
    }

    /// Whether the calling thread holds the writer lock (through any instance of this process).
    var writerHeldByCurrentThread: Bool {
        writerGate.withLock { writerHeld && writerThread.map { pthread_equal($0, pthread_self()) != 0 } == true }
    }

    private func releaseWriterGate() {
        writerGate.withLock {
            assert(writerHeld, "unlockWriter without the write lock")
            writerHeld = false
            writerThread = nil
            writerGate.signal()
        }
    }

    // MARK: Open locks

    /// Keeps the shared open lock. Every `LockFile(path:)` already takes it when it opens; calling
    /// this again is harmless, and after a successful `tryExclusiveOpen` it downgrades the
    /// exclusive lock back to shared so other processes can open the Realm again.
    ///
    /// - Throws: `.busy` if another process holds the open lock exclusively.
    func holdSharedOpenLock() throws {
        guard fd >= 0 else { return }
        switch SystemCalls.lock(fd, byte: Layout.openLockByte, shared: true, wait: false, path: path) {
        case 0: return
        case EAGAIN, EACCES:
            throw RealmError.busy("\(path): the Realm is open exclusively by another process (compaction?)")
        case let code:
            throw RealmError.posix(path: path, operation: "lock the open byte (fcntl F_OFD_SETLK)", errno: code)
        }
    }

    /// Without waiting, converts this instance's shared open lock to an exclusive one. Returns
    /// true only if no other open file description (another process, or another `LockFile` on
    /// this path in this process) has the Realm open; new openers then fail with `.busy` until
    /// `holdSharedOpenLock()` downgrades again or this instance is released. Returns false and
    /// keeps the shared lock otherwise. Always true for an in-memory lock file.
    func tryExclusiveOpen() throws -> Bool {
        guard fd >= 0 else { return true }
        switch SystemCalls.lock(fd, byte: Layout.openLockByte, wait: false, path: path) {
        case 0: return true
        case EAGAIN, EACCES: return false
        case let code:
            throw RealmError.posix(
                path: path, operation: "lock the open byte exclusively (fcntl F_OFD_SETLK)", errno: code)
        }
    }
}
