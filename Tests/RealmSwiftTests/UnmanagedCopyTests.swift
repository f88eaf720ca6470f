import Foundation
import Testing
import RealmSwift

/// `Object(value: managedObject)` is an unmanaged copy: its lists are its own, holding the same
/// elements, and changing them changes nothing stored.
@Suite struct UnmanagedCopyTests {
    final class UDog: Object { @Persisted var name = "" }
    final class UPerson: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<UDog>
        @Persisted var tags: List<String>
    }

    /// Before, the copy shared the managed list: appending outside a write trapped, and inside
    /// one it appended to the stored person's list.
    @Test func aCopyOfAManagedObjectHasItsOwnList() throws {
        let realm = try Realm(configuration: memoryConfig([UDog.self, UPerson.self]))
        let person = UPerson(value: ["name": "Ann", "dogs": [["name": "Rex"]], "tags": ["a"]])
        try realm.write { realm.add(person) }
        let draft = UPerson(value: person)
        #expect(!draft.isManaged && draft.dogs.realm == nil && draft.tags.realm == nil)
        #expect(draft.dogs.map(\.name) == ["Rex"] && draft.tags.map { $0 } == ["a"])
        draft.dogs.append(UDog(value: ["name": "Ace"]))
        draft.tags.append("b")
        #expect(draft.dogs.map(\.name) == ["Rex", "Ace"] && draft.tags.map { $0 } == ["a", "b"])
        #expect(person.dogs.map(\.name) == ["Rex"] && person.tags.map { $0 } == ["a"])
        try realm.write { draft.dogs.append(UDog(value: ["name": "Max"])) }
        #expect(person.dogs.count == 1 && realm.objects(UDog.self).count == 1)
    }

    @Test func aCopyOfAnUnmanagedObjectHasItsOwnList() {
        let original = UPerson(value: ["name": "Ann", "tags": ["a"]])
        let copy = UPerson(value: original)
        copy.tags.append("b")
        #expect(original.tags.map { $0 } == ["a"] && copy.tags.map { $0 } == ["a", "b"])
    }
}
