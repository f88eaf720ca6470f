import CShims
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kinds of system call the engine makes on its files, for `FaultPlan` to aim at.
enum SystemCall: String, CaseIterable, Sendable {
    case open, stat, fstat, pread, pwrite, fdatasync, fsync, ftruncate, mmap, munmap, rename
    /// `link(2)`: a finished copy gets its name without replacing a file (`StagedFile`).
    case link
    /// An OFD byte-range lock (`fcntl` F_OFD_SETLK/SETLKW) on the lock file, and its release.
    case lock, unlock
    /// A liveness test of another process's lock (`fcntl` F_OFD_GETLK).
    case lockTest
    /// `flock(2)` of an encrypted data file while its encryption header is read or written.
    case fileLock
    /// The notification channel: FUTEX_WAIT and FUTEX_WAKE on the lock file's change counter.
    case futexWait, futexWake

    /// The calls that move bytes, where a short transfer can be injected.
    static let transfers: Set<SystemCall> = [.pread, .pwrite]
    /// The calls a failing device or a full disk keeps failing: everything but releasing memory
    /// and locks (which do not touch the device) and the notification channel (a futex on
    /// shared memory).
    static let deviceCalls = Set(allCases).subtracting([.munmap, .unlock, .futexWait, .futexWake, .fileLock])
}

/// Every system call the engine makes on a database file, its lock file, its directory and its
/// notification channel goes through here, so that one place decides two things:
///
/// - **EINTR is retried**, always: a signal arriving during a call is never an error the user
///   sees. (Calls that return a count may also return short; that is the caller's business —
///   `preadFully` and `DatabaseFile.write` continue until done.)
/// - **Tests can inject failures** (`FaultPlan`): EIO, ENOSPC, EINTR or a short transfer at the
///   Nth call of chosen kinds on files under one folder, once or from then on. Without a plan
///   the cost is one uncontended lock per call, next to a system call.
///
/// The functions keep the POSIX conventions of the call they wrap (−1 and `errno`, or the errno
/// as the result for the lock and futex calls), so call sites read like the calls they replace.
enum SystemCalls {
    /// Runs `attempt` until it does not fail with EINTR; `failed` says whether a result failed.
    @inline(__always)
    private static func retryingInterrupts<T>(
        _ kind: SystemCall, _ path: String, failed: (T) -> Bool,
        failure: T, _ attempt: () -> T
    ) -> T {
        while true {
            if let code = FaultPlan.fault(kind, path: path) {
                errno = code
                if code == EINTR { continue }
                return failure
            }
            let result = attempt()
            if failed(result) && errno == EINTR { continue }
            return result
        }
    }

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o644) -> Int32 {
        retryingInterrupts(.open, path, failed: { $0 < 0 }, failure: -1) { Glibc.open(path, flags, mode) }
    }

    static func stat(_ path: String, _ info: inout stat) -> Int32 {
        retryingInterrupts(.stat, path, failed: { $0 != 0 }, failure: -1) { posixStat(path, &info) }
    }

    static func fstat(_ fd: Int32, _ info: inout stat, path: String) -> Int32 {
        retryingInterrupts(.fstat, path, failed: { $0 != 0 }, failure: -1) { Glibc.fstat(fd, &info) }
    }

    /// One `pread`; may return fewer bytes than asked (also by injection).
    static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t, path: String)
        -> Int
    {
        retryingInterrupts(.pread, path, failed: { $0 < 0 }, failure: -1) {
            Glibc.pread(fd, buffer, FaultPlan.transferLength(.pread, path: path, count), offset)
        }
    }

    /// Reads `count` bytes at `offset`, continuing after short reads; returns fewer only at the
    /// end of the file, or −1 with `errno`.
    static func preadFully(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t, path: String)
        -> Int
    {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, offset + off_t(done), path: path)
            if n < 0 { return -1 }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// One `pwrite`; may write fewer bytes than asked (also by injection): the caller continues.
    static func pwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t, path: String) -> Int {
        retryingInterrupts(.pwrite, path, failed: { $0 < 0 }, failure: -1) {
            Glibc.pwrite(fd, buffer, FaultPlan.transferLength(.pwrite, path: path, count), offset)
        }
    }

    static func fdatasync(_ fd: Int32, path: String) -> Int32 {
        retryingInterrupts(.fdatasync, path, failed: { $0 != 0 }, failure: -1) { Glibc.fdatasync(fd) }
    }

    static func fsync(_ fd: Int32, path: String) -> Int32 {
        retryingInterrupts(.fsync, path, failed: { $0 != 0 }, failure: -1) { Glibc.fsync(fd) }
    }

    static func ftruncate(_ fd: Int32, _ size: off_t, path: String) -> Int32 {
        retryingInterrupts(.ftruncate, path, failed: { $0 != 0 }, failure: -1) { Glibc.ftruncate(fd, size) }
    }

    /// `mmap` of `size` bytes of `fd` from offset 0, shared; nil (with `errno`) when it fails.
    static func mmap(_ size: Int, protection: Int32, _ fd: Int32, path: String) -> UnsafeMutableRawPointer? {
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        let mapped = retryingInterrupts(.mmap, path, failed: { $0 == failed }, failure: failed) {
            Glibc.mmap(nil, size, protection, MAP_SHARED, fd, 0)
        }
        return mapped == failed ? nil : mapped
    }

    /// `munmap`; a failure leaves only address space behind, so callers may ignore the result.
    @discardableResult
    static func munmap(_ address: UnsafeMutableRawPointer, _ size: Int, path: String) -> Int32 {
        retryingInterrupts(.munmap, path, failed: { $0 != 0 }, failure: -1) { Glibc.munmap(address, size) }
    }

    static func rename(_ from: String, _ to: String) -> Int32 {
        retryingInterrupts(.rename, to, failed: { $0 != 0 }, failure: -1) { Glibc.rename(from, to) }
    }

    static func link(_ from: String, _ to: String) -> Int32 {
        retryingInterrupts(.link, to, failed: { $0 != 0 }, failure: -1) { Glibc.link(from, to) }
    }

    /// Runs `attempt`, which returns 0 or an errno, until it does not return EINTR.
    @inline(__always)
    private static func retryingReturnedInterrupts(_ kind: SystemCall, _ path: String, _ attempt: () -> Int32) -> Int32
    {
        while true {
            let code = FaultPlan.fault(kind, path: path) ?? attempt()
            if code != EINTR { return code }
        }
    }

    /// An OFD lock on byte `start`: exclusive unless `shared`, waiting if `wait`. Returns 0 or
    /// the errno (EAGAIN/EACCES: held by someone else, when not waiting).
    static func lock(_ fd: Int32, byte start: Int, shared: Bool = false, wait: Bool, path: String) -> Int32 {
        retryingReturnedInterrupts(.lock, path) {
            shared ? rt_ofd_lock_shared(fd, start, wait ? 1 : 0) : rt_ofd_lock(fd, start, wait ? 1 : 0)
        }
    }

    /// Releases an OFD lock on byte `start`. Returns 0 or the errno.
    @discardableResult
    static func unlock(_ fd: Int32, byte start: Int, path: String) -> Int32 {
        retryingReturnedInterrupts(.unlock, path) { rt_ofd_unlock(fd, start) }
    }

    /// Releases every OFD lock of this description (before closing it: a mapping that outlives
    /// the close, after a failed `munmap`, would keep the description and its locks alive).
    @discardableResult
    static func unlockAll(_ fd: Int32, path: String) -> Int32 {
        retryingReturnedInterrupts(.unlock, path) { rt_ofd_unlock_all(fd) }
    }

    /// `flock(fd, operation)`, waiting (no LOCK_NB). Returns 0 or the errno.
    @discardableResult
    static func flock(_ fd: Int32, _ operation: Int32, path: String) -> Int32 {
        retryingReturnedInterrupts(.fileLock, path) { posixFlock(fd, operation) == 0 ? 0 : errno }
    }

    /// Tests byte `start` for a conflicting OFD lock: 1 held, 0 free, −errno on failure.
    static func testLock(_ fd: Int32, byte start: Int, path: String) -> Int32 {
        let code = retryingReturnedInterrupts(.lockTest, path) {
            let result = rt_ofd_test(fd, start)
            return result < 0 ? -result : (result == 0 ? 0 : -1)
        }
        return code == 0 ? 0 : (code == -1 ? 1 : -code)
    }

    /// FUTEX_WAIT on a word shared between processes. Returns 0 or the errno (EAGAIN: the word
    /// changed; ETIMEDOUT; EINTR is returned too, since the caller re-reads the word anyway).
    static func futexWait(
        _ word: UnsafeMutablePointer<UInt32>, expected: UInt32, timeoutMilliseconds: Int32, path: String
    ) -> Int32 {
        if let code = FaultPlan.fault(.futexWait, path: path) { return code }
        return rt_futex_wait(word, expected, timeoutMilliseconds)
    }

    /// FUTEX_WAKE of every waiter on a shared word. Returns 0 or the errno.
    @discardableResult
    static func futexWake(_ word: UnsafeMutablePointer<UInt32>, path: String) -> Int32 {
        retryingReturnedInterrupts(.futexWake, path) { rt_futex_wake_all(word) }
    }
}

/// `stat(2)`, outside `SystemCalls` where the name means the wrapper (and `Glibc.stat` the struct).
private func posixStat(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }

/// `flock(2)`, outside `SystemCalls` where the name means the wrapper (and `Glibc.flock` the struct).
private func posixFlock(_ fd: Int32, _ operation: Int32) -> Int32 {
    flock(fd, operation)
}
