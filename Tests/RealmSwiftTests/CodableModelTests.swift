import Foundation
import Testing
import RealmSwift

/// Codable models, as RealmSwift has them: a model declaring `Codable` decodes into an
/// unmanaged object through its `@Persisted` properties (a missing optional is nil, a missing
/// required one an error) and encodes its persisted properties — a managed object what its
/// Realm holds — including lists, sets, dictionaries, Decimal128, embedded and linked objects.
@Suite struct CodableModelTests {
    final class CMSpot: EmbeddedObject, Codable {
        @Persisted var lat = 0.0
        @Persisted var lon = 0.0
    }

    final class CMTag: Object, Codable {
        @Persisted(primaryKey: true) var name = ""
    }

    final class CMPlace: Object, Codable {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var note: String?
        @Persisted var price = Decimal128(0)
        @Persisted var visits: List<Int>
        @Persisted var labels: MutableSet<String>
        @Persisted var ratings: Map<String, Int?>
        @Persisted var spot: CMSpot?
        @Persisted var tag: CMTag?
    }

    static let types: [Object.Type] = [CMPlace.self, CMSpot.self, CMTag.self]
    static let json =
        #"{"id": 7, "name": "Harbour", "price": "12.50", "visits": [3, 1], "labels": ["b", "a", "b"], "ratings": {"x": 4, "y": null}, "spot": {"lat": 59.9, "lon": 10.7}, "tag": {"name": "sea"}}"#

    static func encoded(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aModelDecodesIntoAnUnmanagedObject() throws {
        let place = try JSONDecoder().decode(CMPlace.self, from: Data(Self.json.utf8))
        #expect(place.realm == nil)
        #expect(place.id == 7 && place.name == "Harbour" && place.note == nil)
        #expect(place.price == Decimal128("12.50"))
        #expect(Array(place.visits) == [3, 1])
        #expect(Set(place.labels) == ["a", "b"] && place.labels.count == 2)
        #expect(place.ratings["x"] == .some(4) && place.ratings["y"] == .some(nil))
        #expect(place.spot?.lat == 59.9 && place.tag?.name == "sea")
        // A required property missing is an error, not a zero.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CMPlace.self, from: Data(#"{"id": 1}"#.utf8)) }
    }

    @Test func managedAndUnmanagedObjectsEncodeTheirValues() throws {
        let place = try JSONDecoder().decode(CMPlace.self, from: Data(Self.json.utf8))
        let unmanaged = try Self.encoded(place)
        #expect(unmanaged["name"] as? String == "Harbour" && unmanaged["visits"] as? [Int] == [3, 1])
        let realm = try Realm(configuration: memoryConfig(Self.types))
        try realm.write { realm.add(place) }
        // Changed through the Realm: the managed object encodes what the Realm holds now.
        try realm.write {
            place.name = "Quay"
            place.visits.append(9)
            place.spot?.lat = 60.5
            place.ratings["z"] = 1
        }
        let stored = try #require(realm.object(ofType: CMPlace.self, forPrimaryKey: 7))
        let managed = try Self.encoded(stored)
        #expect(managed["id"] as? Int == 7)
        #expect(managed["name"] as? String == "Quay")
        #expect(managed["note"] is NSNull || managed["note"] == nil)
        #expect(managed["visits"] as? [Int] == [3, 1, 9])
        #expect(Set(managed["labels"] as? [String] ?? []) == ["a", "b"])
        #expect((managed["ratings"] as? [String: Any])?["z"] as? Int == 1)
        #expect((managed["spot"] as? [String: Any])?["lat"] as? Double == 60.5)
        #expect((managed["tag"] as? [String: Any])?["name"] as? String == "sea")
        // Decoding what a managed object encoded gives an equal unmanaged object.
        let again = try JSONDecoder().decode(CMPlace.self, from: try JSONEncoder().encode(stored))
        #expect(
            again.name == "Quay" && Array(again.visits) == [3, 1, 9] && again.spot?.lat == 60.5
                && again.price == Decimal128("12.50"))
    }

    @Test func aDeletedObjectIsNotEncodedAsDefaults() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let place = try JSONDecoder().decode(CMPlace.self, from: Data(Self.json.utf8))
        try realm.write { realm.add(place) }
        try realm.write { realm.delete(place) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(place) }
    }
}
