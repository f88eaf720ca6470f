import Foundation
import Testing
import RealmSwift

/// `Realm: Equatable` as RealmSwift defines it: two `Realm` values are equal when they are the
/// same instance of the file on this thread (RealmSwift caches one per thread and
/// configuration), so `object.realm == realm` holds for every object read or added through it.
@Suite struct RealmEqualityTests {
    final class EqDog: Object {
        @Persisted var name = ""
        @Persisted var friends: List<EqDog>
    }

    @Test func realmsOfOneConfigurationOnOneThreadAreEqual() throws {
        let config = memoryConfig([EqDog.self])
        let realm = try Realm(configuration: config)
        let again = try Realm(configuration: config)
        #expect(realm == again)
        let dog = EqDog()
        try realm.write { realm.add(dog) }
        #expect(dog.realm == realm)
        #expect(dog.friends.realm == realm)
        let read = try #require(again.objects(EqDog.self).first)
        #expect(read.realm == realm)
        #expect(again.objects(EqDog.self).realm == realm)
    }

    @Test func realmsOfOtherConfigurationsDiffer() throws {
        let realm = try Realm(configuration: memoryConfig([EqDog.self]))
        let other = try Realm(configuration: memoryConfig([EqDog.self]))
        #expect(realm != other)
    }

    @Test func theSameFileOnAnotherThreadDiffers() throws {
        let config = memoryConfig([EqDog.self])
        let realm = try Realm(configuration: config)
        nonisolated(unsafe) var elsewhere: Realm?
        try onOtherThread { elsewhere = try Realm(configuration: config) }
        let opened = try #require(elsewhere)
        #expect(opened != realm)
        #expect(opened.configuration.inMemoryIdentifier == realm.configuration.inMemoryIdentifier)
    }

    @Test func aFrozenRealmDiffersFromItsLiveRealm() throws {
        let realm = try Realm(configuration: memoryConfig([EqDog.self]))
        let frozen = realm.freeze()
        #expect(frozen != realm)
        #expect(frozen == realm.freeze())
        #expect(frozen.thaw() == realm)
    }
}
