import Foundation
import Testing
import RealmSwift

@Suite struct ModelTests {
    // 2.1 Getting started
    @Test func gettingStarted() throws {
        final class Dog: Object {
            @Persisted var name = ""
            @Persisted var age = 0
        }
        final class Person: Object {
            @Persisted var name = ""
            @Persisted var picture: Data?
            @Persisted var dogs: List<Dog>
        }
        let myDog = Dog()
        myDog.name = "大黄"
        myDog.age = 1
        #expect(myDog.name == "大黄")
        let config = memoryConfig([Dog.self, Person.self])
        let realm = try Realm(configuration: config)
        let puppies = realm.objects(Dog.self).filter("age < 2")
        #expect(puppies.count == 0)
        try realm.write { realm.add(myDog) }
        #expect(puppies.count == 1)
        try onOtherThread {
            let realm = try Realm(configuration: config)
            let theDog = realm.objects(Dog.self).filter("age == 1").first
            try realm.write { theDog!.age = 3 }
        }
        realm.refresh()
        #expect(myDog.age == 3 && puppies.count == 0)
    }

    // 2.2 Relationships
    @Test func relationships() throws {
        final class Dog: Object {
            @Persisted var name = ""
            @Persisted var age = 0
            @Persisted var owner: Person?
            @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
        }
        final class Person: Object {
            @Persisted var name = ""
            @Persisted var birthdate = Date(timeIntervalSince1970: 1)
            @Persisted var dogs: List<Dog>
        }
        let realm = try Realm(configuration: memoryConfig([Dog.self, Person.self]))
        let jim = Person()
        let rex = Dog()
        rex.owner = jim
        try realm.write { realm.add(rex) }
        #expect(realm.objects(Person.self).count == 1)
        #expect(jim.realm != nil && rex.owner == jim)
        try realm.write {
            realm.add([Dog(value: ["name": "小白一号"]), Dog(value: ["name": "小白二号"]), Dog(value: ["name": "大黄"])])
        }
        let zhangSan = Person(value: ["name": "张三"])
        try realm.write {
            realm.add(zhangSan)
            let someDogs = realm.objects(Dog.self).filter("name contains '小白'")
            zhangSan.dogs.append(objectsIn: someDogs)
            zhangSan.dogs.append(realm.objects(Dog.self).filter("name == '大黄'").first!)
        }
        #expect(zhangSan.dogs.count == 3 && zhangSan.dogs[2].name == "大黄")
        let xb = zhangSan.dogs[0]
        #expect(xb.owners.count == 1 && xb.owners.first!.name == "张三")
        #expect(xb.owner == nil)
        #expect(rex.owners.isEmpty)
        try realm.write { for _ in 0..<3 { jim.dogs.append(rex) } }
        #expect(jim.dogs.count == 3 && jim.dogs[0] == jim.dogs[2] && rex.owners.count == 3)
        try realm.write { jim.dogs.removeAll() }
        #expect(jim.dogs.isEmpty)
    }

    // 2.3 Optional and required properties
    @Test func optionalAndRequired() throws {
        final class Person: Object {
            @Persisted var name: String?
            @Persisted var age: Int?
        }
        final class AllOptional: Object {
            @Persisted var b: Bool?
            @Persisted var i: Int?
            @Persisted var i8: Int8?
            @Persisted var i16: Int16?
            @Persisted var i32: Int32?
            @Persisted var i64: Int64?
            @Persisted var f: Float?
            @Persisted var d: Double?
            @Persisted var s: String?
            @Persisted var data: Data?
            @Persisted var date: Date?
            @Persisted var link: AllOptional?
            @Persisted var oid: ObjectId?
            @Persisted var uuid: UUID?
        }
        final class Student: Object {
            @Persisted var name = ""
            @Persisted var age = 0
        }
        let realm = try Realm(configuration: memoryConfig([Person.self, AllOptional.self, Student.self]))
        try realm.write {
            let person = realm.create(Person.self, value: ["Jane", 27])
            person.age = 28
        }
        let p = realm.objects(Person.self).first!
        #expect(p.name == "Jane" && p.age == 28)
        try realm.write {
            p.age = nil
            p.name = nil
        }
        #expect(p.age == nil && p.name == nil)

        let schema = try #require(realm.schema["AllOptional"])
        #expect(schema.properties.allSatisfy { $0.isOptional })
        #expect(
            schema.properties.map(\.type) == [
                .bool, .int, .int8, .int16, .int32, .int, .float, .double, .string, .data,
                .date, .object, .objectId, .uuid,
            ])
        let all = AllOptional()
        try realm.write { realm.add(all) }
        #expect(all.b == nil && all.i8 == nil && all.f == nil && all.date == nil && all.link == nil && all.uuid == nil)
        let date = Date(timeIntervalSince1970: 1.123456)
        let uuid = UUID()
        try realm.write {
            all.b = true
            all.i = 1
            all.i8 = -8
            all.i16 = 16
            all.i32 = 32
            all.i64 = 64
            all.f = 1.5
            all.d = 2.5
            all.s = "s"
            all.data = Data([1, 2])
            all.date = date
            all.link = all
            all.uuid = uuid
        }
        #expect(all.b == true && all.i == 1 && all.i8 == -8 && all.i16 == 16 && all.i32 == 32 && all.i64 == 64)
        #expect(all.f == 1.5 && all.d == 2.5 && all.s == "s" && all.data == Data([1, 2]) && all.uuid == uuid)
        #expect(all.date == date)  // round-trips exactly
        #expect(all.link == all)

        #expect(throws: (any Error).self) {
            try realm.write { realm.create(Student.self, value: ["name": NSNull(), "age": 3]) }
        }
        #expect(realm.objects(Student.self).isEmpty)  // rolled back
    }

    // 2.4 Defaults, primary keys, indexes, ignored properties
    @Test func defaultsKeysIndexesIgnored() throws {
        final class Student: Object {
            @Persisted var name = "Jim"
            @Persisted var age = 12
        }
        #expect(Student().name == "Jim" && Student().age == 12)
        final class Person: Object {
            @Persisted(primaryKey: true) var id = 0
            @Persisted var name = ""
        }
        let realm = try Realm(configuration: memoryConfig([Person.self]))
        try realm.write { realm.add(Person(value: [1, "a"])) }
        #expect(throws: (any Error).self) { try realm.write { realm.add(Person(value: [1, "b"])) } }
        #expect(throws: (any Error).self) { try realm.write { realm.objects(Person.self).first!.id = 2 } }
        try realm.write { realm.create(Person.self, value: [1, "b"], update: .modified) }
        #expect(realm.objects(Person.self).count == 1 && realm.objects(Person.self).first!.name == "b")
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name == "b")
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 2) == nil)

        final class Book: Object {
            @Persisted var price = 0
            @Persisted(indexed: true) var title = ""
        }
        #expect(Book.sharedSchema()["title"]?.isIndexed == true && Book.sharedSchema()["price"]?.isIndexed == false)
        #expect(Person.sharedSchema().primaryKeyProperty?.name == "id")

        final class Person2: Object {
            var tmpID = 0
            var name: String { "\(firstName) \(lastName)" }
            @Persisted var firstName = ""
            @Persisted var lastName = ""
        }
        let r2 = try Realm(configuration: memoryConfig([Person2.self]))
        #expect(r2.schema["Person2"]!.properties.map(\.name) == ["firstName", "lastName"])
        let q = Person2()
        q.tmpID = 7
        q.firstName = "A"
        q.lastName = "B"
        try r2.write { r2.add(q) }
        #expect(q.tmpID == 7 && q.name == "A B")
        #expect(r2.objects(Person2.self).first!.tmpID == 0)
        #expect(throws: (any Error).self) { _ = try r2.objects(Person2.self).filter(query: "tmpID == 7") }

        final class Item: Object {
            @Persisted(primaryKey: true) var id = UUID().uuidString
            @Persisted var createdAt = Date()
        }
        #expect(Item().id != Item().id)
        let r3 = try Realm(configuration: memoryConfig([Item.self]))
        try r3.write {
            r3.create(Item.self)
            r3.create(Item.self)
        }  // each gets its own default key
        #expect(r3.objects(Item.self).count == 2)
    }

    // 2.5 Live objects, inheritance, composition, initialisers
    class Animal: Object { @Persisted var age = 0 }
    final class Duck: Object {
        @Persisted var animal: Animal?
        @Persisted var name = ""
    }
    class Pet: Object {
        @Persisted var name = ""
        func greet() -> String { "hi " + name }
    }
    final class Cat: Pet { @Persisted var lives = 9 }

    @Test func liveObjectsInheritanceInitialisers() throws {
        final class Dog: Object {
            @Persisted var name = ""
            @Persisted var age = 0
        }
        let realm = try Realm(configuration: memoryConfig([Dog.self, Duck.self, Animal.self, Pet.self, Cat.self]))
        let myDog = Dog()
        myDog.name = "小白"
        myDog.age = 1
        try realm.write { realm.add(myDog) }
        let myPuppy = realm.objects(Dog.self).filter("age == 1").first
        try realm.write { myPuppy!.age = 2 }
        #expect(myDog.age == 2)

        let duck = Duck(value: ["animal": ["age": 3], "name": "Gustav"])
        try realm.write { realm.add(duck) }
        #expect(duck.animal?.age == 3 && realm.objects(Animal.self).count == 1)

        #expect(Cat.sharedSchema().properties.map(\.name) == ["name", "lives"])
        try realm.write { realm.add(Cat(value: ["name": "Tom", "lives": 9])) }
        #expect(realm.objects(Cat.self).first!.greet() == "hi Tom")
        #expect(realm.objects(Pet.self).count == 0)

        final class MyModel: Object {
            @Persisted var myValue = ""
            convenience init(myValue: String) {
                self.init()
                self.myValue = myValue
            }
        }
        #expect(MyModel(myValue: "x").myValue == "x")
    }

    @Test func classNameOverride() throws {
        final class PersonV0: Object {
            override class func _realmObjectName() -> String? { "Person" }
            @Persisted var firstName = ""
        }
        let realm = try Realm(configuration: memoryConfig([PersonV0.self]))
        try realm.write { realm.create(PersonV0.self, value: ["firstName": "Tim"]) }
        #expect(realm.schema.objectSchema.map(\.className) == ["Person"])
        #expect(realm.dynamicObjects("Person").first?["firstName"] as? String == "Tim")
    }

    enum Kind: String, PersistableEnum { case small, large }
    @Test func enumsAndPrimitiveLists() throws {
        final class Box: Object {
            @Persisted var kind: Kind
            @Persisted var optionalKind: Kind?
            @Persisted var tags: List<String>
            @Persisted var scores: List<Int>
        }
        let realm = try Realm(configuration: memoryConfig([Box.self]))
        let box = Box(value: ["kind": "large", "tags": ["a", "b"]])
        #expect(box.kind == .large && box.optionalKind == nil && Array(box.tags) == ["a", "b"])
        try realm.write { realm.add(box) }
        try realm.write {
            box.optionalKind = .small
            box.tags.append("c")
            box.tags.move(from: 0, to: 2)
            box.scores.append(objectsIn: [3, 1, 2])
            box.scores.swapAt(0, 2)
            box.tags.remove(at: 0)
        }
        let stored = realm.objects(Box.self).first!
        #expect(stored.kind == .large && stored.optionalKind == .small)
        #expect(Array(stored.tags) == ["c", "a"] && Array(stored.scores) == [2, 1, 3])
        #expect(realm.objects(Box.self).filter("kind == %@", "large").count == 1)
    }
}
