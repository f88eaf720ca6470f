import Foundation
import Testing
import RealmSwift

/// `MutableSet`'s element access as RealmSwift's: the integer subscript, `first` and `last` in
/// the set's order (Realm's order once managed, insertion order while unmanaged), and
/// `isInvalidated`.
@Suite struct MutableSetElementAccessTests {
    final class SubscriptTag: Object {
        @Persisted var name = ""
    }
    final class SubscriptHolder: Object {
        @Persisted var numbers: MutableSet<Int>
        @Persisted var tags: MutableSet<SubscriptTag>
    }

    @Test func anUnmanagedSetIsIndexedInInsertionOrder() {
        let holder = SubscriptHolder()
        holder.numbers.insert(objectsIn: [3, 1, 2, 1])
        #expect(holder.numbers[0] == 3)
        #expect(holder.numbers[1] == 1)
        #expect(holder.numbers[2] == 2)
    }

    @Test func aManagedSetIsIndexedInItsOrder() throws {
        let realm = try Realm(configuration: memoryConfig([SubscriptHolder.self, SubscriptTag.self]))
        let holder = SubscriptHolder()
        try realm.write {
            realm.add(holder)
            holder.numbers.insert(objectsIn: [30, 10, 20])
            holder.tags.insert(SubscriptTag(value: ["name": "a"]))
        }
        #expect((0..<holder.numbers.count).map { holder.numbers[$0] } == Array(holder.numbers))
        #expect(Set((0..<holder.numbers.count).map { holder.numbers[$0] }) == [10, 20, 30])
        #expect(holder.tags[0].name == "a")
        #expect(holder.tags[0].realm == realm)
    }

    @Test func firstAndLastFollowTheSetsOrder() throws {
        let holder = SubscriptHolder()
        #expect(holder.numbers.first == nil)
        #expect(holder.numbers.last == nil)
        holder.numbers.insert(objectsIn: [3, 1, 2])
        #expect(holder.numbers.first == 3)
        #expect(holder.numbers.last == 2)
        let realm = try Realm(configuration: memoryConfig([SubscriptHolder.self, SubscriptTag.self]))
        try realm.write { realm.add(holder) }
        let ordered = Array(holder.numbers)
        #expect(holder.numbers.first == ordered.first)
        #expect(holder.numbers.last == ordered.last)
    }

    @Test func aSetOfADeletedObjectIsInvalidated() throws {
        let realm = try Realm(configuration: memoryConfig([SubscriptHolder.self, SubscriptTag.self]))
        let holder = SubscriptHolder()
        #expect(holder.numbers.isInvalidated == false)
        try realm.write { realm.add(holder) }
        let numbers = holder.numbers
        #expect(numbers.isInvalidated == false)
        try realm.write { realm.delete(holder) }
        #expect(numbers.isInvalidated)
    }
}
