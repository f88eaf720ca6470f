import Foundation
import RealmEngine

/// The id `beginAsyncWrite`, `commitAsyncWrite` and `writeAsync` return, for
/// `cancelAsyncWrite` (RealmSwift's `AsyncTransactionId`).
public typealias AsyncTransactionId = UInt32

/// The asynchronous transactions of one Realm: blocks queued in call order, run one at a time on
/// the Realm's thread when its RunLoop turns.
///
/// RealmSwift takes the write lock and does the commit's I/O on a background thread; here the
/// lock is taken and the commit made on the Realm's own thread when the queued block runs, and
/// every completion is called later, on the same thread, in order. What a program sees is the
/// same: `beginAsyncWrite` returns at once, blocks run in the order queued (also when queued
/// from inside another one), a block that returns without committing is cancelled, and a
/// cancelled id never runs.
final class AsyncWriteQueue {
    enum Step {
        /// Runs the block inside a write transaction (`beginAsyncWrite`).
        case begin(() -> Void)
        /// Calls a commit's completion (`commitAsyncWrite`).
        case complete(() -> Void)
    }

    private var steps: [(id: AsyncTransactionId, step: Step)] = []
    private var lastId: AsyncTransactionId = 0
    /// A block or completion is running now.
    private(set) var isRunning = false
    /// A turn of the RunLoop is asked for and has not come yet.
    private var isScheduled = false

    var isBusy: Bool { isRunning || !steps.isEmpty }

    func enqueue(_ step: Step, on realm: Realm) -> AsyncTransactionId {
        lastId &+= 1
        if lastId == 0 { lastId = 1 }
        steps.append((lastId, step))
        schedule(realm)
        return lastId
    }

    /// Drops the queued step `id`; false when it already ran or is running.
    @discardableResult
    func cancel(_ id: AsyncTransactionId) -> Bool {
        guard let index = steps.firstIndex(where: { $0.id == id }) else { return false }
        steps.remove(at: index)
        return true
    }

    /// Asks the current RunLoop to run the next step: a timer due now, since on Linux
    /// `RunLoop.perform` does not wake a sleeping RunLoop. The Realm is held weakly: a Realm
    /// closed with work queued drops it, as RealmSwift's does on invalidation.
    private func schedule(_ realm: Realm) {
        guard !isScheduled else { return }
        isScheduled = true
        let target = OnThisThread(queue: self, realm: realm)
        let timer = Timer(timeInterval: 0, repeats: false) { _ in
            guard let queue = target.queue else { return }
            queue.isScheduled = false
            guard let realm = target.realm else { return }
            queue.runNext(realm)
        }
        RunLoop.current.add(timer, forMode: .default)
    }

    /// What the timer reaches, weakly. Unchecked: the timer fires on the RunLoop of the thread
    /// that added it, the Realm's own, so neither object crosses threads.
    private struct OnThisThread: @unchecked Sendable {
        weak var queue: AsyncWriteQueue?
        weak var realm: Realm?
    }

    private func runNext(_ realm: Realm) {
        guard !isRunning, !steps.isEmpty else { return }
        // A synchronous write transaction is open (a `beginWrite` not yet committed): the
        // asynchronous one waits for it, as it would wait for the write lock.
        if realm.isInWriteTransaction {
            schedule(realm)
            return
        }
        let (_, step) = steps.removeFirst()
        isRunning = true
        switch step {
        case .begin(let block):
            realm.beginWrite()
            block()
            // Returning without committing (or cancelling) cancels, as in RealmSwift.
            if realm.isInWriteTransaction { realm.cancelWrite() }
        case .complete(let completion):
            completion()
        }
        isRunning = false
        if !steps.isEmpty { schedule(realm) }
    }
}

extension Realm {
    /// Opens the Realm at `fileURL` with the default configuration's other settings.
    public convenience init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    /// Runs `block` in a write transaction later, on this thread when its RunLoop turns, and
    /// commits it (unless the block committed or cancelled itself); `onComplete` then gets the
    /// commit's error or nil, on this thread. Returns an id for `cancelAsyncWrite`, which drops
    /// the transaction if it has not started.
    @discardableResult
    public func writeAsync(_ block: @escaping () -> Void, onComplete: ((Swift.Error?) -> Void)? = nil)
        -> AsyncTransactionId
    {
        beginAsyncWrite { [unowned self] in
            block()
            if self.isInWriteTransaction {
                self.commitAsyncWrite(onComplete)
            } else if let onComplete {
                // The block committed (or cancelled) itself: the completion still comes, later.
                _ = self.asyncWrites.enqueue(.complete({ onComplete(nil) }), on: self)
            }
        }
    }

    /// Queues `asyncWriteBlock` to run inside a write transaction on this thread, after every
    /// asynchronous transaction queued before it. The block should end with `commitAsyncWrite`
    /// or `commitWrite`; returning without either cancels the transaction. Allowed inside a
    /// write transaction (the block runs after it).
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        asyncWrites.enqueue(.begin(asyncWriteBlock), on: self)
    }

    /// Commits the open write transaction (begun with `beginWrite` or `beginAsyncWrite`) and
    /// calls `onComplete` later on this thread with the commit's error, or nil. The commit is
    /// durable when this returns; `allowGrouping` is accepted for RealmSwift's sake (each
    /// commit is made durable on its own). The id cancels the completion, not the commit.
    @discardableResult
    public func commitAsyncWrite(allowGrouping: Bool = false, _ onComplete: ((Swift.Error?) -> Void)? = nil)
        -> AsyncTransactionId
    {
        var failure: Swift.Error?
        do { try commitWrite() } catch { failure = error }
        return asyncWrites.enqueue(.complete({ onComplete?(failure) }), on: self)
    }

    /// Drops a queued asynchronous transaction (an id from `beginAsyncWrite` or `writeAsync`)
    /// or a queued completion (an id from `commitAsyncWrite`; the commit itself stays). An id
    /// that already ran, or is running, is ignored.
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        asyncWrites.cancel(asyncTransactionId)
    }

    /// Whether asynchronous transactions or completions are queued or running.
    public var isPerformingAsynchronousWriteOperations: Bool { asyncWrites.isBusy }

    /// `write(_:)` for a Realm confined to an actor: runs `block` in a write transaction and
    /// commits it, returning the block's value; throws (and rolls back) as `write` does.
    @discardableResult
    public func asyncWrite<Result>(
        _isolation actor: isolated any Actor = #isolation,
        _ block: () throws -> Result
    ) async throws -> Result {
        try write(block)
    }

    /// Moves to the newest version, as `refresh()`; returns whether it changed.
    @discardableResult
    public func asyncRefresh(_isolation actor: isolated any Actor = #isolation) async -> Bool { refresh() }
}
