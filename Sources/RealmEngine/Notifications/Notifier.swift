import Foundation

/// The notifier thread of one file in this process (one per `SharedFile`).
///
/// It sleeps on the lock file's change counter (a futex word every commit of every process
/// bumps), so it costs no CPU while nothing happens. On each wake it pins the newest version,
/// computes every registration's change set from its last delivered state to that version on
/// this thread — re-running queries here, not on the observer's thread — stores the result as
/// the registration's pending change, replacing any older one (so commits that land before
/// delivery coalesce), and asks the registration's hub to deliver.
///
/// The thread runs while there are registrations; the last one leaving wakes it to exit, and
/// waits (briefly) until it has: the notifier holds the file open, and a file closed by its last
/// instance must be closed when that returns (an in-memory Realm's data ends, compaction on
/// the next open may run, `deleteFiles` removes a file nobody maps).
final class Notifier: @unchecked Sendable {
    // All mutable state is guarded by `lock`; the registry by `registryLock` (taken first).
    let shared: SharedFile
    private let lock = NSLock()
    private var registrations: [ObjectIdentifier: Registration] = [:]
    private var running = false

    nonisolated(unsafe) private static var registry: [ObjectIdentifier: Notifier] = [:]
    private static let registryLock = NSLock()

    private init(shared: SharedFile) { self.shared = shared }

    /// Adds a registration to the notifier of its file (starting the thread if needed) and makes
    /// the notifier compute for it at once.
    static func add(_ registration: Registration, shared: SharedFile) {
        registryLock.withLock {
            let id = ObjectIdentifier(shared)
            let notifier = registry[id] ?? Notifier(shared: shared)
            registry[id] = notifier
            notifier.lock.withLock {
                notifier.registrations[ObjectIdentifier(registration)] = registration
                if !notifier.running {
                    notifier.running = true
                    // Weak: once `run` returns nothing holds the notifier (and its file).
                    let thread = Thread { [weak notifier] in notifier?.run() }
                    thread.name = "realm-notifier"
                    thread.start()
                }
            }
        }
        shared.lock.wakeAll()
    }

    static func remove(_ registration: Registration, shared: SharedFile) {
        weak var stopping: Notifier?
        do {
            guard let notifier = registryLock.withLock({ registry[ObjectIdentifier(shared)] }) else { return }
            let empty = notifier.lock.withLock {
                notifier.registrations[ObjectIdentifier(registration)] = nil
                return notifier.registrations.isEmpty
            }
            guard empty else { return }
            if Thread.current.name != "realm-notifier" { stopping = notifier }
        }
        shared.lock.wakeAll()
        // Until the thread let go of the notifier, unless a new registration keeps it running;
        // bounded, in case it is in the middle of a long computation.
        let deadline = Date().addingTimeInterval(2)
        while let notifier = stopping, notifier.lock.withLock({ notifier.registrations.isEmpty }), Date() < deadline {
            usleep(100)
        }
    }

    /// Whether a notifier thread runs for this file (tests).
    static func isRunning(for shared: SharedFile) -> Bool {
        registryLock.withLock { registry[ObjectIdentifier(shared)].map { n in n.lock.withLock { n.running } } ?? false }
    }

    private func run() {
        while true {
            // Read the counter before working: a commit during the work makes the wait return.
            let seen = shared.lock.changeCounter
            let current: [Registration]? = Self.registryLock.withLock {
                lock.withLock {
                    if registrations.isEmpty {
                        running = false
                        if Self.registry[ObjectIdentifier(shared)] === self {
                            Self.registry[ObjectIdentifier(shared)] = nil
                        }
                        return nil
                    }
                    return Array(registrations.values)
                }
            }
            guard let current else { return }
            work(current)
            _ = shared.lock.waitForChange(since: seen, timeoutMilliseconds: -1)
        }
    }

    private func work(_ registrations: [Registration]) {
        let latest = shared.lock.latestVersion
        let due = registrations.filter { $0.needsComputation(latest: latest) }
        guard !due.isEmpty else { return }
        let target: PinnedVersion
        do {
            target = try PinnedVersion.newest(shared)
        } catch {
            // The newest version cannot be opened (a damaged top node) or pinned (every slot
            // taken). `pinNewest` left no slot claimed; each observer due hears why, on its own
            // context, instead of waiting for changes that would never be computed.
            for registration in due where registration.reportsErrors {
                registration.stateLock.withLock { registration.failure = error }
                registration.hub?.schedule()
            }
            return
        }
        for registration in due {
            registration.computePending(at: target)
            registration.hub?.schedule()
        }
    }
}
