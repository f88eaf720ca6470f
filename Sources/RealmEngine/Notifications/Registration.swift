import Foundation

/// One observer: what it watches, what it last delivered, and what the notifier computed for
/// it since.
///
/// Two threads touch a registration. The notifier thread reads `base` and writes `pending`
/// (under `stateLock`); the delivering context (the Realm's thread, or the observer's queue)
/// takes `pending`, calls the callback and moves `base` forward. `callbackLock` is held around
/// each callback and by `invalidate`, so once `invalidate` returns no callback runs again; it is
/// recursive, so a callback may invalidate its own token.
///
/// Timeline (P = last delivered, N = newest):
///
///     writer     ── commit N-1 ── commit N ────────────────────────────────
///     notifier   ─────── wake ─ compute P→N-1 ─ wake ─ compute P→N (replaces) ─
///     Realm thr. ──────────────────────────────────────── deliver P→N, base = N ─
final class Registration: @unchecked Sendable {
    enum Kind {
        case collection(QueryDescription)
        case object(classIndex: Int, key: ObjectKey)
        case realm
    }

    /// What one computation found.
    enum Change {
        case initial
        case collection(CollectionChangeSet)
        /// Delivery only: a collection's result did not change between the last delivered
        /// version and the new one. The user's block is not called, but the callback gets the
        /// keys at the new version, so the observed results hold them: otherwise the next read
        /// of the results (which still hold the old version's keys) re-runs the whole query.
        case unchanged
        case object([PropertyChange])
        case deleted
        case realmChanged
        case none
        case error(Error)
    }

    /// The last delivered state.
    struct Base {
        var version: UInt64
        var pin: PinnedVersion?
        /// A collection's keys at `version`; nil until a computation needs them, which then
        /// runs the query at `held` (`observeFromCurrentVersion` registers without running it).
        var keys: [ObjectKey]?
        /// The version `version` as the change computation reads it (old values, the old
        /// result): the pinned snapshot, or a version kept alive by other means.
        var held: (any ReadableVersion)?

        /// `held` defaults to the pinned snapshot.
        init(version: UInt64, pin: PinnedVersion?, keys: [ObjectKey]?, held: (any ReadableVersion)? = nil) {
            self.version = version
            self.pin = pin
            self.keys = keys
            self.held = held ?? pin?.snapshot
        }
    }

    /// A computed, not yet delivered change from `baseVersion` to `target`.
    struct Pending {
        var baseVersion: UInt64?
        var target: PinnedVersion
        var keys: [ObjectKey]
        var change: Change
    }

    let kind: Kind
    /// The Realm's schema when registered (for dependencies).
    let dependencies: Set<Int>
    /// Holds the hub (and through it, for queue delivery, the queue's Realm) until invalidated.
    /// Under `stateLock`: the notifier thread reads it to schedule a delivery while `invalidate`
    /// clears it on the observer's thread (ThreadSanitizer found the race; reading a class
    /// reference while another thread releases it can retain a freed object).
    var hub: NotificationHub? {
        get { stateLock.withLock { _hub } }
        set { stateLock.withLock { _hub = newValue } }
    }
    private var _hub: NotificationHub?
    /// Runs on the delivering context with the computed change, the keys at the new version and
    /// the Realm instance that now shows that version.
    let callback: (Change, [ObjectKey], Realm) -> Void

    let callbackLock = NSRecursiveLock()
    private(set) var invalidated = false
    let stateLock = NSLock()
    var base: Base?
    var pending: Pending?
    /// After an error or a deletion nothing more is delivered.
    var finished = false
    /// Set by the notifier when it could not pin the newest version to compute at: delivered
    /// as `.error` by the hub (`deliver(failure:realm:)`), the registration's last call.
    var failure: Error?
    /// False for a registration with no way to hear an error (`Realm.observe(_:)`, autorefresh):
    /// a newest version that cannot be pinned does not end it, and the notifier tries again at
    /// the next commit (which no longer reaches a damaged top node of the one before).
    var reportsErrors = true
    /// Whether change sets of collections may be computed from the change record
    /// (`IncrementalResults`) rather than by re-running the query (tests turn it off to compare).
    var incrementalEnabled = true
    /// How many times a computation re-ran the whole query (under `stateLock`; for tests).
    var fullEvaluations = 0

    init(kind: Kind, schema: Schema, callback: @escaping (Change, [ObjectKey], Realm) -> Void) {
        self.kind = kind
        if case .collection(let spec) = kind {
            dependencies = spec.dependencies(schema: schema)
        } else {
            dependencies = []
        }
        self.callback = callback
    }

    /// Ends the registration; after this returns the callback is not called again.
    ///
    /// A callback running on another context is waited for, unless this thread holds the
    /// file's write lock: that callback may be waiting for it (a queue observer that writes),
    /// and waiting for each other would never end. It then finishes, and none starts after.
    func invalidate() {
        // Order: callback, state. `deliver` checks `invalidated` (under `stateLock`) once it
        // holds `callbackLock`, so a callback that had not started then never does.
        let waited: Bool
        if callbackLock.try() {
            waited = true
        } else if hub?.shared.lock.writerHeldByCurrentThread == true {
            waited = false
        } else {
            callbackLock.lock()
            waited = true
        }
        stateLock.withLock { invalidated = true }
        if waited { callbackLock.unlock() }
        let hub = stateLock.withLock {
            pending = nil
            base = nil
            defer { _hub = nil }
            return _hub
        }
        hub?.remove(self)
    }

    /// The version the next computation would start from, or nil for the first one.
    var baseVersion: UInt64? { stateLock.withLock { base?.version } }

    /// Whether the notifier should compute for `latest`.
    func needsComputation(latest: UInt64) -> Bool {
        stateLock.withLock {
            if invalidated || finished || failure != nil { return false }
            let known = max(base?.version ?? 0, pending?.target.version ?? 0)
            return (base == nil && pending == nil) || known < latest
        }
    }

    // MARK: Computing (any thread)

    /// Tests: runs on the notifier thread between a computation and storing its result.
    var didCompute: (() -> Void)?

    /// Computes the change from the last delivered state to `target` and keeps it as the
    /// pending change (the notifier thread).
    ///
    /// A delivery may move the base while this computes (it delivered an older pending change,
    /// or computed one itself); the result is then stale and is computed again from the new
    /// base. Dropping it instead lost the newest commit for good: the delivery that follows
    /// finds its Realm at the base and nothing pending, and the notifier sleeps until the next
    /// commit. Each retry starts from a newer base, and no base passes `target` without the
    /// loop ending (`needsComputation`), so it ends.
    func computePending(at target: PinnedVersion) {
        while needsComputation(latest: target.version) {
            let base = stateLock.withLock { self.base }
            let (change, keys) = compute(from: base, to: target.snapshot)
            didCompute?()
            let stored = stateLock.withLock {
                guard self.base?.version == base?.version else { return false }
                pending = .init(baseVersion: base?.version, target: target, keys: keys, change: change)
                return true
            }
            if stored { return }
        }
    }

    /// The change from `base` (nil: first computation) to `snapshot`, and the keys there.
    ///
    /// Reads both versions through `ReadableVersion`: queries run specialised for the version's
    /// own type (`evaluate`, `matches`), and the change records are a capability
    /// (`changeRecords`): without them every object counts as possibly changed and the query
    /// runs again, its result compared with the old one.
    func compute(from base: Base?, to snapshot: any ReadableVersion) -> (Change, [ObjectKey]) {
        do {
            switch kind {
            case .realm:
                return (base == nil || base!.version == snapshot.version ? .none : .realmChanged, [])
            case .collection(let spec):
                guard let base else {
                    return (.initial, try snapshot.evaluate(spec, missingOwnerIsEmpty: true))
                }
                if base.version == snapshot.version {
                    return (.none, try base.keys ?? snapshot.evaluate(spec, missingOwnerIsEmpty: true))
                }
                let baseKeys = try keys(of: base, spec: spec)
                let summary = ChangeSummary.between(base.version, and: snapshot)
                let rerun = summary.map { s in dependencies.contains(where: s.touched) } ?? true
                let modified = summary?.modifiedObjects(classIndex: spec.classIndex, in: snapshot)
                if !rerun {
                    // Only modifications: found by binary search when the keys are in a known order.
                    if incrementalEnabled, let modified, let old = base.held,
                        let indices = try IncrementalResults.modifications(
                            spec, keys: baseKeys, at: old, modified: modified)
                    {
                        return (.collection(CollectionChangeSet(modifications: indices)), baseKeys)
                    }
                    return (
                        .collection(CollectionDiff.compute(old: baseKeys, new: baseKeys, modified: modified)), baseKeys
                    )
                }
                if incrementalEnabled, let summary, let modified, let old = base.held,
                    !dependencies.contains(where: { $0 != spec.classIndex && summary.touched($0) }),
                    let update = try IncrementalResults.update(
                        spec, old: baseKeys, from: old, summary: summary,
                        modified: modified, in: snapshot)
                {
                    return (.collection(update.change), update.keys)
                }
                stateLock.withLock { fullEvaluations += 1 }
                let keys = try snapshot.evaluate(spec, missingOwnerIsEmpty: true)
                return (.collection(CollectionDiff.compute(old: baseKeys, new: keys, modified: modified)), keys)
            case .object(let c, let key):
                guard let base else { return (.none, []) }
                if base.version == snapshot.version { return (.none, []) }
                guard try snapshot.contains(classIndex: c, key: key) else { return (.deleted, []) }
                guard let old = base.held else { return (.none, []) }
                let summary = ChangeSummary.between(base.version, and: snapshot)
                let persisted = snapshot.persistedColumnCount(classIndex: c)
                let mask = summary.map { $0.classes[c]?.modified[key.rawValue] ?? 0 } ?? .max
                // A change inside an embedded object is a change of the property owning it.
                let inside = summary?.changedOwningColumns(classIndex: c, key: key, in: snapshot) ?? []
                guard mask != 0 || !inside.isEmpty else { return (.none, []) }
                let properties = snapshot.schema.objectSchemas[c].persistedProperties
                var changes: [PropertyChange] = []
                for column in 0..<persisted where ChangeRecorder.mask(mask, includes: column) || inside.contains(column)
                {
                    let before = try? old.value(classIndex: c, key: key, column: column)
                    let after = try snapshot.value(classIndex: c, key: key, column: column)
                    // Bitwise: a NaN written over the same NaN is no change.
                    if !Value.identical(before, after) || inside.contains(column) {
                        changes.append(PropertyChange(name: properties[column].name, oldValue: before, newValue: after))
                    }
                }
                return (changes.isEmpty ? .none : .object(changes), [])
            }
        } catch {
            return (.error(error), base?.keys ?? [])
        }
    }

    /// The keys of `base`: those delivered, else the query run at the version it pins (a base
    /// without keys always pins its version: `observeFromCurrentVersion` makes it so).
    private func keys(of base: Base, spec: QueryDescription) throws -> [ObjectKey] {
        if let keys = base.keys { return keys }
        guard let pinned = base.held else {
            throw RealmError.internalError(
                "internal error: an observed result has neither the keys it showed nor their version")
        }
        return try pinned.evaluate(spec, missingOwnerIsEmpty: true)
    }
}

/// One property of an observed object that changed, with its values before and after.
public struct PropertyChange: Sendable, Equatable {
    /// The property's name.
    public let name: String
    /// The value before the change (nil if it could not be read).
    public let oldValue: Value?
    /// The value after the change.
    public let newValue: Value?

    /// A change of `name` (the typed layer reports a projection's changes under its own names).
    public init(name: String, oldValue: Value?, newValue: Value?) {
        self.name = name
        self.oldValue = oldValue
        self.newValue = newValue
    }
}
