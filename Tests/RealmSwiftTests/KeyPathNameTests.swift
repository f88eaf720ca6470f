import Foundation
import RealmSwift
import Testing

/// Realm Swift's `_name(for:)`: the property name a key path names, which its tests and apps
/// use to build queries and key-value coding calls from key paths.
@Suite struct KeyPathNameTests {
    final class NamedOwner: Object {
        @Persisted var name = ""
        @Persisted var home: NamedHome?
    }

    final class NamedHome: Object {
        @Persisted var city = ""
    }

    final class NamedDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var owner: NamedOwner?
        @Persisted var tags: List<String>
        @Persisted var nickname: String?
    }

    @Test func namesTheStoredPropertiesAKeyPathReads() {
        #expect(_name(for: \NamedDog.age) == "age")
        #expect(_name(for: \NamedDog.nickname) == "nickname")
        #expect(_name(for: \NamedDog.tags) == "tags")
        #expect(_name(for: \NamedDog.owner) == "owner")
        #expect(_name(for: \NamedDog.owner?.name) == "owner.name")
        #expect(_name(for: \NamedDog.owner?.home?.city) == "owner.home.city")
    }

    @Test func theNameWorksInAQueryAndKeyValueCoding() throws {
        let realm = try Realm(configuration: memoryConfig([NamedDog.self, NamedOwner.self, NamedHome.self]))
        try realm.write {
            let dog = NamedDog()
            dog[_name(for: \NamedDog.age)] = 7
            realm.add(dog)
        }
        #expect(realm.objects(NamedDog.self).filter("\(_name(for: \NamedDog.age)) == 7").count == 1)
    }
}
