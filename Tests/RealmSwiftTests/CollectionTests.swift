import Foundation
import Testing
import RealmSwift

@Suite struct CollectionTests {
    // 2.6 Collections
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
    }
    final class Person: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<Dog>
    }
    final class Holder {
        let collection: AnyRealmCollection<Dog>
        init<C: RealmCollection>(collection: C) where C.Element == Dog {
            self.collection = AnyRealmCollection(collection)
        }
    }
    func operateOn<C: RealmCollection>(collection: C) -> Int { collection.count }

    @Test func realmCollectionProtocol() throws {
        let realm = try Realm(configuration: memoryConfig([Dog.self, Person.self]))
        let person = try realm.write {
            realm.create(Person.self, value: ["name": "P", "dogs": [["name": "Rex"], ["name": "Rover"]]])
        }
        #expect(operateOn(collection: realm.objects(Dog.self)) == 2)
        #expect(operateOn(collection: person.dogs) == 2)
        #expect(operateOn(collection: person.dogs[0].owners) == 1)
        #expect(Holder(collection: person.dogs).collection.count == 2)
        #expect(Holder(collection: realm.objects(Dog.self).filter("name BEGINSWITH 'R'")).collection.count == 2)
        #expect(person.dogs.filter("name == 'Rover'").count == 1)
        #expect(person.dogs.sorted(byKeyPath: "name", ascending: false).map(\.name) == ["Rover", "Rex"])
        #expect(person.dogs[1].owners.filter("name == 'P'").first == person)
    }

    // 2.7 Creating, adding, updating, KVC, deleting
    final class KDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }
    final class KPerson: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var dogs: List<KDog>
    }
    final class Book: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var title = ""
        @Persisted var price = 0.0
        @Persisted var note: String?
    }
    final class P: Object {
        @Persisted var name = ""
        @Persisted var isFirst = false
        @Persisted var planet = ""
    }

    @Test func createAddUpdateKVCDelete() throws {
        let myDog = KDog()
        myDog.name = "大黄"
        myDog.age = 10
        let myOtherDog = KDog(value: ["name": "豆豆", "age": 3])
        let myThirdDog = KDog(value: ["豆豆", 5])
        #expect(myDog.age == 10 && myOtherDog.age == 3 && myThirdDog.name == "豆豆" && myThirdDog.age == 5)
        let aDog = KDog(value: ["a", 1])
        let anotherDog = KDog(value: ["b", 2])
        let aPerson = KPerson(value: ["李四", 30, [aDog, anotherDog]])
        let anotherPerson = KPerson(value: ["李四", 30, [["小黑", 5], ["旺财", 6]]])
        #expect(aPerson.dogs.count == 2 && anotherPerson.dogs[1].name == "旺财")
        let realm = try Realm(configuration: memoryConfig([KDog.self, KPerson.self, Book.self, P.self]))
        try realm.write { realm.add(anotherPerson) }
        #expect(realm.objects(KDog.self).count == 2)
        #expect(anotherPerson.dogs[0].realm != nil)

        let author = KPerson()
        author.name = "大卫·福斯特·华莱士"
        try realm.write { realm.add(author) }
        try realm.write { author.name = "托马斯·品钦" }
        #expect(realm.objects(KPerson.self).filter("name == '托马斯·品钦'").count == 1)

        let cheeseBook = Book()
        cheeseBook.title = "奶酪食谱"
        cheeseBook.price = 9000
        cheeseBook.id = 1
        try realm.write { realm.add(cheeseBook, update: .modified) }
        try realm.write { realm.add(Book(value: [1, "奶酪食谱（第二版）", 9500.0, "n"]), update: .modified) }
        #expect(realm.objects(Book.self).count == 1)
        try realm.write { realm.create(Book.self, value: ["id": 1, "price": 9000.0], update: .modified) }
        let b = realm.object(ofType: Book.self, forPrimaryKey: 1)!
        #expect(b.title == "奶酪食谱（第二版）" && b.price == 9000 && b.note == "n")
        try realm.write { realm.create(Book.self, value: ["id": 1, "note": NSNull()], update: .modified) }
        #expect(b.note == nil)
        #expect(throws: (any Error).self) {
            try realm.write { realm.create(KDog.self, value: ["name": "x"], update: .modified) }
        }

        try realm.write { for n in ["a", "b", "c"] { realm.create(P.self, value: ["name": n]) } }
        let persons = realm.objects(P.self)
        try realm.write {
            persons.first?.setValue(true, forKeyPath: "isFirst")
            persons.setValue("地球", forKeyPath: "planet")
        }
        #expect(persons.filter("planet == '地球'").count == 3 && persons.filter("isFirst == true").count == 1)
        #expect((persons.value(forKeyPath: "planet") as! [String]) == ["地球", "地球", "地球"])
        #expect(persons[0]["isFirst"] as? Bool == true)

        try realm.write { realm.delete(cheeseBook) }
        #expect(cheeseBook.isInvalidated)
        #expect(realm.objects(Book.self).isEmpty)
        try realm.write { realm.delete(realm.objects(P.self).filter("name != 'a'")) }
        #expect(realm.objects(P.self).map(\.name) == ["a"])
        try realm.write { realm.deleteAll() }
        #expect(realm.isEmpty)
    }

    @Test func deleteAllKeepsFileSize() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let config = Realm.Configuration(fileURL: dir.appendingPathComponent("d.realm"), objectTypes: [KDog.self])
        let realm = try Realm(configuration: config)
        try realm.write { for i in 0..<500 { realm.create(KDog.self, value: ["name": "dog \(i)", "age": i]) } }
        let size = { (try FileManager.default.attributesOfItem(atPath: config.fileURL!.path)[.size] as? Int) ?? -1 }
        let before = try size()
        try realm.write { realm.deleteAll() }
        #expect(realm.isEmpty)
        #expect(try size() >= before)
    }

    @Test func writeReturnsItsValueAndRollsBackOnError() throws {
        let realm = try Realm(configuration: memoryConfig([Book.self]))
        let n = try realm.write { realm.create(Book.self, value: ["id": 7]).id }
        #expect(n == 7)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try realm.write {
                realm.create(Book.self, value: ["id": 8])
                throw Stop()
            }
        }
        #expect(realm.objects(Book.self).count == 1)
        realm.beginWrite()
        realm.create(Book.self, value: ["id": 9])
        #expect(realm.isInWriteTransaction)
        realm.cancelWrite()
        #expect(realm.objects(Book.self).count == 1)
    }
}
