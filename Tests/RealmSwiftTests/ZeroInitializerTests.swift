import Foundation
import Testing
import RealmSwift

/// `ObjectId()` and `Decimal128()` are zero, as in RealmSwift (`ObjectId.generate()` makes a
/// new id); realm-swift's tests and apps use them as defaults.
@Suite struct ZeroInitializerTests {
    final class ZeroDefaults: Object {
        @Persisted var id = ObjectId()
        @Persisted var amount = Decimal128()
    }

    @Test func objectIdIsZero() {
        #expect(ObjectId() == ObjectId("000000000000000000000000"))
        #expect(ObjectId().stringValue == "000000000000000000000000")
        #expect(ObjectId() != ObjectId.generate())
    }

    @Test func decimal128IsZero() {
        #expect(Decimal128() == Decimal128(0))
        #expect(Decimal128().description == "0")
        #expect(Decimal128() < Decimal128(1))
    }

    @Test func zeroDefaultsRoundTrip() throws {
        let realm = try Realm(configuration: memoryConfig([ZeroDefaults.self]))
        try realm.write { realm.add(ZeroDefaults()) }
        let stored = try #require(realm.objects(ZeroDefaults.self).first)
        #expect(stored.id == ObjectId())
        #expect(stored.amount == Decimal128())
    }
}
