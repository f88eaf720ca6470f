#if canImport(Glibc)
    import Glibc
#endif

/// How many database and lock files this process has open (descriptor and mapping held), and
/// a condition signalled as each one closes: `Realm.waitUntilFilesAreClosed` waits on it.
/// Counted at the end of a successful open and after the close in `deinit`, so "none open"
/// means every descriptor is really closed.
enum OpenFiles {
    private static let condition = PosixCondition()
    nonisolated(unsafe) private static var count = 0

    static func opened() {
        condition.withLock { count += 1 }
    }

    static func closed() {
        condition.withLock {
            count -= 1
            condition.broadcast()
        }
    }

    static func waitUntilNone(timeout: Duration) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = timeout.components
        var deadline = timespec(
            tv_sec: now.tv_sec + Int(seconds), tv_nsec: now.tv_nsec + Int(attoseconds / 1_000_000_000))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return condition.withLock {
            while count > 0 {
                if !condition.wait(until: deadline) { return count == 0 }
            }
            return true
        }
    }
}
