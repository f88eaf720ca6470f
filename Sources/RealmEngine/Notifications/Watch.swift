import Foundation

/// Stops a running `watchLines` from another thread (a signal handler's dispatch source, say).
public final class WatchControl: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var stopped = false
    private var lockFile: LockFile?

    public init() {}

    /// Makes `watchLines` return promptly (it is woken if it waits for a commit).
    public func stop() {
        let file = lock.withLock {
            stopped = true
            return lockFile
        }
        file?.wakeAll()
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { lock.withLock { stopped } }

    func attach(_ file: LockFile) { lock.withLock { lockFile = file } }
}

/// The core of `realmtui watch FILE CLASS [PREDICATE] [--arg V]… [--sort …] [--distinct …]
/// [--limit N] [--count-events N]`: prints the query's result as JSON lines — first
/// `{"event": "initial", "version": V, "count": N}`, then after each commit (of any process)
/// that changed the result,
/// `{"event": "update", "version": V, "count": N, "deletions": […], "insertions": […], "modifications": […],
/// "deleted": […], "inserted": […], "modified": […]}`: indices as in `RealmCollectionChange`
/// (ascending), then the same objects by identity — the primary key, or for a class without
/// one the object key as `{"key": K}`. Returns after `maxEvents` updates (the initial line is
/// not counted), or when `control.stop()` is called. Throws when a newer version cannot be read
/// (its top node damaged): a watch that stopped moving must not look like one with nothing to say.
///
/// Runs on the calling thread with no RunLoop: it sleeps on the lock file's change counter
/// (no CPU while idle) and delivers through `checkedRefresh()`.
public func watchLines(
    path: String, className: String, predicate: String, arguments: [Value] = [],
    sort: [SortDescriptor], distinct: [String] = [], limit: Int? = nil, maxEvents: Int?,
    encryptionKey: Data? = nil, control: WatchControl? = nil, emit: (String) -> Void
) throws {
    let realm = try Realm(
        configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, encryptionKey: encryptionKey))
    var results = try realm.objects(className)
    if !predicate.trimmingCharacters(in: .whitespaces).isEmpty {
        results = try results.filter(predicate, arguments: arguments)
    }
    if !sort.isEmpty { results = try results.sorted(by: sort) }
    if !distinct.isEmpty { results = try results.distinct(by: distinct) }
    if let limit { results = results.limit(limit) }
    control?.attach(realm.shared.lock)
    let identities = WatchIdentities(realm: realm, className: className)
    var lines: [String] = []
    var updates = 0
    var failure: Error?
    let token = results.observe(on: nil, manual: true) { change in
        switch change {
        case .initial(let r):
            identities.remember(r)
            lines.append("{\"event\": \"initial\", \"version\": \(realm.version), \"count\": \(r.count)}")
        case .update(let r, let deletions, let insertions, let modifications):
            updates += 1
            func list(_ a: [Int]) -> String { "[" + a.map(String.init).joined(separator: ", ") + "]" }
            identities.remember(r)
            lines.append(
                "{\"event\": \"update\", \"version\": \(realm.version), \"count\": \(r.count), \"deletions\": \(list(deletions)), "
                    + "\"insertions\": \(list(insertions)), \"modifications\": \(list(modifications)), "
                    + "\"deleted\": \(identities.old(deletions)), \"inserted\": \(identities.new(insertions)), "
                    + "\"modified\": \(identities.old(modifications))}")
            identities.forgetGone()
        case .error(let error):
            failure = error
        }
    }
    defer { token.invalidate() }
    while true {
        let seen = realm.shared.lock.changeCounter
        try realm.checkedRefresh()
        for line in lines { emit(line) }
        lines.removeAll()
        if let failure { throw failure }
        if let maxEvents, updates >= maxEvents { return }
        if control?.isStopped == true { return }
        // A timeout as a safety net only; commits and stop() wake the wait.
        _ = realm.shared.lock.waitForChange(since: seen, timeoutMilliseconds: 1000)
    }
}

/// The identities (primary key as JSON, or `{"key": K}`) of a watched result's objects, by
/// position, before and after the latest change. A deleted object can no longer be read, so
/// each object's identity is kept from when it entered the result.
private final class WatchIdentities {
    private let realm: Realm
    private let className: String
    private let primaryKey: Property?
    private var known: [ObjectKey: String] = [:]
    private var previous: [ObjectKey] = []
    private var current: [ObjectKey] = []

    init(realm: Realm, className: String) {
        self.realm = realm
        self.className = className
        primaryKey = realm.schema[className]?.primaryKeyProperty
    }

    /// Takes the result's keys after a change (reading identities of new objects only).
    func remember(_ results: Results) {
        previous = current
        current = (try? results.keys()) ?? []
        var live: [ObjectKey: String] = [:]
        live.reserveCapacity(current.count)
        for key in current { live[key] = known[key] ?? identity(key) }
        known.merge(live) { _, new in new }
    }

    /// Drops the identities of objects no longer in the result (after they were reported).
    func forgetGone() {
        if known.count > current.count {
            let live = Set(current)
            known = known.filter { live.contains($0.key) }
        }
    }

    /// Identities at `positions` of the result before the latest change (deletions and
    /// modifications are positions there).
    func old(_ positions: [Int]) -> String { list(positions, previous) }

    /// Identities at `positions` of the result after the latest change (insertions).
    func new(_ positions: [Int]) -> String { list(positions, current) }

    private func list(_ positions: [Int], _ keys: [ObjectKey]) -> String {
        "[" + positions.map { $0 < keys.count ? (known[keys[$0]] ?? "null") : "null" }.joined(separator: ", ") + "]"
    }

    private func identity(_ key: ObjectKey) -> String {
        guard let pk = primaryKey else { return "{\"key\": \(key.rawValue)}" }
        guard let value = try? realm.object(ofType: className, key: key)?.value(forKey: pk.name),
            let json = JSONExport.plainJSON(value)
        else { return "null" }
        return json.jsonText()
    }
}
