import Foundation
import Testing
import RealmSwift

/// A notification token keeps delivering after the `Realm` or `FetchedResults` it was made
/// from is released (as in RealmSwift): the block is still called, with a usable value.
@Suite struct ObserverLifetimeTests {
    final class LDog: Object { @Persisted var name = "" }

    /// Before, the block reached the released wrapper through `unowned self` and trapped.
    @Test func aRealmObserverOutlivesItsRealmWrapper() throws {
        let config = try fileConfig([LDog.self])
        defer { removeFolder(of: config) }
        let keep = try Realm(configuration: config)
        var counts: [Int] = []
        let token = try Realm(configuration: config).observe { notification, realm in
            counts.append(realm.objects(LDog.self).count)
        }
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.add(LDog()) }
        }
        keep.refresh()
        #expect(counts == [1])
        token.invalidate()
    }

    @Test func fetchedResultsObserverOutlivesItsResults() throws {
        let config = try fileConfig([CharacterObject.self, PublisherObject.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        var log: [String] = []
        let token = Container(realm: realm).values(Character.self, matching: .publisherName("Marvel")).observe {
            change in
            switch change {
            case .initial(let values): log.append("initial \(values.count)")
            case .update(let values, _, let insertions, _): log.append("update \(values.count) \(insertions)")
            case .error(let error): Issue.record(error)
            }
        }
        realm.refresh()
        try onOtherThread {
            let container = try Container(realm: Realm(configuration: config))
            try container.write { tx in
                tx.add(
                    Character(
                        identifier: 1, name: "Thor", realName: "Thor Odinson",
                        publisher: Publisher(identifier: 1, name: "Marvel")), update: true)
            }
        }
        realm.refresh()
        #expect(log == ["initial 0", "update 1 [0]"])
        token.invalidate()
    }
}
