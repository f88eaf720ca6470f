import Foundation
import Testing
@testable import RealmEngine

/// An observer must not keep a file open once its Realm is gone: the last instance's release
/// closes the file (an in-memory Realm's data ends; compaction and `deleteFiles` may proceed).
@Suite(.serialized) struct ObserverLifetimeTests {
    @Test func aDeliveryScheduledOnAStillRunLoopDoesNotKeepTheFileOpen() throws {
        let id = "lifetime-\(UUID())"
        do {
            let realm = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
            let token = realm.observe { _, _ in }
            // The commit schedules a delivery on this thread's RunLoop, which never turns here.
            try realm.write { _ = try realm.create("Person", ["id": .int(1), "name": .string("a"), "age": .int(1)]) }
            token.invalidate()
        }
        let again = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
        #expect(try again.objects("Person").checkedCount() == 0)
    }

    @Test func theNotifierThreadLetsGoOfTheFileWhenTheLastObserverLeaves() throws {
        let id = "lifetime-\(UUID())"
        do {
            let realm = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
            let results = try realm.objects("Person")
            let token = results.observe { _ in }
            pumpRunLoop { Notifier.isRunning(for: realm.shared) }
            try realm.write { _ = try realm.create("Person", ["id": .int(1), "name": .string("a"), "age": .int(1)]) }
            runRunLoop(for: 0.05)
            token.invalidate()
        }
        let again = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
        #expect(try again.objects("Person").checkedCount() == 0)
    }
}
