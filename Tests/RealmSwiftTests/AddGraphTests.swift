import Foundation
import Testing
import RealmSwift

/// `realm.add` makes the unmanaged objects it reaches managed themselves, as RealmSwift does:
/// one object per instance however often it is linked, cycles included, and an unmanaged
/// object appended to a managed list or assigned to a managed link becomes that object.
@Suite struct AddGraphTests {
    final class GNode: Object {
        @Persisted var name = ""
        @Persisted var next: GNode?
        @Persisted var children: List<GNode>
    }
    final class GDog: Object { @Persisted var name = "" }
    final class GPerson: Object {
        @Persisted var name = ""
        @Persisted var dog: GDog?
        @Persisted var dogs: List<GDog>
    }
    final class GKeyed: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var next: GKeyed?
    }

    static func realm() throws -> Realm {
        try Realm(configuration: memoryConfig([GNode.self, GDog.self, GPerson.self, GKeyed.self]))
    }

    /// Before, the copy of a cycle recursed until the stack overflowed.
    @Test func aCycleIsAddedAsItIs() throws {
        let realm = try Self.realm()
        let a = GNode(value: ["name": "a"])
        let b = GNode(value: ["name": "b"])
        a.next = b
        b.next = a
        try realm.write { realm.add(a) }
        #expect(a.isManaged && b.isManaged && realm.objects(GNode.self).count == 2)
        #expect(a.next == b && b.next == a && a.next?.next == a && a.next?.name == "b")
        let selfLoop = GNode(value: ["name": "self"])
        selfLoop.next = selfLoop
        selfLoop.children.append(selfLoop)
        try realm.write { realm.add(selfLoop) }
        #expect(
            selfLoop.next == selfLoop && selfLoop.children.first == selfLoop && realm.objects(GNode.self).count == 3)
    }

    /// Before, the same instance appended twice became two objects.
    @Test func anInstanceLinkedTwiceIsOneObject() throws {
        let realm = try Self.realm()
        let rex = GDog(value: ["name": "Rex"])
        let person = GPerson(value: ["name": "Ann"])
        person.dogs.append(rex)
        person.dogs.append(rex)
        person.dog = rex
        try realm.write { realm.add(person) }
        #expect(realm.objects(GDog.self).count == 1)
        #expect(rex.isManaged && person.dogs[0] == rex && person.dogs[1] == rex && person.dog == rex)
        try realm.write { rex.name = "Max" }
        #expect(person.dogs.map(\.name) == ["Max", "Max"] && person.dog?.name == "Max")
    }

    /// Before, the second occurrence was a second object with the same key: a duplicate.
    @Test func anInstanceWithAPrimaryKeyLinkedTwiceIsNoDuplicate() throws {
        let realm = try Self.realm()
        let one = GKeyed(value: ["id": 1])
        let two = GKeyed(value: ["id": 2])
        one.next = two
        two.next = two
        try realm.write { realm.add(one) }
        #expect(realm.objects(GKeyed.self).count == 2 && one.next == two && two.next == two)
    }

    /// Before, the appended or assigned instance was copied and stayed unmanaged.
    @Test func anUnmanagedObjectGivenToAManagedListOrLinkBecomesManaged() throws {
        let realm = try Self.realm()
        let person = try realm.write { realm.create(GPerson.self, value: ["name": "Ann"]) }
        let rex = GDog(value: ["name": "Rex"])
        let ace = GDog(value: ["name": "Ace"])
        let max = GDog(value: ["name": "Max"])
        try realm.write {
            person.dogs.append(rex)
            person.dogs.insert(ace, at: 0)
            person.dog = max
            person.dogs.append(rex)
        }
        #expect(rex.isManaged && ace.isManaged && max.isManaged && realm.objects(GDog.self).count == 3)
        #expect(person.dogs.map(\.name) == ["Ace", "Rex", "Rex"] && person.dog == max)
        try realm.write { rex.name = "Rex II" }
        #expect(person.dogs[1].name == "Rex II")
    }

    @Test func aLongChainDoesNotExhaustTheStack() throws {
        let realm = try Self.realm()
        let head = GNode(value: ["name": "0"])
        var last = head
        for i in 1..<20_000 {
            let node = GNode(value: ["name": "\(i)"])
            last.next = node
            last = node
        }
        try realm.write { realm.add(head) }
        #expect(realm.objects(GNode.self).count == 20_000 && last.isManaged && last.name == "19999")
    }

    /// An add that fails (a duplicate primary key) leaves every instance unmanaged.
    @Test func aFailedAddLeavesTheInstancesUnmanaged() throws {
        let realm = try Self.realm()
        let a = GKeyed(value: ["id": 1])
        let b = GKeyed(value: ["id": 1])
        a.next = b
        #expect(throws: RealmError.self) { try realm.write { realm.add(a) } }
        #expect(!a.isManaged && !b.isManaged && realm.objects(GKeyed.self).isEmpty)
        // With an update policy, both instances are the one object.
        try realm.write { realm.add(a, update: .modified) }
        #expect(a.isManaged && b.isManaged && a == b && realm.objects(GKeyed.self).count == 1)
    }
}
