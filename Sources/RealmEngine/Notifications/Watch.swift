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
        let file = lock.withLock { stopped = true; return lockFile }
        file?.wakeAll()
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { lock.withLock { stopped } }

    func attach(_ file: LockFile) { lock.withLock { lockFile = file } }
}

/// The core of `realmtui watch FILE CLASS [PREDICATE] [--sort …] [--count-events N]`: prints the
/// query's result as JSON lines — first
/// `{"event": "initial", "version": V, "count": N}`, then after each commit (of any process)
/// that changed the result,
/// `{"event": "update", "version": V, "count": N, "deletions": […], "insertions": […], "modifications": […]}`
/// (indices as in `RealmCollectionChange`, ascending). Returns after `maxEvents` updates (the
/// initial line is not counted), or when `control.stop()` is called.
///
/// Runs on the calling thread with no RunLoop: it sleeps on the lock file's change counter
/// (no CPU while idle) and delivers through `refresh()`.
public func watchLines(path: String, className: String, predicate: String, sort: [SortDescriptor], maxEvents: Int?,
                       control: WatchControl? = nil, emit: (String) -> Void) throws {
    let realm = try Realm(configuration: .file(path, readOnly: true))
    var results = try realm.objects(className)
    if !predicate.trimmingCharacters(in: .whitespaces).isEmpty { results = try results.filter(predicate) }
    if !sort.isEmpty { results = results.sorted(by: sort) }
    control?.attach(realm.shared.lock)
    var lines: [String] = []
    var updates = 0
    var failure: Error?
    let token = results.observe(on: nil, manual: true) { change in
        switch change {
        case .initial(let r):
            lines.append("{\"event\": \"initial\", \"version\": \(realm.version), \"count\": \(r.count)}")
        case .update(let r, let deletions, let insertions, let modifications):
            updates += 1
            func list(_ a: [Int]) -> String { "[" + a.map(String.init).joined(separator: ", ") + "]" }
            lines.append("{\"event\": \"update\", \"version\": \(realm.version), \"count\": \(r.count), \"deletions\": \(list(deletions)), "
                         + "\"insertions\": \(list(insertions)), \"modifications\": \(list(modifications))}")
        case .error(let error):
            failure = error
        }
    }
    defer { token.invalidate() }
    while true {
        let seen = realm.shared.lock.changeCounter
        realm.refresh()
        for line in lines { emit(line) }
        lines.removeAll()
        if let failure { throw failure }
        if let maxEvents, updates >= maxEvents { return }
        if control?.isStopped == true { return }
        // A timeout as a safety net only; commits and stop() wake the wait.
        _ = realm.shared.lock.waitForChange(since: seen, timeoutMilliseconds: 1000)
    }
}
