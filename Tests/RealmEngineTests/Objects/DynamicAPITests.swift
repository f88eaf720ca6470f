import Foundation
import Testing
@testable import RealmEngine

@Suite struct DynamicAPITests {
    @Test func createReadReopen() throws {
        let dir = TempDir()
        let path = dir.path("a.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write {
                try realm.create(
                    "Person",
                    value: .dictionary([
                        "id": .value(.int(1)), "name": .value(.string("张三")),
                        "dogs": .array([
                            .dictionary(["name": .value(.string("大黄")), "tags": .array([.value(.string("a"))])])
                        ]),
                    ]))
                try realm.create(
                    "Person",
                    value: .array([.value(.int(2)), .value(.string("李四")), .value(.int(30)), .array([]), .value(.null)])
                )
            }
            #expect(try realm.objects("Person").count == 2)
            #expect(try realm.objects("Dog").count == 1)
        }
        let realm = try Realm(path: path)
        let people = try realm.objects("Person")
        #expect(people.count == 2)
        let p1 = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(1)))
        #expect(p1["name"] == .string("张三"))
        #expect(p1["age"] == .null)
        let dog = try p1.list(forKey: "dogs").object(at: 0)
        #expect(dog["name"] == .string("大黄"))
        #expect(dog["age"] == .int(1))
        #expect(dog["tags"] == .list([.string("a")]))
        #expect(try dog.linkingObjects(forKey: "owners").keys() == [p1.key])
    }

    @Test func upsertIsPartialAndDuplicateKeyIsAnError() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("b.realm"), schema: Fixtures.people)
        try realm.write {
            try realm.create("Person", ["id": .int(1), "name": .string("a"), "age": .int(5)])
        }
        #expect(throws: RealmError.self) {
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("b")]) }
        }
        try realm.write { try realm.create("Person", ["id": .int(1), "age": .null], update: .modified) }
        let p = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(1)))
        #expect(p["name"] == .string("a"))
        #expect(p["age"] == .null)
    }

    @Test func deleteNullifiesLinksAndRemovesFromLists() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("c.realm"), schema: Fixtures.people)
        try realm.write {
            let d = try realm.create("Dog", ["name": .string("rex")])
            try realm.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(1)), "name": .value(.string("a")),
                    "dogs": .value(.list([.link(d.key), .link(d.key)])), "best": .value(.link(d.key)),
                ]))
        }
        let p = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(1)))
        #expect(try p.list(forKey: "dogs").count == 2)
        let dog = try #require(try realm.objects("Dog").first)
        #expect(try dog.linkingObjects(forKey: "owners").count == 2)
        try realm.write { try realm.delete(dog) }
        #expect(dog.isInvalidated)
        #expect(p["best"] == .null)
        #expect(try p.list(forKey: "dogs").count == 0)
    }

    @Test func manyObjectsSplitLeavesAndSurviveReopen() throws {
        let dir = TempDir()
        let path = dir.path("d.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write {
                for i in 0..<3000 {
                    try realm.create(
                        "Person", ["id": .int(Int64(i)), "name": .string("n\(i)"), "age": .int(Int64(i % 90))])
                }
            }
            try realm.write {
                for i in stride(from: 0, to: 3000, by: 2) {
                    try realm.delete(try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i)))))
                }
            }
        }
        let realm = try Realm(path: path)
        #expect(try realm.objects("Person").count == 1500)
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(2999))?["name"] == .string("n2999"))
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(2998)) == nil)
        #expect(try realm.objects("Person").object(at: 1499)["id"] == .int(2999))
    }
}

@Suite struct SearchIndexTests {
    @Test func equalValuesSpanningManyIndexLeavesAreAllFound() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "idx-\(UUID())", schema: Fixtures.people))
        try realm.beginWrite()
        for i in 0..<3000 {
            let name = i < 1300 ? "same" : "n\(i % 7)"
            try realm.create("Person", ["id": .int(Int64(i)), "name": .string(name)])
        }
        func check() throws {
            let same = try realm.objects("Person").filter("name == 'same'")
            #expect(same.planDescription.contains("index"))
            #expect(try same.keys().count == 1300)
            #expect(
                try realm.objects("Person").filter("name == 'n3'").keys().count
                    == (1300..<3000).filter { $0 % 7 == 3 }.count)
            #expect(
                try realm.objects("Person").filter("name IN {'n1', 'n2'}").keys().count
                    == (1300..<3000).filter { $0 % 7 == 1 || $0 % 7 == 2 }.count)
            #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(2999))?["id"] == .int(2999))
        }
        try check()
        try realm.commitWrite()
        try check()
        _ = try realm.checkIntegrity()
    }
}

/// Sort and distinct on results apply in the order they were called.
@Suite struct ResultsOrderingTests {
    /// `distinct` then `sorted` keeps the first object of each value in the order before the
    /// sort, then sorts (as Realm applies them in call order); `sorted` then `distinct` keeps the
    /// first of each in the sorted order.
    @Test func distinctAndSortApplyInTheOrderCalled() throws {
        let schema = Schema([
            ObjectSchema(
                name: "Dog",
                properties: [
                    Property(name: "name", type: .string), Property(name: "color", type: .string),
                    Property(name: "age", type: .int),
                ])
        ])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "order-\(UUID().uuidString)", schema: schema))
        try realm.write {
            for (name, color, age) in [("a", "red", 5), ("b", "red", 1), ("c", "blue", 3)] {
                try realm.create("Dog", ["name": .string(name), "color": .string(color), "age": .int(Int64(age))])
            }
        }
        func names(_ results: Results) throws -> [String] {
            try results.keys().map { key in
                guard case .string(let name) = try realm.object(ofType: "Dog", key: key)?.value(forKey: "name") else {
                    return "?"
                }
                return name
            }
        }
        let dogs = try realm.objects("Dog")
        #expect(try names(dogs.distinct(by: ["color"]).sorted(byKeyPath: "age")) == ["c", "a"])
        #expect(try names(dogs.sorted(byKeyPath: "age").distinct(by: ["color"])) == ["b", "c"])
        #expect(try dogs.distinct(by: ["color"]).sorted(byKeyPath: "age").checkedCount() == 2)
    }

    /// A limit keeps at most that many of what an earlier limit kept.
    @Test func aSecondLimitNeverWidensTheFirst() throws {
        let schema = Schema([ObjectSchema(name: "Dog", properties: [Property(name: "age", type: .int)])])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "limits-\(UUID().uuidString)", schema: schema))
        try realm.write { for age in 0..<20 { try realm.create("Dog", ["age": .int(Int64(age))]) } }
        let dogs = try realm.objects("Dog")
        #expect(try dogs.limit(5).limit(10).checkedCount() == 5)
        #expect(try dogs.limit(10).limit(5).checkedCount() == 5)
        #expect(try dogs.limit(5).keys() == dogs.limit(5).limit(10).keys())
    }

    /// Five dogs, in this key order: (x, 5), (a, 1), (x, 4), (b, 2), (c, 3).
    static func fiveDogs() throws -> (Realm, Results) {
        let schema = Schema([
            ObjectSchema(
                name: "Dog",
                properties: [
                    Property(name: "name", type: .string), Property(name: "age", type: .int),
                ])
        ])
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "descriptors-\(UUID().uuidString)", schema: schema))
        try realm.write {
            for (name, age) in [("x", 5), ("a", 1), ("x", 4), ("b", 2), ("c", 3)] {
                try realm.create("Dog", ["name": .string(name), "age": .int(Int64(age))])
            }
        }
        return (realm, try realm.objects("Dog"))
    }

    /// The ages of `results`, in order.
    static func ages(_ results: Results) throws -> [Int64] {
        try results.keys().map { key in
            guard case .int(let age) = try results.realm.object(ofType: "Dog", key: key)?.value(forKey: "age") else {
                return -1
            }
            return age
        }
    }

    /// A sort or distinct after a limit orders or thins what the limit kept (Realm applies
    /// them in the order called); before, the sort ran first and the limit took the youngest.
    @Test func aSortOrDistinctAfterALimitWorksOnWhatTheLimitKept() throws {
        let (_, dogs) = try Self.fiveDogs()
        #expect(try Self.ages(dogs.limit(3).sorted(byKeyPath: "age")) == [1, 4, 5])
        #expect(try Self.ages(dogs.sorted(byKeyPath: "age").limit(3)) == [1, 2, 3])
        #expect(try Self.ages(dogs.limit(3).distinct(by: ["name"])) == [5, 1])
        #expect(try Self.ages(dogs.distinct(by: ["name"]).limit(3)) == [5, 1, 2])
        #expect(try dogs.limit(3).sorted(byKeyPath: "age").checkedCount() == 3)
        #expect(try dogs.limit(3).distinct(by: ["name"]).checkedCount() == 2)
    }

    /// A second sort is the most significant and the first breaks its ties (Realm Core merges
    /// consecutive sorts so); before, the second replaced the first.
    @Test func aSecondSortKeepsTheFirstForTies() throws {
        let (_, dogs) = try Self.fiveDogs()
        #expect(try Self.ages(dogs.sorted(byKeyPath: "age").sorted(byKeyPath: "name")) == [1, 2, 3, 4, 5])
        #expect(
            try Self.ages(dogs.sorted(byKeyPath: "age", ascending: false).sorted(byKeyPath: "name")) == [1, 2, 3, 5, 4])
        #expect(
            try dogs.sorted(byKeyPath: "age").sorted(byKeyPath: "name").sortDescriptors.map(\.keyPath) == [
                "name", "age",
            ])
        // Sorting again by the same key path replaces it.
        #expect(
            try Self.ages(dogs.sorted(byKeyPath: "age").sorted(byKeyPath: "age", ascending: false)) == [5, 4, 3, 2, 1])
    }

    /// A predicate is a condition on every object, whenever it was added; its SORT, DISTINCT and
    /// LIMIT follow whatever ordering came before (Realm ANDs the query and appends the
    /// descriptors). Before, a LIMIT inside a first filter cut before a later filter ran, and a
    /// LIMIT inside a filter cut before an earlier sort.
    @Test func aFiltersOrderingClausesFollowEarlierOnesAndItsConditionAppliesToAll() throws {
        let (_, dogs) = try Self.fiveDogs()
        #expect(try Self.ages(dogs.filter("age > 0 LIMIT(2)").filter("name == 'x'")) == [5, 4])
        #expect(try Self.ages(dogs.sorted(byKeyPath: "age").filter("TRUEPREDICATE LIMIT(2)")) == [1, 2])
        #expect(try Self.ages(dogs.limit(2).filter("age < 5")) == [1, 4])
        #expect(try Self.ages(dogs.filter("age > 1 SORT(age DESC) LIMIT(3)").sorted(byKeyPath: "age")) == [3, 4, 5])
        #expect(try dogs.filter("age > 0 LIMIT(2)").filter("name == 'x'").checkedCount() == 2)
    }
}
