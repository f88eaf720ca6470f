import Foundation
import Testing
import RealmSwift

/// `add` of an unmanaged object stores each unmanaged instance it reaches once, however many
/// links reach it, and cycles too; every instance becomes managed. Before, linked objects were
/// copied into the input as nested values: a cycle overflowed the stack, and an instance
/// reached twice became two objects (or a duplicate primary key).
@Suite struct ObjectGraphAddTests {
    final class GNode: Object { @Persisted var name = ""; @Persisted var next: GNode? }
    final class GDog: Object { @Persisted var name = "" }
    final class GTag: Object { @Persisted(primaryKey: true) var label = "" }
    final class GPerson: Object {
        @Persisted var name = ""
        @Persisted var best: GDog?
        @Persisted var dogs: List<GDog>
        @Persisted var tags: List<GTag>
    }

    static func realm() throws -> Realm {
        try Realm(configuration: memoryConfig([GNode.self, GDog.self, GTag.self, GPerson.self]))
    }

    @Test func aCycleIsStoredAsACycle() throws {
        let realm = try Self.realm()
        let a = GNode(value: ["name": "a"]), b = GNode(value: ["name": "b"])
        a.next = b
        b.next = a
        try realm.write { realm.add(a) }
        #expect(realm.objects(GNode.self).count == 2)
        #expect(a.realm != nil && b.realm != nil)
        #expect(a.next?.name == "b" && a.next?.next?.name == "a" && a.next?.next == a)
        let selfLoop = GNode(value: ["name": "loop"])
        selfLoop.next = selfLoop
        try realm.write { realm.add(selfLoop) }
        #expect(realm.objects(GNode.self).count == 3 && selfLoop.next == selfLoop)
    }

    @Test func anInstanceReachedTwiceIsOneObject() throws {
        let realm = try Self.realm()
        let rex = GDog(value: ["name": "Rex"]), ace = GDog(value: ["name": "Ace"])
        let jim = GPerson(value: ["name": "Jim"])
        jim.best = rex
        jim.dogs.append(objectsIn: [rex, ace, rex])
        try realm.write { realm.add(jim) }
        #expect(realm.objects(GDog.self).count == 2)
        #expect(jim.dogs.map(\.name) == ["Rex", "Ace", "Rex"] && jim.dogs[0] == jim.dogs[2] && jim.best == jim.dogs[0])
        #expect(rex.realm != nil && ace.realm != nil && rex.name == "Rex")
        try realm.write { rex.name = "Rex II" }
        #expect(jim.best?.name == "Rex II" && jim.dogs[2].name == "Rex II")
    }

    @Test func anInstanceWithAPrimaryKeyReachedTwiceIsNoDuplicate() throws {
        let realm = try Self.realm()
        let red = GTag(value: ["label": "red"])
        let ann = GPerson(value: ["name": "Ann"])
        ann.tags.append(objectsIn: [red, red])
        try realm.write { realm.add(ann) }
        #expect(realm.objects(GTag.self).count == 1 && ann.tags.count == 2)
        #expect(red.realm != nil && ann.tags[0] == ann.tags[1])
    }
}
