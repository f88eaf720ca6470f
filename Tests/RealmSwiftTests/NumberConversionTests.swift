import Foundation
import Testing
import RealmSwift

/// A loosely typed number (a JSON number, an `NSNumber`) is stored in an integer property only
/// when it is a whole number that fits; a fraction is a type mismatch, never truncated.
@Suite struct NumberConversionTests {
    final class NCity: Object {
        @Persisted(primaryKey: true) var cityId = 0
        @Persisted var small: Int8 = 0
        @Persisted var name = ""
    }

    @Test func aFractionGivenForAnIntegerPropertyIsAnError() throws {
        let realm = try Realm(configuration: memoryConfig([NCity.self]))
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(NCity.self, value: ["cityId": 1.5 as NSNumber]) }
        }
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(NCity.self, value: ["cityId": 1, "small": 0.25 as NSNumber]) }
        }
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(NCity.self, value: ["cityId": 1, "small": 300 as NSNumber]) }
        }
        #expect(realm.objects(NCity.self).isEmpty)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(#"{"cityId": 2.5, "name": "x"}"#.utf8)) as? [String: Any])
        #expect(throws: RealmError.self) { try realm.write { realm.create(NCity.self, value: json) } }
        #expect(realm.objects(NCity.self).isEmpty)
    }

    @Test func aWholeNumberStillFits() throws {
        let realm = try Realm(configuration: memoryConfig([NCity.self]))
        try realm.write {
            realm.create(NCity.self, value: ["cityId": 2.0 as NSNumber, "small": -3 as NSNumber])
            realm.create(NCity.self, value: ["cityId": 3 as NSNumber, "small": 7.0 as NSNumber])
        }
        #expect(
            realm.objects(NCity.self).sorted(byKeyPath: "cityId").map { [$0.cityId, Int($0.small)] } == [
                [2, -3], [3, 7],
            ])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(#"{"cityId": 4, "small": 5}"#.utf8)) as? [String: Any])
        try realm.write { realm.create(NCity.self, value: json) }
        #expect(realm.object(ofType: NCity.self, forPrimaryKey: 4)?.small == 5)
    }
}
