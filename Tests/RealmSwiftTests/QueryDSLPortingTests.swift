import Foundation
import Testing
import RealmSwift

/// The query DSL as RealmSwift's QueryTests use it: ranges, string options, conditions on the
/// elements and aggregates of lists, and an enum's raw value inside `where { }`.
@Suite struct QueryDSLPortingTests {
    enum Mood: Int, PersistableEnum {
        case calm = 1
        case happy = 2
        case angry = 3
    }
    final class Person: Object {
        @Persisted var name = ""
        @Persisted var nickname: String?
        @Persisted var age = 0
        @Persisted var height: Double?
        @Persisted var mood: Mood
        @Persisted var scores: List<Int>
        @Persisted var tags: List<String>
        @Persisted var friends: List<Person>
    }

    func fixture() throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([Person.self]))
        try realm.write {
            let ana = realm.create(
                Person.self, value: ["name": "Ana", "nickname": "Äna", "age": 1, "height": 1.5, "mood": Mood.calm])
            ana.scores.append(objectsIn: [1, 2, 3])
            ana.tags.append(objectsIn: ["red", "blue"])
            let bob = realm.create(Person.self, value: ["name": "bob", "age": 5, "mood": Mood.happy])
            bob.scores.append(objectsIn: [10, 20])
            bob.tags.append("green")
            let cleo = realm.create(
                Person.self, value: ["name": "Cléo", "nickname": "cleo", "age": 9, "height": 1.8, "mood": Mood.angry])
            cleo.friends.append(objectsIn: [ana, bob])
        }
        return realm
    }

    func names(_ people: Results<Person>) -> Set<String> { Set(people.map(\.name)) }

    @Test func rangesIncludeTheirBoundsAsSwiftDoes() throws {
        let people = try fixture().objects(Person.self)
        #expect(names(people.where { $0.age.contains(1...5) }) == ["Ana", "bob"])
        #expect(names(people.where { $0.age.contains(1..<5) }) == ["Ana"])
        #expect(names(people.where { $0.height.contains(1.5...1.8) }) == ["Ana", "Cléo"])
        #expect(names(people.where { $0.height.contains(1.5..<1.8) }) == ["Ana"])
        #expect(names(people.where { !$0.age.contains(1...5) }) == ["Cléo"])
    }

    @Test func stringComparisonsTakeOptions() throws {
        let people = try fixture().objects(Person.self)
        #expect(
            names(people.where { $0.name.contains("cle", options: [.caseInsensitive, .diacriticInsensitive]) }) == [
                "Cléo"
            ])
        #expect(names(people.where { $0.name.contains("cle", options: [.caseInsensitive]) }).isEmpty)
        #expect(names(people.where { $0.name.starts(with: "B", options: .caseInsensitive) }) == ["bob"])
        #expect(names(people.where { $0.name.starts(with: "B") }).isEmpty)
        #expect(
            names(people.where { $0.name.ends(with: "EO", options: [.caseInsensitive, .diacriticInsensitive]) }) == [
                "Cléo"
            ])
        #expect(names(people.where { $0.name.like("?o*") }) == ["bob"])
        #expect(names(people.where { $0.name.like("A*", caseInsensitive: true) }) == ["Ana"])
        #expect(names(people.where { $0.name.equals("BOB", options: .caseInsensitive) }) == ["bob"])
        #expect(names(people.where { $0.name.notEquals("BOB", options: .caseInsensitive) }) == ["Ana", "Cléo"])
        // An optional string: nil matches none of them.
        #expect(
            names(people.where { $0.nickname.starts(with: "a", options: [.caseInsensitive, .diacriticInsensitive]) })
                == ["Ana"])
        #expect(names(people.where { $0.nickname.equals("CLEO", options: .caseInsensitive) }) == ["Cléo"])
    }

    @Test func listElementsAndAggregates() throws {
        let people = try fixture().objects(Person.self)
        #expect(names(people.where { $0.scores.contains(2) }) == ["Ana"])
        #expect(names(people.where { $0.scores.containsAny(in: [3, 10]) }) == ["Ana", "bob"])
        #expect(names(people.where { $0.tags.containsAny(in: ["green", "none"]) }) == ["bob"])
        #expect(names(people.where { $0.scores == 20 }) == ["bob"])
        #expect(names(people.where { $0.scores > 15 }) == ["bob"])
        #expect(names(people.where { $0.scores.count > 2 }) == ["Ana"])
        #expect(names(people.where { $0.scores.avg == 2 }) == ["Ana"])
        #expect(names(people.where { $0.scores.sum >= 30 }) == ["bob"])
        #expect(names(people.where { $0.scores.min == 10 }) == ["bob"])
        #expect(names(people.where { $0.scores.max < 5 }) == ["Ana"])
        // A range on a list holds when every element is in it; an empty list is in none.
        #expect(names(people.where { $0.scores.contains(1...3) }) == ["Ana"])
        #expect(names(people.where { $0.scores.contains(1..<3) }).isEmpty)
        #expect(names(people.where { $0.scores.contains(0...100) }) == ["Ana", "bob"])
        let ana = try #require(people.where { $0.name == "Ana" }.first)
        #expect(names(people.where { $0.friends.contains(ana) }) == ["Cléo"])
        #expect(names(people.where { $0.friends.count == 2 }) == ["Cléo"])
    }

    @Test func enumsCompareByTheirRawValue() throws {
        let people = try fixture().objects(Person.self)
        #expect(names(people.where { $0.mood == .happy }) == ["bob"])
        #expect(names(people.where { $0.mood.rawValue > 1 }) == ["bob", "Cléo"])
        #expect(names(people.where { $0.mood.rawValue.contains(1...2) }) == ["Ana", "bob"])
        #expect(names(people.where { $0.mood.in([.calm, .angry]) }) == ["Ana", "Cléo"])
    }
}
