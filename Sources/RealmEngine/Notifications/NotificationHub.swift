import Foundation

/// Delivers the registrations of one delivering context: a Realm instance's thread (through its
/// RunLoop), a dispatch queue (through a Realm instance confined to that queue, opened when
/// registering, or the observed instance itself when it is confined to that queue), an actor,
/// or nobody (`manual`: only `refresh()` delivers, for `watchLines`).
///
/// Delivery moves the Realm to the newest version the notifier computed for (exactly that
/// version, so the precomputed change sets and keys apply), then for each registration uses the
/// pending change if it was computed from the registration's last delivered state to this
/// version, and otherwise computes it here (the Realm got ahead of the notifier by a local
/// commit or an explicit refresh). Every callback of one delivery sees the same version.
///
/// Why queue delivery has its own Realm: a serial queue may run successive blocks on different
/// threads, so an instance confined to one thread cannot be handed to the block; an instance
/// confined to the queue (`Realm(configuration:queue:)`, checked with a queue-specific key) can,
/// and the collection or object passed to the callback is bound to it.
final class NotificationHub: @unchecked Sendable {
    enum Target {
        case runLoop(RunLoop)
        case queue(DispatchQueue)
        /// An instance confined to an actor (`Realm(configuration:confinedTo:)`): delivered by a
        /// task isolated to it.
        case actor(any Actor)
        case manual
    }

    let target: Target
    let shared: SharedFile
    /// RunLoop, actor and manual hubs, and a queue-confined instance's own: the observed
    /// instance (which owns the hub).
    private weak var ownerRealm: Realm?
    /// Queue hubs: the queue's own instance, used only on the queue (opened when registering).
    private let queueRealm: Realm?

    private let lock = NSLock()
    private var registrations: [Registration] = []
    private var scheduled = false
    /// RunLoop hubs: the one timer that asks the RunLoop for deliveries, added on the first
    /// and re-armed for each later one.
    private var timer: Timer?
    /// Delivering context only.
    private var delivering = false

    /// The hub of a Realm instance (created on first use; delivers on the current RunLoop).
    static func hub(for realm: Realm, manual: Bool = false) -> NotificationHub {
        if let hub = realm.notificationHub { return hub }
        let target: Target =
            manual
            ? .manual
            : realm.confinementActor.map { .actor($0) } ?? realm.confinementQueue.map { .queue($0) }
                ?? .runLoop(RunLoop.current)
        let hub = NotificationHub(target: target, realm: realm)
        realm.notificationHub = hub
        realm.didAdvance.append { [weak hub] _, _ in hub?.realmAdvanced() }
        return hub
    }

    deinit { timer?.invalidate() }

    /// A hub delivering for `realm`; a queue hub delivers through `queueRealm`, an instance of
    /// the same file confined to its queue.
    init(target: Target, realm: Realm, queueRealm: Realm? = nil) {
        self.target = target
        shared = realm.shared
        self.queueRealm = queueRealm
        // A queue hub delivers through its own instance; a queue-confined instance's own hub
        // (no `queueRealm`) through that instance, on its queue.
        if case .queue = target, queueRealm != nil { ownerRealm = nil } else { ownerRealm = realm }
    }

    func add(_ registration: Registration) {
        registration.hub = self
        lock.withLock { registrations.append(registration) }
        if case .manual = target { return }
        Notifier.add(registration, shared: shared)
    }

    func remove(_ registration: Registration) {
        lock.withLock { registrations.removeAll { $0 === registration } }
        Notifier.remove(registration, shared: shared)
    }

    var isEmpty: Bool { lock.withLock { registrations.isEmpty } }

    /// Asks for a delivery on the hub's context (at most one outstanding).
    func schedule() {
        let go = lock.withLock {
            if scheduled || registrations.isEmpty { return false }
            if case .manual = target { return false }
            scheduled = true
            return true
        }
        guard go else { return }
        switch target {
        case .runLoop(let runLoop):
            // A timer due now, not `perform`: on Linux `RunLoop.perform` does not wake a
            // sleeping RunLoop (the block waits for the next unrelated event), a timer does.
            // One timer per hub, re-armed (a far-off repeat keeps it on the RunLoop between
            // deliveries): a new timer per delivery stayed on a RunLoop that never runs (a CLI,
            // the explorer, which delivers by `refresh()`), even invalidated, one per commit.
            // Weak: on such a thread the timer never fires, and a strong capture would keep the
            // hub, and through it the file, open for good.
            let (hubTimer, isNew): (Timer, Bool) = lock.withLock {
                if let existing = self.timer { return (existing, false) }
                let made = Timer(fire: Date(), interval: 1e9, repeats: true) { [weak self] _ in self?.deliver() }
                self.timer = made
                return (made, true)
            }
            if isNew {
                runLoop.add(hubTimer, forMode: .common)
            } else {
                hubTimer.fireDate = Date()
            }
        case .queue(let queue): queue.async { self.deliver() }
        case .actor(let actor):
            weak let hub = self
            Task { await Self.run(on: actor) { hub?.deliver() } }
        case .manual: break
        }
    }

    private func realmAdvanced() {
        if !delivering { schedule() }
    }

    /// Runs `body` isolated to `actor` (where an actor-confined instance may be used).
    static func run(on actor: isolated any Actor, _ body: @Sendable () -> Void) { body() }

    /// Delivers now, on the calling context (`refresh()`).
    func deliverNow() { deliver() }

    /// The timer that asks the RunLoop for deliveries, once one was asked for (tests).
    var deliveryTimer: Timer? { lock.withLock { timer } }

    private func deliveringRealm() -> Realm? {
        switch target {
        case .runLoop, .manual, .actor:
            return ownerRealm
        case .queue:
            return queueRealm ?? ownerRealm
        }
    }

    func deliver() {
        lock.withLock { scheduled = false }
        guard !delivering, let realm = deliveringRealm(), (try? realm.checkThread()) != nil, !realm.isInWriteTransaction
        else { return }
        delivering = true
        defer { delivering = false }
        let current = lock.withLock { registrations }
        guard !current.isEmpty else { return }
        for r in current {
            if let failure = r.stateLock.withLock({ r.failure }) { r.deliver(failure: failure, realm: realm) }
        }
        var newest: PinnedVersion?
        for r in current {
            if let p = r.stateLock.withLock({ r.pending?.target }), p.version > (newest?.version ?? 0) { newest = p }
        }
        if let newest, newest.version > realm.version { realm.advance(toHeld: newest.snapshot) }
        let snapshot: Snapshot
        do {
            snapshot = try realm.snapshot
        } catch {
            // Invalidated, and the newest version cannot be opened: nothing to compute at, so
            // each observer hears why (and, as after any error, nothing more).
            for r in current { r.deliver(failure: error, realm: realm) }
            return
        }
        var here: PinnedVersion? = newest?.version == snapshot.version ? newest : nil
        let shared = self.shared
        for r in current {
            // A callback that wrote or refreshed moved the Realm on: the rest get the change to
            // where it is now, in a delivery of their own (their results then hold that
            // version's keys, not this one's).
            guard realm.version == snapshot.version else {
                delivering = false
                schedule()
                return
            }
            r.deliver(at: snapshot, realm: realm) {
                if let here { return here }
                let pin = try PinnedVersion.holding(snapshot, in: shared)
                here = pin
                return pin
            }
        }
    }
}

extension Registration {
    /// Delivers `error` as the registration's last call: a version it would be computed at
    /// cannot be read.
    func deliver(failure error: Error, realm: Realm) {
        callbackLock.lock()
        defer { callbackLock.unlock() }
        guard reportsErrors, !stateLock.withLock({ invalidated }), !finished else { return }
        let keys = stateLock.withLock {
            finished = true
            pending = nil
            return base?.keys ?? []
        }
        callback(.error(error), keys, realm)
    }

    /// Delivers the change from the last delivered state to `snapshot` (the Realm's version).
    func deliver(at snapshot: any ReadableVersion, realm: Realm, pin: () throws -> PinnedVersion) {
        callbackLock.lock()
        defer { callbackLock.unlock() }
        guard !stateLock.withLock({ invalidated }), !finished else { return }
        let (base, pending) = stateLock.withLock { (self.base, self.pending) }
        let version = snapshot.version
        if let base, base.version == version {
            stateLock.withLock { if let p = self.pending, p.target.version <= version { self.pending = nil } }
            return
        }
        let change: Change
        let keys: [ObjectKey]
        var target: PinnedVersion?
        if let pending, pending.target.version == version, pending.baseVersion == base?.version {
            (change, keys, target) = (pending.change, pending.keys, pending.target)
        } else {
            (change, keys) = compute(from: base, to: snapshot)
            if case .realm = kind {} else { target = try? pin() }
        }
        stateLock.withLock {
            self.base = Base(version: version, pin: target, keys: keys)
            if let p = self.pending, p.target.version <= version { self.pending = nil }
        }
        let unchanged: Bool
        switch change {
        case .none: unchanged = true
        case .collection(let set): unchanged = set.isEmpty
        default: unchanged = false
        }
        if unchanged {
            // Nothing to report, but a collection's keys at the new version are known: the
            // results take them (a commit that only added objects outside a filter must not
            // leave the results to re-run the query on their next read).
            if case .collection = kind { callback(.unchanged, keys, realm) }
            return
        }
        switch change {
        case .error, .deleted: stateLock.withLock { finished = true }  // read under stateLock too
        default: break
        }
        callback(change, keys, realm)
    }
}
