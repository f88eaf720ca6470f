import Foundation
import Testing
@testable import RealmEngine

/// A frozen instance reads one version forever, from any thread, and refuses writes and
/// observers with errors that say so.
@Suite struct FrozenRealmTests {
    @Test func aFrozenRealmKeepsItsVersionAndRefusesChanges() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "frozen-\(UUID())", schema: Fixtures.people))
        try realm.write { _ = try realm.create("Person", ["id": .int(1), "name": .string("a"), "age": .int(1)]) }
        let frozen = try realm.freeze()
        let again = try frozen.freeze()
        #expect(frozen.isFrozen && !realm.isFrozen && again === frozen)
        try realm.write { _ = try realm.create("Person", ["id": .int(2), "name": .string("b"), "age": .int(2)]) }
        #expect(try frozen.objects("Person").checkedCount() == 1)
        #expect(!frozen.refresh())
        #expect(throws: RealmError.self) { try frozen.beginWrite() }
        let all = try frozen.objects("Person")
        nonisolated(unsafe) var count = -1
        nonisolated(unsafe) let (frozenRealm, frozenAll) = (frozen, all)
        let thread = Thread { count = frozenRealm.withFrozenAccess { frozenAll.count } }  // no thread confinement
        thread.start()
        pumpRunLoop { count != -1 }
        #expect(count == 1)
        let live = try #require(try frozen.objects("Person").object(at: 0).bound(to: realm))
        #expect(live.realm === realm)
        #expect(try realm.objects("Person").bound(to: frozen).checkedCount() == 1)
        var failure: Error?
        let token = all.observe { change in if case .error(let e) = change { failure = e } }
        pumpRunLoop { failure != nil }
        #expect("\(failure.map { "\($0)" } ?? "")".contains("frozen"))
        token.invalidate()
    }

    @Test func freezingInsideAWriteTransactionThrows() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "frozen-\(UUID())", schema: Fixtures.people))
        try realm.beginWrite()
        #expect(throws: RealmError.self) { _ = try realm.freeze() }
        realm.cancelWrite()
    }
}
