import Foundation
import Testing
import RealmSwift

/// `where { }` over `MutableSet` and `Map` properties, as RealmSwift has it: a set's elements
/// like a list's, a map's value by key (a missing key reads nil; any key, quotes included),
/// its keys, its values and its count.
@Suite struct SetMapWhereTests {
    final class WDog: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var age = 0
    }

    final class WOwner: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var tags: MutableSet<String>
        @Persisted var attrs: Map<String, String>
        @Persisted var counts: Map<String, Int?>
        @Persisted var pets: Map<String, WDog?>
    }

    @Test func setsAndMapsInWhere() throws {
        let realm = try Realm(configuration: memoryConfig([WOwner.self, WDog.self]))
        try realm.write {
            realm.create(
                WOwner.self,
                value: [
                    "id": 1, "tags": ["a", "b"], "attrs": ["color": "red", "it's": "quoted"],
                    "counts": ["x": 3, "y": nil], "pets": ["dog": ["name": "rex", "age": 7]],
                ])
            realm.create(WOwner.self, value: ["id": 2, "tags": ["c"], "attrs": ["color": "blue"], "counts": ["x": 1]])
        }
        let owners = realm.objects(WOwner.self)
        func ids(_ results: Results<WOwner>) -> [Int] { results.map(\.id).sorted() }
        #expect(ids(owners.where { $0.tags.contains("a") }) == [1])
        #expect(ids(owners.where { $0.tags == "c" }) == [2])
        #expect(ids(owners.where { $0.tags.count == 2 }) == [1])
        #expect(ids(owners.where { $0.attrs["color"] == "red" }) == [1])
        #expect(ids(owners.where { $0.attrs["it's"] == "quoted" }) == [1])
        #expect(ids(owners.where { $0.attrs["missing"] == "red" }).isEmpty)
        #expect(ids(owners.where { $0.attrs.keys.contains("it's") }) == [1])
        #expect(ids(owners.where { $0.attrs.keys == "color" }) == [1, 2])
        #expect(ids(owners.where { $0.attrs.values.contains("blue") }) == [2])
        #expect(ids(owners.where { $0.counts.values.contains(3) }) == [1])
        #expect(ids(owners.where { $0.counts["y"] == nil && $0.counts.count == 2 }) == [1])
        #expect(ids(owners.where { $0.pets["dog"].age > 5 }) == [1])
        #expect(ids(owners.where { $0.pets["dog"].name == "rex" }) == [1])
    }
}
