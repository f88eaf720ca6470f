import Foundation
@testable import RealmEngine

/// Runs this thread's RunLoop for `seconds`: a window for a delivery that must not come (or
/// may come: what follows holds either way). Never a wait for an event, which is
/// `pumpRunLoop(until:)` (TestSupport), with no deadline: a deadline failed correct tests on a
/// loaded machine.
func runRunLoop(for seconds: Double) {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end { _ = RunLoop.current.run(mode: .default, before: min(end, Date().addingTimeInterval(0.005))) }
}

/// Waits until the notifier thread has computed `token`'s change up to `version` (or delivered
/// it): the event a "let the notifier compute" sleep stood for. No deadline.
func waitUntilComputed(_ token: NotificationToken, upTo version: UInt64) {
    guard let registration = token.registration else { return }
    while registration.stateLock.withLock({
        max(registration.pending?.target.version ?? 0, registration.base?.version ?? 0)
    }) < version {
        usleep(1000)
    }
}

/// Every persisted value of every object of one version, for brute-force comparisons.
struct Dump {
    var objects: [Int: [ObjectKey: [Value]]] = [:]
    let schema: Schema

    init(_ realm: Realm) throws {
        let snap = try realm.readView
        schema = snap.schema
        for c in schema.objectSchemas.indices {
            let persisted = snap.layout.tables[c].persistedCount
            var rows: [ObjectKey: [Value]] = [:]
            for k in try snap.keys(classIndex: c) {
                rows[k] = Array(try snap.row(classIndex: c, key: k)!.prefix(persisted))
            }
            objects[c] = rows
        }
    }

    /// Objects this one links to (to-one and list elements).
    func links(_ c: Int, _ k: ObjectKey) -> [(Int, ObjectKey)] {
        guard let row = objects[c]?[k] else { return [] }
        var out: [(Int, ObjectKey)] = []
        for (i, p) in schema.objectSchemas[c].persistedProperties.enumerated() where p.type == .object {
            guard let target = schema.objectSchemas.firstIndex(where: { $0.name == p.objectClassName }) else {
                continue
            }
            switch row[i] {
            case .link(let t): out.append((target, t))
            case .list(let items): for case .link(let t) in items { out.append((target, t)) }
            default: break
            }
        }
        return out
    }

    /// Whether the object's values, or those of an object it reaches within `depth` links
    /// (in this, the newer dump), differ from `old`.
    func changed(_ c: Int, _ k: ObjectKey, since old: Dump, depth: Int = 4) -> Bool {
        guard let now = objects[c]?[k] else { return false }
        guard let before = old.objects[c]?[k] else { return true }
        if now != before { return true }
        if depth == 0 { return false }
        return links(c, k).contains { changed($0.0, $0.1, since: old, depth: depth - 1) }
    }
}

/// Applies a change set to the old keys: deletions high to low, then insertions low to high.
func apply(deletions: [Int], insertions: [Int], to old: [ObjectKey], new: [ObjectKey]) -> [ObjectKey]? {
    var keys = old
    for d in deletions.reversed() {
        guard keys.indices.contains(d) else { return nil }
        keys.remove(at: d)
    }
    for i in insertions {
        guard i <= keys.count, new.indices.contains(i) else { return nil }
        keys.insert(new[i], at: i)
    }
    return keys
}
