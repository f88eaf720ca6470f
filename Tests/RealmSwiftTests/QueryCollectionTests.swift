import Foundation
import RealmSwift
import Testing

/// RealmSwift's query DSL beyond single comparisons, as realm-swift's QueryTests use it:
/// property against property, ranges, enums by raw value, string equality with options, and
/// lists — their objects' properties, membership, any-of, element comparisons and aggregates.
/// Each answer is checked against the same filter done in Swift over all objects.
@Suite struct QueryCollectionTests {
    enum Size: Int, PersistableEnum {
        case small = 1
        case medium = 2
        case large = 3
    }

    final class QToy: Object {
        @Persisted var name = ""
        @Persisted var price = 0
    }

    final class QPet: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var limit = 0
        @Persisted var size = Size.small
        @Persisted var scores: List<Int>
        @Persisted var tags: List<String>
        @Persisted var toys: List<QToy>
    }

    /// Twelve pets with ages 0–11, limits counting down, sizes cycling, scores and tags.
    static func realm() throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([QPet.self, QToy.self]))
        try realm.write {
            for index in 0..<12 {
                let pet = QPet()
                pet.name = index % 3 == 0 ? "Émile \(index)" : "rex \(index)"
                pet.age = index
                pet.limit = 11 - index
                pet.size = [Size.small, .medium, .large][index % 3]
                pet.scores.append(objectsIn: (0..<(index % 4)).map { index * 10 + $0 })
                pet.tags.append(objectsIn: index % 2 == 0 ? ["even", "pet"] : ["odd"])
                for toy in 0..<(index % 3) {
                    let made = QToy()
                    made.name = "toy \(index)-\(toy)"
                    made.price = index + toy
                    pet.toys.append(made)
                }
                realm.add(pet)
            }
        }
        return realm
    }

    static func names(_ results: Results<QPet>) -> Set<String> { Set(results.map(\.name)) }

    static func expected(_ realm: Realm, _ isIncluded: (QPet) -> Bool) -> Set<String> {
        Set(realm.objects(QPet.self).filter(isIncluded).map(\.name))
    }

    @Test func twoPropertiesCompare() throws {
        let realm = try Self.realm()
        let pets = realm.objects(QPet.self)
        #expect(Self.names(pets.where { $0.age > $0.limit }) == Self.expected(realm) { $0.age > $0.limit })
        #expect(Self.names(pets.where { $0.age == $0.limit }).isEmpty)
        #expect(Self.names(pets.where { $0.age <= $0.limit }) == Self.expected(realm) { $0.age <= $0.limit })
    }

    @Test func rangesIncludeTheirBoundsAsSwiftsDo() throws {
        let realm = try Self.realm()
        let pets = realm.objects(QPet.self)
        #expect(Self.names(pets.where { $0.age.contains(2..<5) }) == Self.expected(realm) { (2..<5).contains($0.age) })
        #expect(Self.names(pets.where { $0.age.contains(2...5) }) == Self.expected(realm) { (2...5).contains($0.age) })
        #expect(pets.where { $0.age.contains(2...5) }.count == 4)
    }

    @Test func enumsCompareByRawValue() throws {
        let realm = try Self.realm()
        let pets = realm.objects(QPet.self)
        #expect(Self.names(pets.where { $0.size.rawValue > 1 }) == Self.expected(realm) { $0.size.rawValue > 1 })
        #expect(Self.names(pets.where { $0.size == .large }) == Self.expected(realm) { $0.size == .large })
    }

    @Test func stringEqualityTakesOptions() throws {
        let realm = try Self.realm()
        let pets = realm.objects(QPet.self)
        #expect(pets.where { $0.name.equals("REX 1", options: [.caseInsensitive]) }.count == 1)
        #expect(
            pets.where { $0.name.equals("emile 0", options: [.caseInsensitive, .diacriticInsensitive]) }.count == 1)
        #expect(pets.where { $0.name.equals("emile 0") }.count == 0)
        #expect(pets.where { $0.name.notEquals("REX 1", options: [.caseInsensitive]) }.count == 11)
    }

    @Test func listsOfObjects() throws {
        let realm = try Self.realm()
        let pets = realm.objects(QPet.self)
        #expect(
            Self.names(pets.where { $0.toys.price > 10 }) == Self.expected(realm) { $0.toys.contains { $0.price > 10 } }
        )
        #expect(Self.names(pets.where { $0.toys.name.starts(with: "toy 5") }) == ["rex 5"])
        #expect(Self.names(pets.where { $0.toys.count == 2 }) == Self.expected(realm) { $0.toys.count == 2 })
        let toy = try #require(realm.objects(QToy.self).where { $0.name == "toy 4-0" }.first)
        let other = try #require(realm.objects(QToy.self).where { $0.name == "toy 8-1" }.first)
        #expect(Self.names(pets.where { $0.toys.contains(toy) }) == ["rex 4"])
        #expect(Self.names(pets.where { $0.toys.containsAny(in: [toy, other]) }) == ["rex 4", "rex 8"])
    }

    @Test func listsOfValues() throws {
        let realm = try Self.realm()
        let pets = realm.objects(QPet.self)
        #expect(Self.names(pets.where { $0.scores.contains(72) }) == ["rex 7"])
        #expect(
            Self.names(pets.where { $0.tags.containsAny(in: ["odd", "none"]) })
                == Self.expected(realm) { $0.tags.contains("odd") })
        #expect(Self.names(pets.where { $0.scores > 100 }) == Self.expected(realm) { $0.scores.contains { $0 > 100 } })
        #expect(Self.names(pets.where { $0.tags == "pet" }) == Self.expected(realm) { $0.tags.contains("pet") })
        #expect(Self.names(pets.where { $0.scores.count == 3 }) == Self.expected(realm) { $0.scores.count == 3 })
        #expect(Self.names(pets.where { $0.scores.max > 100 }) == Self.expected(realm) { ($0.scores.max() ?? 0) > 100 })
        #expect(Self.names(pets.where { $0.scores.sum >= 63 }) == Self.expected(realm) { $0.scores.reduce(0, +) >= 63 })
        #expect(Self.names(pets.where { $0.scores.min == 30 }) == ["Émile 3"])
        #expect(
            Self.names(pets.where { $0.scores.avg > 100 })
                == Self.expected(realm) {
                    !$0.scores.isEmpty && Double($0.scores.reduce(0, +)) / Double($0.scores.count) > 100
                })
    }
}
