import Foundation
import Testing

@testable import RealmEngine

/// The readable-version seam: the same questions asked of the engine's `Snapshot` (through
/// `Results` and through the protocol) and of `InMemoryVersion`, a second implementation with
/// no leaves, no index and no kept backlinks, get the same answers.
@Suite struct ReadableVersionTests {
    /// A Realm of 700 people (some deleted, so keys have gaps; several leaves) and 240 dogs, with
    /// links, lists, optional values and an index; its snapshot; and a copy of it in memory.
    final class Fixture {
        let realm: Realm
        let snapshot: Snapshot
        let fake: InMemoryVersion
        let person: Int
        let dog: Int

        init() throws {
            let realm = try Realm(configuration: .init(inMemoryIdentifier: UUID().uuidString, schema: Fixtures.people))
            self.realm = realm
            var random = SeededGenerator(seed: 25)
            let colours = ["red", "green", "blue"]
            try realm.write {
                var dogs: [ObjectKey] = []
                for i in 0..<240 {
                    let tags = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        ObjectInput.value(.string(colours.randomElement(using: &random)!))
                    }
                    let dog = try realm.create(
                        "Dog",
                        value: .dictionary([
                            "name": .value(.string("dog\(i % 50)")),
                            "age": .value(.int(Int64.random(in: 0..<16, using: &random))),
                            "tags": .array(tags),
                        ]))
                    dogs.append(dog.key)
                }
                for i in 0..<700 {
                    let owned = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                        ObjectInput.value(.link(dogs.randomElement(using: &random)!))
                    }
                    let age: Value = i % 9 == 0 ? .null : .int(Int64.random(in: 0..<80, using: &random))
                    let best: Value = i % 4 == 0 ? .null : .link(dogs.randomElement(using: &random)!)
                    _ = try realm.create(
                        "Person",
                        value: .dictionary([
                            "id": .value(.int(Int64(i * 3))), "name": .value(.string("p\(i % 61)")),
                            "age": .value(age), "dogs": .array(owned), "best": .value(best),
                        ]))
                }
                for o in try realm.objects("Person").filter("id < 150 AND age > 40").keys() {
                    try realm.delete(try #require(try realm.object(ofType: "Person", key: o)))
                }
            }
            snapshot = try realm.readView
            fake = try InMemoryVersion(copying: snapshot)
            person = try realm.classIndex("Person")
            dog = try realm.classIndex("Dog")
        }

        func query(_ classIndex: Int, _ text: String) throws -> QueryDescription {
            var q = QueryDescription(classIndex: classIndex)
            q.add(try BoundQuery.parse(text, classIndex: classIndex, schema: snapshot.schema, arguments: []))
            return q
        }
    }

    static let personQueries = [
        "age > 30", "age == nil", "age != nil AND age < 12", "name BEGINSWITH 'p1'", "name == 'p7'",
        "id IN {3, 15, 300, 1500}", "best.age > 5", "best == nil", "ANY dogs.age < 3", "dogs.@count > 1",
        "name CONTAINS[c] 'P4' OR age < 10", "age > 20 SORT(age DESC, id ASC)",
        "TRUEPREDICATE SORT(name ASC) LIMIT(17)",
        "age < 50 DISTINCT(age)", "id > 600 LIMIT(5)", "ALL dogs.age > 4",
    ]
    static let dogQueries = [
        "owners.@count > 1", "ANY owners.age > 40", "tags.@count == 0", "ANY tags == 'red'", "age >= 8 SORT(name DESC)",
    ]

    @Test func queriesAnswerTheSameOnTheSnapshotTheFakeAndResults() throws {
        let f = try Fixture()
        for (classIndex, texts) in [(f.person, Self.personQueries), (f.dog, Self.dogQueries)] {
            let className = f.snapshot.schema.objectSchemas[classIndex].name
            for text in texts {
                let q = try f.query(classIndex, text)
                let engine = try f.snapshot.evaluate(q, missingOwnerIsEmpty: false)
                let fake = try f.fake.evaluate(q, missingOwnerIsEmpty: false)
                #expect(engine == fake, "\(className): \(text)")
                #expect(try f.realm.objects(className).filter(text).keys() == fake, "Results \(className): \(text)")
                // The generic entry point, on the protocol's existential, answers the same.
                let version: any ReadableVersion = f.fake
                #expect(try q.evaluate(in: version) == fake, "\(className): \(text)")
            }
        }
    }

    @Test func countsWindowsAndPositionsAnswerTheSame() throws {
        let f = try Fixture()
        for text in ["age > 30", "age == nil", "name BEGINSWITH 'p1'", "best.age > 5", "ANY dogs.age < 3"] {
            let predicate = try BoundQuery.parse(text, classIndex: f.person, schema: f.fake.schema, arguments: [])
            let all = try f.fake.evaluate(try f.query(f.person, text), missingOwnerIsEmpty: false)
            // The fake has no leaves: no count or window without listing, the general path answers.
            #expect(try f.fake.count(matching: predicate) == nil)
            #expect(try f.fake.window(matching: predicate, skip: 3, limit: 10) == nil)
            #expect(try (f.snapshot.count(matching: predicate) ?? all.count) == all.count, "\(text)")
            #expect(try f.realm.objects("Person").filter(text).count == all.count, "\(text)")
            for (skip, limit) in [(0, 10), (7, 25), (all.count - 3, 10), (all.count + 5, 4)] {
                let expected = Array(all.dropFirst(skip).prefix(limit))
                let window = try f.snapshot.window(matching: predicate, skip: skip, limit: limit) ?? expected
                #expect(window == expected, "\(text) [\(skip), +\(limit)]")
                #expect(
                    try f.realm.objects("Person").filter(text).keys(in: skip..<(skip + limit)) == expected,
                    "Results \(text) [\(skip), +\(limit)]")
            }
        }
        for classIndex in [f.person, f.dog] {
            let count = try f.fake.count(classIndex: classIndex)
            #expect(try f.snapshot.count(classIndex: classIndex) == count)
            #expect(try f.snapshot.keys(classIndex: classIndex) == f.fake.keys(classIndex: classIndex))
            for range in [0..<10, 250..<270, (count - 5)..<(count + 5), (count + 1)..<(count + 3)] {
                #expect(
                    try f.snapshot.keys(classIndex: classIndex, in: range)
                        == f.fake.keys(classIndex: classIndex, in: range))
            }
            for position in [0, 1, count / 2, count - 1] {
                #expect(
                    try f.snapshot.key(classIndex: classIndex, at: position)
                        == f.fake.key(classIndex: classIndex, at: position))
            }
            #expect(throws: RealmError.self) { try f.fake.key(classIndex: classIndex, at: count) }
            #expect(throws: RealmError.self) { try f.snapshot.key(classIndex: classIndex, at: count) }
        }
    }

    @Test func objectsListsBacklinksAndSeeksAnswerTheSame() throws {
        let f = try Fixture()
        let dogs = try #require(f.fake.column(classIndex: f.person, named: "dogs"))
        let best = try #require(f.fake.column(classIndex: f.person, named: "best"))
        #expect(f.snapshot.column(classIndex: f.person, named: "dogs") == dogs)
        #expect(f.fake.column(classIndex: f.person, named: "owners") == nil)
        #expect(f.fake.persistedColumnCount(classIndex: f.dog) == f.snapshot.persistedColumnCount(classIndex: f.dog))
        for key in try f.fake.keys(classIndex: f.person).prefix(60) {
            let columns = f.fake.persistedColumnCount(classIndex: f.person)
            #expect(
                try f.snapshot.row(classIndex: f.person, key: key).map { Array($0.prefix(columns)) }
                    == f.fake.row(classIndex: f.person, key: key))
            let list = QueryDescription(classIndex: f.dog, source: .list(classIndex: f.person, key: key, column: dogs))
            #expect(
                try f.snapshot.evaluate(list, missingOwnerIsEmpty: false)
                    == f.fake.evaluate(list, missingOwnerIsEmpty: false))
            let id = try f.fake.value(classIndex: f.person, key: key, column: 0)
            #expect(try f.fake.object(classIndex: f.person, primaryKey: id) == key)
            #expect(try f.snapshot.object(classIndex: f.person, primaryKey: id) == key)
        }
        #expect(try f.fake.object(classIndex: f.person, primaryKey: .int(1)) == nil)
        #expect(try f.fake.object(classIndex: f.dog, primaryKey: .int(1)) == nil)
        for key in try f.fake.keys(classIndex: f.dog).prefix(60) {
            for column in [dogs, best] {
                let source = QuerySource.backlinks(
                    classIndex: f.dog, key: key, originClass: f.person, originColumn: column)
                let q = QueryDescription(classIndex: f.person, source: source)
                // Kept backlinks are in the order links were made; the fake's in key order.
                #expect(
                    try f.snapshot.evaluate(q, missingOwnerIsEmpty: false).sorted()
                        == f.fake.evaluate(q, missingOwnerIsEmpty: false))
            }
        }
        #expect(f.snapshot.listsBacklinks(classIndex: f.dog, originClass: f.person, originColumn: dogs))
        #expect(!f.fake.listsBacklinks(classIndex: f.dog, originClass: f.person, originColumn: dogs))
        let keys = try f.fake.keys(classIndex: f.person)
        for (from, end) in [
            (Int64.min, Int64.max), (keys[10].rawValue, keys[20].rawValue), (keys.last!.rawValue + 1, .max),
        ] {
            let expected = keys.filter { $0.rawValue >= from && $0.rawValue < end }
            switch try f.fake.seekObjects(classIndex: f.person, from: from, before: end) {
            case .keys(let found): #expect(found == expected)
            case .none: #expect(expected.isEmpty)
            case .leaf: Issue.record("the fake offers no leaves")
            }
            switch try f.snapshot.seekObjects(classIndex: f.person, from: from, before: end) {
            case .leaf(let leaf, let row): #expect(ObjectKey(leaf.key(at: row)) == expected.first)
            case .none: #expect(expected.isEmpty)
            case .keys: Issue.record("a snapshot offers leaves")
            }
        }
    }
}
