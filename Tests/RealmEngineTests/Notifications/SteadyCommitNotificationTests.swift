import Foundation
import Testing
@testable import RealmEngine

/// A sorted, filtered result observed while another instance of the file, on another thread,
/// makes one-object commits (the explorer's live tables): every commit is handled from its
/// change record, and the observed results hold the keys of the new version afterwards, also
/// when the commit did not change them (an object that does not match the filter). Before,
/// such a commit delivered nothing, so the results kept the keys of the old version and the
/// next read re-ran the whole query (the explorer's 260 ms refreshes after ~50 commits).
@Suite(.serialized) struct SteadyCommitNotificationTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "name", type: .string),
                Property(name: "age", type: .int),
            ])
    ])

    static func makeFile(_ objects: Int) throws -> (config: Realm.Configuration, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steady-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let config = Realm.Configuration(fileURL: dir.appendingPathComponent("people.realm"), schema: schema)
        let realm = try Realm(configuration: config)
        try realm.write {
            for i in 0..<objects {
                _ = try realm.create(
                    "Person", ["name": .string("p\((i * 7919) % objects)"), "age": .int(Int64(i % 100))])
            }
        }
        return (config, dir)
    }

    /// Makes `count` one-object commits from its own instance on its own thread, one at a time:
    /// each waits until `proceed` is signalled (after the observer refreshed).
    final class Committer: @unchecked Sendable {
        let config: Realm.Configuration
        let committed = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let lock = NSLock()
        var failure: String?
        init(config: Realm.Configuration) { self.config = config }

        func run(count: Int) {
            do {
                let realm = try Realm(configuration: config)
                for i in 0..<count {
                    _ = realm.refresh()
                    try realm.write {
                        _ = try realm.create("Person", ["name": .string("Live \(i)"), "age": .int(Int64(i % 100))])
                    }
                    committed.signal()
                    proceed.wait()  // no deadline: a loaded machine refreshes late
                }
            } catch {
                lock.withLock { failure = "\(error)" }
                committed.signal()
            }
        }
    }

    /// Runs the commits, refreshing `observed` after each; checks after each refresh that the
    /// results hold the keys of the new version without a re-run, and at the end that they equal
    /// a fresh evaluation.
    static func drive(
        _ observed: Realm, _ results: Results, registration: Registration, config: Realm.Configuration,
        commits: Int, updates: () -> Int
    ) throws {
        let committer = Committer(config: config)
        let thread = Thread { committer.run(count: commits) }
        thread.start()
        var unprimed: [UInt64] = []
        for _ in 0..<commits {
            committer.committed.wait()
            if let failure = committer.lock.withLock({ committer.failure }) {
                Issue.record("\(failure)")
                return
            }
            observed.refresh()
            if try results.cache == nil || results.cacheStamp != (observed.readView.version, observed.mutationCount) {
                unprimed.append(observed.version)
            }
            committer.proceed.signal()
        }
        #expect(registration.stateLock.withLock { registration.fullEvaluations } == 0)
        #expect(
            unprimed.isEmpty, "results not holding the keys of versions \(unprimed.prefix(10))… (\(unprimed.count))")
        // Half the commits add an object that matches `age < 50`.
        #expect(updates() == commits / 2)
        let fresh = try results.query.evaluate(in: observed.readView)
        #expect(try results.keys() == fresh)
        #expect(fresh.count == 10_000 + commits / 2)
    }

    @Test func observeFromCurrentVersionUnderOneObjectCommits() throws {
        let (config, dir) = try Self.makeFile(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let observed = try Realm(configuration: config)
        let results = try observed.objects("Person").filter("age < 50").sorted(byKeyPath: "name")
        var shown = try results.keys()
        var updates = 0
        var failures: [String] = []
        let token = try results.observeFromCurrentVersion { change in
            guard case .update(let r, let deletions, let insertions, _) = change else {
                failures.append("\(change)")
                return
            }
            updates += 1
            let new = (try? r.keys()) ?? []
            if apply(deletions: deletions, insertions: insertions, to: shown, new: new) != new {
                failures.append("bad change set")
            }
            shown = new
        }
        defer { token.invalidate() }
        let registration = try #require(
            Mirror(reflecting: token).children.first { $0.label == "registration" }?.value as? Registration)
        try Self.drive(observed, results, registration: registration, config: config, commits: 200) { updates }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(shown == (try results.keys()))
    }

    @Test func observeUnderOneObjectCommits() throws {
        let (config, dir) = try Self.makeFile(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let observed = try Realm(configuration: config)
        let results = try observed.objects("Person").filter("age < 50").sorted(byKeyPath: "name")
        var shown: [ObjectKey]?
        var updates = 0
        var failures: [String] = []
        let token = results.observe { change in
            switch change {
            case .initial(let r): shown = (try? r.keys()) ?? []
            case .update(let r, let deletions, let insertions, _):
                updates += 1
                let new = (try? r.keys()) ?? []
                if apply(deletions: deletions, insertions: insertions, to: shown ?? [], new: new) != new {
                    failures.append("bad change set")
                }
                shown = new
            case .error(let e): failures.append("\(e)")
            }
        }
        defer { token.invalidate() }
        let registration = try #require(
            Mirror(reflecting: token).children.first { $0.label == "registration" }?.value as? Registration)
        pumpRunLoop { shown != nil }
        try Self.drive(observed, results, registration: registration, config: config, commits: 200) { updates }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(shown == (try results.keys()))
    }
}
