import Foundation
import RealmEngine

/// One write for the writer thread: data only (class names, keys, values), so it crosses threads.
enum WriteJob: Sendable {
    /// One change (`EditWrite`), or an undo.
    case write(EditWrite)
    /// The staged edits of a batch, with each touched object's values when it was staged.
    case batch(writes: [EditWrite], snapshots: [BatchSnapshot])
}

/// A staged object's values when it was first staged (a batch commit's conflict check).
struct BatchSnapshot: Sendable {
    var className: String
    var key: ObjectKey
    var values: [Value]
}

/// Runs the explorer's writes on a thread of their own, with a Realm instance of their own
/// (a `Realm` is confined to the thread that opened it), so the explorer's thread never waits
/// for the write lock nor for a long write.
///
///     UI thread:     submit(job) ─ keys, frames ─ poll() → [.waitingForLock] ─ Esc: cancel() ─ poll() → [.finished(.cancelled)]
///     writer thread:   tryBeginWrite ✗ … every 10 ms, cancel checked …  cancelled: nothing written ─ wake()
///
/// The thread takes one job at a time. While another writer holds the lock it retries every
/// 10 ms (no lock is held meanwhile); inside the transaction it reports progress every 1,000
/// objects and checks for a cancel, which then cancels the transaction (nothing written). Its
/// reports are queued for `poll()`, and `wake` (the session's self-pipe) is called on each
/// report that changes the screen, so the event loop picks them up at once.
///
/// The thread ends when the `EditWriter` is released (a running write is cancelled).
final class EditWriter {
    private let channel: WriterChannel

    /// A writer thread for the file `configuration` names (opened again on the thread).
    /// `beforeCommit` runs on the thread inside each transaction, before its commit (a Realm
    /// file written whole: `ExplorerDriver.beforeCommit`); what it throws cancels the transaction.
    init(
        configuration: Realm.Configuration, beforeCommit: (@Sendable (Realm) throws -> Void)? = nil,
        wake: @escaping @Sendable () -> Void
    ) {
        channel = WriterChannel(wake: wake)
        let channel = self.channel
        let thread = Thread {
            // The instance is released when `serve` returns, before the end is signalled, so
            // `close()` returning means the file is no longer held by this thread.
            Self.serve(channel, configuration: configuration, beforeCommit: beforeCommit)
            channel.threadEnded()
        }
        thread.name = "realmtui-writer"
        thread.start()
    }

    deinit { channel.stop() }

    /// The thread's loop: one instance of the file, one job at a time, until stopped.
    private static func serve(
        _ channel: WriterChannel, configuration: Realm.Configuration,
        beforeCommit: (@Sendable (Realm) throws -> Void)?
    ) {
        let realm: Realm
        do {
            realm = try Realm(configuration: configuration)
        } catch {
            // Every job is refused with the reason (the explorer stays usable to read).
            let reason = "the writer could not open the file: " + ExplorerText.describe(error)
            while channel.nextJob() != nil { channel.finish(.refused(reason)) }
            return
        }
        while let job = channel.nextJob() {
            let outcome = EditTransaction(realm: realm, channel: channel, beforeCommit: beforeCommit).run(job)
            // The pinned version is released, so the space of older versions can be reused.
            realm.invalidate()
            channel.finish(outcome)
        }
    }

    /// Stops the thread (a running write is cancelled: nothing written) and waits until it has
    /// ended and released its instance of the file (`:copy` leaves the original closed).
    func close() {
        channel.stop()
        channel.waitUntilThreadEnded()
    }

    /// Hands `job` to the thread. False (nothing done) while another job runs.
    func submit(_ job: WriteJob) -> Bool { channel.submit(job) }

    /// Asks the running job to stop: before the commit begins, nothing is written.
    func cancel() { channel.cancel() }

    /// The reports since the last poll, oldest first (progress reports coalesced).
    func poll() -> [WriteEvent] { channel.poll() }

    /// Blocks until the running job ends or waits for another writer's lock, or `limit` passes
    /// (nil: no limit). Returns at once when no job runs.
    func settle(limit: Duration?) { channel.settle(limit: limit) }

    /// Whether a job runs.
    var isBusy: Bool { channel.isBusy }
}

/// What the UI thread and the writer thread share, guarded by one condition.
final class WriterChannel: @unchecked Sendable {
    // Every stored property below is read and written under `condition` only.
    private let condition = NSCondition()
    private var job: WriteJob?
    private var running = false
    private var cancelled = false
    private var waitingForLock = false
    private var stopped = false
    private var ended = false
    private var reports: [WriteEvent] = []
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func submit(_ job: WriteJob) -> Bool {
        condition.withLock {
            guard !running, !stopped else { return false }
            self.job = job
            running = true
            cancelled = false
            waitingForLock = false
            condition.broadcast()
            return true
        }
    }

    func cancel() {
        condition.withLock {
            guard running else { return }
            cancelled = true
            condition.broadcast()
        }
    }

    func stop() {
        condition.withLock {
            stopped = true
            cancelled = true
            condition.broadcast()
        }
    }

    /// Blocks until the writer thread has returned from its loop.
    func waitUntilThreadEnded() {
        condition.withLock {
            while !ended { condition.wait() }
        }
    }

    /// The writer thread's last call: its instance of the file is released.
    func threadEnded() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    func poll() -> [WriteEvent] {
        condition.withLock {
            defer { reports.removeAll() }
            return reports
        }
    }

    var isBusy: Bool { condition.withLock { running } }

    func settle(limit: Duration?) {
        let deadline = limit.map {
            Date().addingTimeInterval(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
        }
        condition.withLock {
            while running && !(waitingForLock && !cancelled) {
                if let deadline {
                    guard condition.wait(until: deadline) else { return }
                } else {
                    condition.wait()
                }
            }
        }
    }

    // MARK: The writer thread's side

    /// The next job; nil once stopped.
    func nextJob() -> WriteJob? {
        condition.withLock {
            while job == nil && !stopped { condition.wait() }
            guard !stopped, let next = job else { return nil }
            job = nil
            return next
        }
    }

    /// Whether the running job was asked to stop.
    var isCancelled: Bool { condition.withLock { cancelled } }

    /// Another writer holds the lock: reported once a job, then waits up to 10 ms (a cancel
    /// ends the wait early). Returns whether the job was cancelled.
    func waitForLock() -> Bool {
        let isFirst = condition.withLock {
            let isFirst = !waitingForLock
            if isFirst {
                waitingForLock = true
                reports.append(.waitingForLock)
                condition.broadcast()
            }
            if !cancelled { _ = condition.wait(until: Date().addingTimeInterval(0.010)) }
            return isFirst
        }
        if isFirst { wake() }
        return isCancelled
    }

    /// The transaction is open: `done` of `total` objects written. Returns whether the job was
    /// cancelled.
    func progress(done: Int, total: Int) -> Bool {
        condition.withLock {
            waitingForLock = false
            if case .progress? = reports.last { reports.removeLast() }
            reports.append(.progress(done: done, total: total))
            return cancelled
        }
    }

    /// The job ended.
    func finish(_ outcome: WriteOutcome) {
        condition.withLock {
            reports.append(.finished(outcome))
            running = false
            waitingForLock = false
            condition.broadcast()
        }
        wake()
    }
}
