import Foundation
import Testing
import RealmSwift

@Suite struct QueryTests {
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var color = ""
        @Persisted var picture: Data?
    }
    final class Employee: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var isManager = false
        @Persisted(originProperty: "employees") var companies: LinkingObjects<Company>
    }
    final class Company: Object {
        @Persisted var name = ""
        @Persisted var ceo: Employee?
        @Persisted var employees: List<Employee>
    }

    func fixture() throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([Dog.self, Employee.self, Company.self]))
        try realm.write {
            realm.create(Dog.self, value: ["大黄", 3, "棕黄色", Data([0x89, 0x50])])
            realm.create(Dog.self, value: ["大白", 1, "白色", NSNull()])
            realm.create(Dog.self, value: ["Bella", 7, "棕黄色"])
            realm.create(Dog.self, value: ["Buddy", 2, "棕黄色"])
            realm.create(Dog.self, value: ["Jack", 12, "黑色"])
            let acme = realm.create(Company.self, value: ["name": "ACME"])
            for (i, age) in [19, 25, 40, 50, 33, 28].enumerated() {
                let e = realm.create(Employee.self, value: ["name": "e\(i)", "age": age, "isManager": age == 50])
                acme.employees.append(e)
                if age == 50 { acme.ceo = e }
            }
            let tiny = realm.create(Company.self, value: ["name": "Tiny"])
            tiny.employees.append(realm.create(Employee.self, value: ["name": "t", "age": 45]))
            realm.create(Company.self, value: ["name": "Empty"])
        }
        return realm
    }

    func names(_ r: Results<Dog>) -> [String] { r.map(\.name) }
    func names(_ r: Results<Company>) -> [String] { r.map(\.name) }

    @Test func seedQueries() throws {
        let realm = try fixture()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.count == 5)
        #expect(names(dogs.filter("color = '棕黄色' AND name BEGINSWITH '大'")) == ["大黄"])
        #expect(names(dogs.filter("color = %@ AND name BEGINSWITH %@", "棕黄色", "大")) == ["大黄"])
        #expect(names(dogs.filter("color = $0 AND name BEGINSWITH $1", "棕黄色", "大")) == ["大黄"])
        #expect(names(dogs.filter("%K = %@", "color", "白色")) == ["大白"])
        // An escaped quote inside a string does not end it: the placeholders after it still
        // take their own arguments.
        #expect(names(dogs.filter("name == %@ OR name == 'a\\'b %@' OR color = %@", "nobody", "白色")) == ["大白"])
        #expect(Set(names(dogs.filter("age BETWEEN {2, 7}"))) == ["大黄", "Bella", "Buddy"])
        #expect(dogs.filter("age == 45").count == 0)
        #expect(names(dogs.filter("name CONTAINS 'ud'")) == ["Buddy"])
        #expect(dogs.filter("name CONTAINS 'UD'").isEmpty)
        #expect(names(dogs.filter("name CONTAINS[c] 'UD'")) == ["Buddy"])
        #expect(names(dogs.filter("name IN {'Lisa', 'Spike', 'Hachi', 'Bella'}")) == ["Bella"])
        #expect(names(dogs.filter("name IN %@", ["Lisa", "Bella"])) == ["Bella"])
        #expect(names(dogs.filter("name BEGINSWITH 'B' AND age >= 3")) == ["Bella"])
        #expect(Set(names(dogs.filter("NOT (color == '棕黄色') OR age > 10"))) == ["大白", "Jack"])
        #expect(names(dogs.filter("picture BEGINSWITH %@", Data([0x89]))) == ["大黄"])
        #expect(dogs.filter("picture == nil").count == 4)

        let companies = realm.objects(Company.self)
        let employees = realm.objects(Employee.self)
        #expect(Set(names(companies.filter("ceo == nil"))) == ["Tiny", "Empty"])
        let acme = companies.filter("name == 'ACME'").first!
        let fifty = employees.filter("age == 50").first!
        #expect(employees.filter("ANY companies == %@", acme).count == 6)
        #expect(names(companies.filter("ceo == %@", fifty)) == ["ACME"])
        #expect(employees.filter("isManager == true").count == 1)
        #expect(names(companies.filter("ANY employees.age < 21")) == ["ACME"])
        #expect(names(companies.filter("employees.@count > 5")) == ["ACME"])
        #expect(Set(names(companies.filter("employees.age.@avg > 30"))) == ["ACME", "Tiny"])
        #expect(names(companies.filter("employees.age.@min >= 40")) == ["Tiny"])
        #expect(names(companies.filter("employees.age.@max == 50")) == ["ACME"])
        #expect(names(companies.filter("employees.age.@sum == 195")) == ["ACME"])
        #expect(names(companies.filter("SUBQUERY(employees, $e, $e.age > 30).@count >= 3")) == ["ACME"])
        #expect(
            names(companies.filter("SUBQUERY(employees, $e, $e.age > 30 AND $e.isManager == true).@count > 0")) == [
                "ACME"
            ])

        #expect(
            names(dogs.filter("color = '棕黄色' AND name BEGINSWITH 'B'").sorted(byKeyPath: "name")) == ["Bella", "Buddy"])
        #expect(names(dogs.sorted(byKeyPath: "age", ascending: false)) == ["Jack", "Bella", "大黄", "Buddy", "大白"])
        #expect(
            names(
                dogs.sorted(by: [SortDescriptor(keyPath: "color"), SortDescriptor(keyPath: "age", ascending: false)]))
                == ["Bella", "大黄", "Buddy", "大白", "Jack"])
        let tanDogs = dogs.filter("color = '棕黄色'")
        #expect(tanDogs.count == 3 && names(tanDogs.filter("name BEGINSWITH '大'")) == ["大黄"])
        // Realm Core: a later sort is most significant, the earlier one breaks ties.
        #expect(
            names(dogs.sorted(byKeyPath: "age").sorted(byKeyPath: "color")) == ["Buddy", "大黄", "Bella", "大白", "Jack"])
        #expect(names(dogs.sorted(by: \.age)) == ["大白", "Buddy", "大黄", "Bella", "Jack"])
        #expect(dogs.distinct(by: ["color"]).count == 3)
    }

    @Test func aggregatesAndCollectionBehaviour() throws {
        let realm = try fixture()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.min(ofProperty: "age") == 1 as Int?)
        #expect(dogs.max(ofProperty: "age") == 12 as Int?)
        #expect(dogs.sum(ofProperty: "age") == 25 as Int)
        #expect(dogs.average(ofProperty: "age") == 5)
        #expect(dogs.max(of: \.age) == 12 && dogs.sum(of: \.age) == 25)
        #expect(dogs.filter("age > 100").max(ofProperty: "age") == nil as Int?)
        let jack = dogs.filter("name == 'Jack'").first!
        #expect(dogs.index(of: jack) == 4)
        #expect(dogs.first(where: { $0.age == 7 })?.name == "Bella")
        #expect(dogs.prefix(2).map(\.name) == ["大黄", "大白"])
        #expect(dogs.sorted(byKeyPath: "age").last?.name == "Jack")
        #expect(throws: (any Error).self) { _ = try dogs.filter(query: "nmae == 'x'") }
        #expect(throws: (any Error).self) { _ = try dogs.filter(query: "name == ") }
    }

    @Test func liveResultsAndSnapshotIteration() throws {
        final class Kid: Object {
            @Persisted var name = ""
            @Persisted var age = 0
        }
        let realm = try Realm(configuration: memoryConfig([Dog.self, Kid.self]))
        let puppies = realm.objects(Dog.self).filter("age < 2")
        let n = puppies.count
        try realm.write { realm.create(Dog.self, value: ["name": "大黄二", "age": 1]) }
        #expect(puppies.count == n + 1)
        try realm.write { for i in 0..<3 { realm.create(Kid.self, value: ["name": "k\(i)", "age": 10]) } }
        try realm.write { for person in realm.objects(Kid.self).filter("age == 10") { person.age += 1 } }
        #expect(realm.objects(Kid.self).filter("age == 11").count == 3)
    }
}

@Suite struct TypedQueryTests {
    @Test func whereQueries() throws {
        let q = QueryTests()
        let realm = try q.fixture()
        let dogs = realm.objects(QueryTests.Dog.self)
        #expect(dogs.where { $0.color == "棕黄色" && $0.name.starts(with: "大") }.map(\.name) == ["大黄"])
        #expect(Set(dogs.where { $0.age >= 2 && $0.age <= 7 }.map(\.name)) == ["大黄", "Bella", "Buddy"])
        #expect(dogs.where { $0.name.contains("UD", options: .caseInsensitive) }.map(\.name) == ["Buddy"])
        #expect(dogs.where { $0.name.in(["Lisa", "Bella"]) }.map(\.name) == ["Bella"])
        #expect(Set(dogs.where { !($0.color == "棕黄色") || $0.age > 10 }.map(\.name)) == ["大白", "Jack"])
        #expect(dogs.where { $0.picture == nil }.count == 4)
        let employees = realm.objects(QueryTests.Employee.self)
        #expect(employees.where { $0.isManager }.count == 1)
        let companies = realm.objects(QueryTests.Company.self)
        #expect(companies.where { $0.ceo.age == 50 }.map(\.name) == ["ACME"])
        #expect(companies.where { $0.employees.count > 5 }.map(\.name) == ["ACME"])
        let fifty = employees.where { $0.age == 50 }.first!
        #expect(companies.where { $0.ceo == fifty }.map(\.name) == ["ACME"])
    }
}
