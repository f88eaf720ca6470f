import Foundation
import Testing
@testable import RealmEngine

/// `observeFromCurrentVersion` (the explorer's live tables) starts observing without running
/// the query: the keys of the version the caller shows are computed only when a commit needs
/// them, from the version the registration pins. Before, registering ran the whole query — on
/// a million rows sorted by an unindexed column a 734 ms full sort, where the first screen
/// needed only a top-k pass (the explorer's cliff at its change-set limit).
@Suite struct LazyObservationBaseTests {
    @Test func registeringDoesNotRunTheQuery() throws {
        let (config, dir) = try SteadyCommitNotificationTests.makeFile(500)
        defer { try? FileManager.default.removeItem(at: dir) }
        let realm = try Realm(configuration: config)
        let results = try realm.objects("Person").filter("age < 50").sorted(byKeyPath: "name")
        let token = try results.observeFromCurrentVersion { _ in }
        defer { token.invalidate() }
        #expect(results.cache == nil, "registering evaluated the results")
    }

    @Test func theFirstCommitIsReportedFromTheKeysOfTheRegisteredVersion() throws {
        let (config, dir) = try SteadyCommitNotificationTests.makeFile(500)
        defer { try? FileManager.default.removeItem(at: dir) }
        let realm = try Realm(configuration: config)
        let results = try realm.objects("Person").filter("age < 50").sorted(byKeyPath: "name")
        // What the screen shows, computed apart from the observed results.
        let shown = try results.query.evaluate(in: realm.readView)
        var delivered: [(deletions: [Int], insertions: [Int], keys: [ObjectKey])] = []
        let token = try results.observeFromCurrentVersion { change in
            if case .update(let updated, let deletions, let insertions, _) = change {
                delivered.append((deletions, insertions, (try? updated.keys()) ?? []))
            }
        }
        defer { token.invalidate() }
        // Another instance changes the results twice before this one moves: one object leaves
        // the filter, one joins it with a name sorted first.
        let writer = try Realm(configuration: config)
        let leaving = try #require(
            try writer.objects("Person").filter("age < 50").sorted(byKeyPath: "name").keys().last)
        try writer.write {
            try writer.object(ofType: "Person", key: leaving)?.setValue(Value.int(99), forKey: "age")
            _ = try writer.create("Person", ["name": .string("!first"), "age": .int(1)])
        }
        realm.refresh()
        let change = try #require(delivered.first)
        #expect(delivered.count == 1)
        let expected = try results.query.evaluate(in: realm.readView)
        #expect(change.keys == expected)
        #expect(change.deletions == [shown.count - 1])
        #expect(change.insertions == [0])
    }
}
