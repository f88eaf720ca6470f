#if canImport(Glibc)
    import Glibc
#endif
import CShims

/// Publishing versions and the cross-process change signal (a futex word in the mapping).
extension LockFile {
    /// The change counter: bumped by every `publish` and `wakeAll`. Wraps around at 2^32.
    var changeCounter: UInt32 { rt_atomic_load32(counterPointer) }

    /// Makes `version` the newest (call after the commit is durable, with the write lock held),
    /// then bumps the change counter and wakes every waiter in every process.
    /// Never moves the version backwards: a reader that found a newer slot in the file (after a
    /// writer died between its durable slot write and its publish) may publish it too.
    func publish(version: UInt64) {
        while true {
            let current = rt_atomic_load64(latestPointer)
            if current >= version { break }
            if rt_atomic_cas64(latestPointer, current, version) != 0 { break }
        }
        wakeAll()
    }

    /// Bumps the change counter and wakes every waiter (also used to stop notifier threads).
    func wakeAll() {
        _ = rt_atomic_add32(counterPointer, 1)
        // A wake that fails is tried again: waiters with no timeout would otherwise sleep
        // through this change until the next one.
        if SystemCalls.futexWake(counterPointer, path: path) != 0 {
            SystemCalls.futexWake(counterPointer, path: path)
        }
    }

    /// Blocks until the change counter differs from `seen` or `timeoutMilliseconds` pass (a
    /// negative timeout waits forever), and returns the counter, which equals `seen` only on
    /// timeout. Uses no CPU while it waits.
    func waitForChange(since seen: UInt32, timeoutMilliseconds: Int32) -> UInt32 {
        let clock = ContinuousClock()
        let deadline = timeoutMilliseconds < 0 ? nil : clock.now.advanced(by: .milliseconds(timeoutMilliseconds))
        while true {
            let current = rt_atomic_load32(counterPointer)
            if current != seen { return current }
            var remaining: Int32 = -1
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return current }
                let (seconds, attoseconds) = left.components
                let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                remaining = Int32(clamping: max(1, milliseconds))
            }
            // Returns at once (EAGAIN) if the counter moved since the load above.
            switch SystemCalls.futexWait(counterPointer, expected: seen, timeoutMilliseconds: remaining, path: path) {
            case 0, EAGAIN, ETIMEDOUT, EINTR:
                break
            default:
                // The wait itself failed: poll every millisecond rather than spin on the error.
                usleep(1000)
            }
        }
    }
}
