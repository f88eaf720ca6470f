import Foundation

// Change notifications as an `AsyncSequence`, for `for await` code.
//
// A task has no RunLoop to deliver on and may resume on any thread, so the observer is
// registered (on the observed value's thread, when `changes` is called) for delivery on a
// private serial queue, and each change is frozen there before it is handed over: what the loop
// receives is pinned to the version it describes and readable on whatever thread the loop runs.
//
// Invariants of `ChangeBuffer`: `pending`, `waiters` and `finished` change only under `lock`;
// at most one of `pending` and `waiters` is non-empty; once `finished`, nothing is added, and
// the loops drain what is pending, then end. Cancelling the iterating task, or releasing
// the sequence and its iterators, invalidates the notification token: no more callbacks, and
// the loop ends with nil.

/// The changes of a Realm collection or object, as an `AsyncSequence`: `for await change in
/// realm.objects(Dog.self).changes() { … }`.
///
/// Each element's collection or object is frozen at the version the change describes (see
/// `freeze()`), so it can be read wherever the loop runs; `thaw()` it to write. The sequence
/// starts observing when it is made (the first element is `.initial`), keeps every change in
/// order until a loop takes it (each holds its version pinned until then), and ends after an
/// `.error` or `.deleted`, or when an iterating task is cancelled. Meant for one loop; several
/// loops share the changes (each change goes to one of them).
public struct RealmChanges<Element>: AsyncSequence, Sendable {
    let buffer: ChangeBuffer<Element>

    /// The iterator of a `RealmChanges`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: ChangeBuffer<Element>

        /// The next change, waiting for it; nil once the sequence ended or the task was cancelled.
        public mutating func next() async -> Element? { await buffer.next() }

        /// `next()`, run in the caller's isolation (what `for await` calls).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? { await buffer.next() }
    }

    /// The iterator; every iterator of one sequence takes from the same changes.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(buffer: buffer) }
}

/// A value handed from the delivering queue to the loop. Sound because every value put in is
/// frozen (readable from any thread) or an error.
struct Handed<T>: @unchecked Sendable { let value: T }

/// The changes delivered and not yet taken, and the loop waiting for one (see the top of the file).
final class ChangeBuffer<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Element] = []
    private var waiters: [CheckedContinuation<Handed<Element>?, Never>] = []
    private var finished = false
    /// The registration; set once right after it is made, invalidated by `cancel` or `deinit`.
    var token: NotificationToken?
    /// The private queue the changes are delivered and frozen on.
    let queue = DispatchQueue(label: "RealmSwift.RealmChanges")

    /// Hands a change to a waiting loop (or keeps it for the next `next()`); with `last`, the
    /// sequence ends after it, and loops waiting beyond it get nil.
    func push(_ element: Element, last: Bool = false) {
        lock.lock()
        if finished {
            lock.unlock()
            return
        }
        var receiver: CheckedContinuation<Handed<Element>?, Never>?
        if waiters.isEmpty { pending.append(element) } else { receiver = waiters.removeFirst() }
        var ended: [CheckedContinuation<Handed<Element>?, Never>] = []
        if last {
            finished = true
            ended = waiters
            waiters = []
        }
        lock.unlock()
        receiver?.resume(returning: Handed(value: element))
        for waiter in ended { waiter.resume(returning: nil) }
    }

    /// The next change, waiting for one; nil when finished or cancelled.
    func next() async -> Element? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Handed<Element>?, Never>) in
                lock.lock()
                if !pending.isEmpty {
                    let element = pending.removeFirst()
                    lock.unlock()
                    continuation.resume(returning: Handed(value: element))
                } else if finished {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiters.append(continuation)
                    lock.unlock()
                }
            }?.value
        } onCancel: {
            cancel()
        }
    }

    /// Ends the sequence now: drops what is pending, wakes the loop with nil, ends the registration.
    func cancel() {
        lock.lock()
        finished = true
        pending.removeAll()
        let waiting = waiters
        waiters = []
        let token = self.token
        self.token = nil
        lock.unlock()
        for waiter in waiting { waiter.resume(returning: nil) }
        token?.invalidate()
    }

    deinit { token?.invalidate() }
}

extension RealmCollection {
    /// The collection's changes as an `AsyncSequence`: `.initial` with the objects when it was
    /// made, then an `.update` after each version that changed them (indices as in `observe`),
    /// each with the collection — the same kind: results, a list, linking objects — frozen at
    /// that version. With `keyPaths`, only changes to those key paths notify (see
    /// `observe(keyPaths:on:_:)`). A list whose object is deleted reports every element deleted,
    /// with the list invalidated, and then nothing more.
    ///
    /// ```swift
    /// for await change in realm.objects(Dog.self).changes() {
    ///     if case .update(let dogs, _, let insertions, _) = change { print(insertions.map { dogs[$0].name }) }
    /// }
    /// ```
    ///
    /// Call it on the collection's thread; the loop may run anywhere and ends when its task is
    /// cancelled.
    public func changes(keyPaths: [String]? = nil) -> RealmChanges<RealmCollectionChange<Self>> {
        let results = _rlmResults
        results.owner.verifyThread()
        let buffer = ChangeBuffer<RealmCollectionChange<Self>>()
        let configuration = results.owner.configuration
        let rebind = _rlmRebinder()
        func frozen(_ dynamic: RealmEngine.Results) throws -> Self {
            let realm = try dynamic.realm.freeze()
            return rebind(
                Results(dynamic.bound(to: realm), realm: Realm(wrapping: realm, configuration: configuration)))
        }
        let storedKeyPaths = keyPaths.map { MappedNames.paths($0, from: Element.self) }
        buffer.token = observeCollection(
            results.dynamicResults, keyPaths: storedKeyPaths, on: buffer.queue, make: { $0 }
        ) { [weak buffer] change in
            guard let buffer else { return }
            do {
                switch change {
                case .initial(let dynamic):
                    buffer.push(.initial(try frozen(dynamic)))
                case .update(let dynamic, let deletions, let insertions, let modifications):
                    buffer.push(
                        .update(
                            try frozen(dynamic), deletions: deletions, insertions: insertions,
                            modifications: modifications))
                case .error(let error):
                    buffer.push(.error(error), last: true)
                }
            } catch {
                buffer.push(.error(error), last: true)
            }
        }
        return RealmChanges(buffer: buffer)
    }
}

extension _ObjectObservable {
    /// The object's changes as an `AsyncSequence`: `.change` with the object frozen at the new
    /// version and the changed properties (old and new values), then `.deleted` when it is
    /// deleted, which ends the sequence. With `keyPaths`, only changes to those key paths
    /// notify: the object's own properties, or paths through links (`"owner.name"`,
    /// `"dogs.age"`, named in the change with their old and new values), as
    /// `observe(keyPaths:on:_:)` follows them. Call it on the object's thread; the loop may run
    /// anywhere and ends when its task is cancelled.
    ///
    /// ```swift
    /// for await change in dog.changes(keyPaths: ["age", "owner.name"]) {
    ///     if case .change(let dog, _) = change { print(dog.age, dog.owner?.name ?? "-") }
    /// }
    /// ```
    public func changes(keyPaths: [String]? = nil) -> RealmChanges<ObjectChange<Self>> {
        let buffer = ChangeBuffer<ObjectChange<Self>>()
        buffer.token = observe(keyPaths: keyPaths, on: buffer.queue) { [weak buffer] change in
            guard let buffer else { return }
            switch change {
            case .change(let object, let properties):
                do {
                    guard let accessor = object.accessor, let realm = object.realm else { return }
                    let frozenRealm = try realm.checkedFreeze()
                    guard let frozen = try accessor.bound(to: frozenRealm.dynamicRealm) else {
                        buffer.push(.deleted, last: true)
                        return
                    }
                    buffer.push(.change(Self._rlmMake(frozen, realm: frozenRealm), properties))
                } catch {
                    buffer.push(.error(error), last: true)
                }
            case .deleted:
                buffer.push(.deleted, last: true)
            case .error(let error):
                buffer.push(.error(error), last: true)
            }
        }
        return RealmChanges(buffer: buffer)
    }
}
