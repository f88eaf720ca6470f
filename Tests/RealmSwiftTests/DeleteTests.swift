import Foundation
import Testing
import RealmSwift

/// Deleting a sequence of objects deletes each object once, however often the sequence holds it.
@Suite struct DeleteTests {
    final class XDog: Object { @Persisted var name = "" }
    final class XPerson: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<XDog>
    }

    /// Seed §2.2: a list may hold one object several times. Before, the second copy threw
    /// `invalidatedObject` and the write rolled back.
    @Test func deletingAListThatHoldsAnObjectThreeTimesDeletesItOnce() throws {
        let realm = try Realm(configuration: memoryConfig([XDog.self, XPerson.self]))
        let person = XPerson()
        try realm.write {
            realm.add(person)
            let rex = realm.create(XDog.self, value: ["name": "Rex"])
            let ace = realm.create(XDog.self, value: ["name": "Ace"])
            person.dogs.append(objectsIn: [rex, rex, ace, rex])
            realm.add(XDog(value: ["name": "Kept"]))
        }
        try realm.write { realm.delete(person.dogs) }
        #expect(realm.objects(XDog.self).map(\.name) == ["Kept"])
        #expect(person.dogs.isEmpty)
    }

    @Test func deletingAnArrayWithTheSameObjectTwiceDeletesItOnce() throws {
        let realm = try Realm(configuration: memoryConfig([XDog.self, XPerson.self]))
        let rex = try realm.write { realm.create(XDog.self, value: ["name": "Rex"]) }
        let again = try #require(realm.objects(XDog.self).first)
        try realm.write { realm.delete([rex, again, rex]) }
        #expect(realm.objects(XDog.self).isEmpty && rex.isInvalidated)
    }

    /// An object deleted before, in the same sequence or not, is still an error.
    @Test func deletingAnAlreadyDeletedObjectStillThrows() throws {
        let realm = try Realm(configuration: memoryConfig([XDog.self, XPerson.self]))
        let rex = try realm.write { realm.create(XDog.self, value: ["name": "Rex"]) }
        try realm.write { realm.delete(rex) }
        #expect(throws: RealmError.self) { try realm.write { realm.delete([rex]) } }
    }
}
