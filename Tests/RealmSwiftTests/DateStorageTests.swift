import Foundation
import Testing
import RealmSwift

/// A stored `Date` reads back equal to the one stored, and a date no Realm date holds (an
/// infinite interval) is an error of the write or the query, never a trap.
@Suite struct DateStorageTests {
    final class DItem: Object {
        @Persisted var createdAt = Date()
        @Persisted var due: Date?
        @Persisted var log: List<Date>
    }

    /// Before, `item.createdAt == now` was false for about half of the `Date()` values.
    @Test func aStoredDateReadsBackEqual() throws {
        let realm = try Realm(configuration: memoryConfig([DItem.self]))
        let item = DItem()
        try realm.write { realm.add(item) }
        for _ in 0..<500 {
            let now = Date()
            try realm.write {
                item.createdAt = now
                item.due = now
            }
            #expect(
                item.createdAt == now && item.due == now,
                "\(now.timeIntervalSinceReferenceDate) read back as \(item.createdAt.timeIntervalSinceReferenceDate)")
            #expect(realm.objects(DItem.self).filter("createdAt == %@", now).count == 1)
        }
    }

    @Test func anInfiniteDateInAQueryIsAQueryError() throws {
        let realm = try Realm(configuration: memoryConfig([DItem.self]))
        #expect(throws: RealmError.self) {
            _ = try realm.objects(DItem.self).filter(query: "createdAt < %@", Date(timeIntervalSince1970: .infinity))
        }
    }

    @Test func storingAnInfiniteDateMakesTheWriteThrow() throws {
        let realm = try Realm(configuration: memoryConfig([DItem.self]))
        let item = DItem()
        try realm.write { realm.add(item) }
        let stored = item.createdAt
        let infinite = Date(timeIntervalSince1970: .infinity)
        #expect(throws: RealmError.self) { try realm.write { item.createdAt = infinite } }
        #expect(throws: RealmError.self) { try realm.write { item.due = infinite } }
        #expect(throws: RealmError.self) { try realm.write { item.log.append(infinite) } }
        #expect(throws: RealmError.self) { try realm.write { item.setValue(infinite, forKey: "createdAt") } }
        #expect(throws: RealmError.self) { try realm.write { realm.add(DItem(value: ["createdAt": infinite])) } }
        #expect(throws: RealmError.self) { try realm.write { realm.create(DItem.self, value: ["due": infinite]) } }
        // Every one rolled back.
        #expect(item.createdAt == stored && item.due == nil && item.log.isEmpty && realm.objects(DItem.self).count == 1)
    }
}
