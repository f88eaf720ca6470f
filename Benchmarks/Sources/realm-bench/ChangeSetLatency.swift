import Foundation
import RealmEngine

/// `changeset_sorted` and `changeset_filter` (realmtui only; SQLite has no change notifications).
extension BenchEngine {
    func changeSetLatency(sorted: Bool, commits: Int) throws -> (seconds: Double, answer: String)? { nil }
}

/// What the observer's queue saw, read by the committing thread.
private final class Deliveries: @unchecked Sendable {
    let lock = NSLock()
    let signal = DispatchSemaphore(value: 0)
    var at: ContinuousClock.Instant?
    var changes: [String] = []
    var failure: String?
}

extension RealmSide {
    /// Observes every person sorted by name (or those with `age >= 10`, in key order) on a
    /// queue, then makes `commits` one-object commits — a rename that moves the person far in
    /// the sort, or an age that takes the person out of the filter — each timed from the start
    /// of the write until the observer has the change set. Returns the median and the change
    /// sets seen (deletions/insertions counts).
    func changeSetLatency(sorted: Bool, commits: Int) throws -> (seconds: Double, answer: String)? {
        let realm = try openedForObservation()
        let results = sorted ? try realm.objects("Person").sorted(byKeyPath: "name") : try realm.objects("Person").filter("age >= 10")
        let seen = Deliveries()
        let queue = DispatchQueue(label: "realm-bench.observer")
        let token = results.observe(on: queue) { change in
            let now = ContinuousClock.now
            seen.lock.withLock {
                switch change {
                case .initial: break
                case .update(_, let deletions, let insertions, let modifications):
                    seen.at = now
                    seen.changes.append("-\(deletions.count)+\(insertions.count)~\(modifications.count)")
                case .error(let e): seen.failure = "\(e)"
                }
            }
            seen.signal.signal()
        }
        defer { token.invalidate() }
        guard seen.signal.wait(timeout: .now() + 600) == .success else { throw BenchFailure("no initial notification") }
        // People in the result (an age set to 5 must take one out, or nothing is delivered).
        let people = try results.keys().sorted()
        var times: [Double] = []
        // The values changed, put back afterwards so the later tasks (delete_bulk counts people
        // by age) find the same data as the engines that do not run this task.
        var originals: [(ObjectKey, String, Value)] = []
        defer {
            try? realm.write {
                for (key, property, value) in originals.reversed() {
                    try realm.object(ofType: "Person", key: key)?.setValue(value, forKey: property)
                }
            }
        }
        for j in 0..<commits {
            let key = people[(j * 7919 + 13) % people.count]
            let start = ContinuousClock.now
            try realm.write {
                guard let person = try realm.object(ofType: "Person", key: key) else { return }
                let property = sorted ? "name" : "age"
                originals.append((key, property, try person.value(forKey: property)))
                if sorted {
                    try person.setValue(.string(j % 2 == 0 ? "ZZZ moved \(j)" : "AAA moved \(j)"), forKey: "name")
                } else {
                    try person.setValue(.int(5), forKey: "age")
                }
            }
            guard seen.signal.wait(timeout: .now() + 60) == .success else { throw BenchFailure("no change notification") }
            let (at, failure) = seen.lock.withLock { (seen.at, seen.failure) }
            if let failure { throw BenchFailure(failure) }
            guard let at else { throw BenchFailure("no change set") }
            let d = at - start
            times.append(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        let answer = seen.lock.withLock { seen.changes.joined(separator: " ") }
        return (median(times), answer)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
