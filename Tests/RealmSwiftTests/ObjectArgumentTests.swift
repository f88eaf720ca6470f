import Foundation
import Testing
import RealmSwift

/// An object given to a predicate is compared with a link by its key; keys repeat across
/// classes, so an object of another class than the link's is refused, as Realm refuses it.
/// Before, `owner == %@` with a dog matched the dogs of the person that had the dog's key.
@Suite struct ObjectArgumentTests {
    final class OPerson: Object { @Persisted var name = "" }
    final class ODog: Object {
        @Persisted var name = ""
        @Persisted var owner: OPerson?
    }

    static func realm(_ identifier: String) throws -> (Realm, OPerson, ODog) {
        let realm = try Realm(
            configuration: Realm.Configuration(inMemoryIdentifier: identifier, objectTypes: [OPerson.self, ODog.self]))
        let (ann, rex) = try realm.write {
            let ann = realm.create(OPerson.self, value: ["name": "Ann"])
            let rex = realm.create(ODog.self, value: ["name": "Rex", "owner": ann])
            return (ann, rex)
        }
        return (realm, ann, rex)
    }

    @Test func anObjectOfTheLinksClassMatches() throws {
        let (realm, ann, _) = try Self.realm("object-argument-ok")
        #expect(realm.objects(ODog.self).filter("owner == %@", ann).map(\.name) == ["Rex"])
        #expect(try realm.objects(ODog.self).filter(query: "owner != %@", ann).isEmpty)
    }

    @Test func anObjectOfAnotherClassIsAQueryError() throws {
        let (realm, _, rex) = try Self.realm("object-argument-wrong")
        #expect {
            _ = try realm.objects(ODog.self).filter(query: "owner == %@", rex)
        } throws: { error in
            "\(error)".contains("argument 0 is a ODog object") && "\(error)".contains("links to OPerson")
        }
    }
}
