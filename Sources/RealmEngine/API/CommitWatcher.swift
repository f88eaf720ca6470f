/// Waits, on any thread, for the next commit to a file by any process, without polling: it
/// sleeps on the lock file's change counter (a futex every commit bumps), as the notifier thread
/// does. The explorer uses one to wake its event loop, then refreshes its Realm on its own
/// thread.
///
/// ```
/// let watcher = CommitWatcher(realm)
/// var seen = watcher.counter
/// while running { seen = watcher.wait(since: seen, timeoutMilliseconds: 1000); wakeTheUI() }
/// ```
public final class CommitWatcher: @unchecked Sendable {
    // Only the shared file's lock-file mapping is touched, which is safe from any thread.
    private let shared: SharedFile

    /// A watcher of the file `realm` has open.
    public init(_ realm: Realm) {
        shared = realm.shared
    }

    /// The change counter now (compare with what `wait` returns).
    public var counter: UInt32 { shared.lock.changeCounter }

    /// Blocks until the counter differs from `seen` (a commit, or a wake of the file's waiters)
    /// or `timeoutMilliseconds` pass (negative: no limit); returns the counter.
    public func wait(since seen: UInt32, timeoutMilliseconds: Int32) -> UInt32 {
        shared.lock.waitForChange(since: seen, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Wakes every waiter on this file in every process (to stop a waiting thread).
    public func wakeAll() {
        shared.lock.wakeAll()
    }
}
