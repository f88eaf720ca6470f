import Foundation
import Testing
import RealmSwift

/// `propertiesMapping()`: Swift property names stored under other names (realm-swift's
/// `CustomColumnNameTests`: creation, reads, writes, queries, sorting, key paths, rewritten).
@Suite struct PropertiesMappingTests {
    final class MappedPerson: Object {
        @Persisted(primaryKey: true) var pk = 0
        @Persisted var firstName = ""
        @Persisted var age: Int?
        @Persisted var pet: MappedPet?
        @Persisted var scores: List<Int>
        let lucky = RealmProperty<Int?>()
        override class func propertiesMapping() -> [String: String] {
            [
                "pk": "custom_pk", "firstName": "first_name", "age": "custom_age", "pet": "custom_pet",
                "scores": "custom_scores",
                "lucky": "lucky_number",
            ]
        }
    }
    final class MappedPet: Object {
        @Persisted var petName = ""
        @Persisted(originProperty: "pet") var owners: LinkingObjects<MappedPerson>
        override class func propertiesMapping() -> [String: String] { ["petName": "pet_name"] }
    }
    final class BadlyMapped: Object {
        @Persisted var a = 0
        override class func propertiesMapping() -> [String: String] { ["nope": "x"] }
        override class func _realmIgnoreClass() -> Bool { true }
    }

    private func realmWithPeople() throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([MappedPerson.self, MappedPet.self]))
        try realm.write {
            realm.create(
                MappedPerson.self,
                value: ["pk": 1, "firstName": "Ann", "age": 30, "pet": ["petName": "Rex"], "scores": [1, 9]])
            realm.create(
                MappedPerson.self,
                value: ["pk": 2, "firstName": "Bob", "age": 20, "pet": ["petName": "Tom"], "scores": [2]])
            let carl = MappedPerson()
            carl.pk = 3
            carl.firstName = "Carl"
            carl.lucky.value = 7
            realm.add(carl)
        }
        return realm
    }

    @Test func theFileStoresTheMappedNames() throws {
        let schema = MappedPerson.sharedSchema()
        #expect(
            schema.properties.map(\.name) == [
                "custom_pk", "first_name", "custom_age", "custom_pet", "custom_scores", "lucky_number",
            ])
        #expect(schema.primaryKeyProperty?.name == "custom_pk")
        let realm = try realmWithPeople()
        let dynamic = try #require(try realm.dynamicRealm.object(ofType: "MappedPerson", forPrimaryKey: .int(1)))
        #expect(try dynamic.value(forKey: "first_name") == .string("Ann"))
        #expect(MappedPet.sharedSchema()["owners"]?.linkOriginPropertyName == "custom_pet")
    }

    @Test func readsAndWritesUseTheSwiftNames() throws {
        let realm = try realmWithPeople()
        let ann = try #require(realm.object(ofType: MappedPerson.self, forPrimaryKey: 1))
        #expect(ann.firstName == "Ann")
        #expect(ann.age == 30)
        #expect(ann.pet?.petName == "Rex")
        #expect(Array(ann.scores) == [1, 9])
        #expect(ann.value(forKey: "firstName") as? String == "Ann")
        #expect(ann["age"] as? Int == 30)
        #expect(ann.pet?.owners.first?.pk == 1)
        try realm.write {
            ann.firstName = "Anne"
            ann.setValue(31, forKey: "age")
            ann.lucky.value = 8
        }
        #expect(ann.firstName == "Anne")
        #expect(ann.age == 31)
        #expect(realm.object(ofType: MappedPerson.self, forPrimaryKey: 1)?.lucky.value == 8)
        let copy = MappedPerson(value: ["firstName": "Dee", "age": 5])
        #expect(copy.firstName == "Dee" && copy.age == 5)
        #expect(ann.description.contains("firstName = Anne"))
    }

    @Test func queriesSortsAndAggregatesUseTheSwiftNames() throws {
        let realm = try realmWithPeople()
        let people = realm.objects(MappedPerson.self)
        #expect(people.filter("firstName == 'Bob'").map(\.pk) == [2])
        #expect(people.filter("firstName BEGINSWITH[c] %@", "a").map(\.pk) == [1])
        #expect(people.filter("%K > 25", "age").map(\.pk) == [1])
        #expect(people.filter("pet.petName == 'Tom'").map(\.pk) == [2])
        #expect(people.filter("ANY scores > 5").map(\.pk) == [1])
        #expect(people.filter("lucky == 7").map(\.pk) == [3])
        // A quoted text that reads like a property name stays as written.
        #expect(people.filter("firstName != 'firstName'").count == 3)
        #expect(people.where { $0.firstName == "Ann" || $0.pet.petName == "Tom" }.map(\.pk) == [1, 2])
        #expect(people.where { $0.age > 25 }.map(\.pk) == [1])
        #expect(people.sorted(byKeyPath: "firstName", ascending: false).map(\.pk) == [3, 2, 1])
        #expect(people.sorted(by: \.age).map(\.pk) == [3, 2, 1])
        #expect(people.sorted(byKeyPath: "pet.petName").map(\.pk) == [3, 1, 2])
        #expect(people.max(ofProperty: "age") as Int? == 30)
        #expect(people.sum(of: \.pk) == 6)
        #expect(realm.objects(MappedPet.self).filter("ANY owners.firstName == 'Ann'").map(\.petName) == ["Rex"])
        #expect(people.distinct(by: ["age"]).count == 3)
    }

    @Test func observedKeyPathsUseTheSwiftNames() throws {
        let realm = try realmWithPeople()
        let ann = try #require(realm.object(ofType: MappedPerson.self, forPrimaryKey: 1))
        var changes: [[String]] = []
        let token = ann.observe(keyPaths: ["firstName"]) { change in
            if case .change(_, let properties) = change { changes.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        try realm.write { ann.age = 40 }
        realm.refresh()
        try realm.write { ann.firstName = "Ana" }
        realm.refresh()
        #expect(changes.count == 1)
    }

    @Test func aMappingOfNoPropertyIsAnInvalidSchema() {
        #expect(throws: RealmError.self) { _ = try Realm(configuration: memoryConfig([BadlyMapped.self])) }
    }
}
