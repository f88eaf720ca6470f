#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex with one condition variable, for the few places that must block a thread of
/// this process (the in-process half of the writer lock). Cross-process state never lives here:
/// that is the lock file's mapping and its OFD locks.
final class PosixCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a signal; the mutex must be held and is held again on return (spurious wake-ups
    /// happen: always wait in a loop over the predicate).
    func wait() { pthread_cond_wait(condition, mutex) }
    func signal() { pthread_cond_signal(condition) }
    /// Waits for a signal at most until `deadline` (CLOCK_REALTIME); false when it passed.
    func wait(until deadline: timespec) -> Bool {
        var until = deadline
        return pthread_cond_timedwait(condition, mutex, &until) == 0
    }
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Runs `body` with the mutex held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The text of an errno value, for `RealmError.io`'s message.
func posixMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
}

extension RealmError {
    /// An `.io` error for a failed system call, with the errno's text as message.
    static func posix(path: String, operation: String, errno code: Int32) -> RealmError {
        .io(path: path, operation: operation, errno: code, message: posixMessage(code))
    }
}
