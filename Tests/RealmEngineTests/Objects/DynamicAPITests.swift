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
                try realm.create("Person", value: .dictionary([
                    "id": .value(.int(1)), "name": .value(.string("张三")),
                    "dogs": .array([.dictionary(["name": .value(.string("大黄")), "tags": .array([.value(.string("a"))])])]),
                ]))
                try realm.create("Person", value: .array([.value(.int(2)), .value(.string("李四")), .value(.int(30)), .array([]), .value(.null)]))
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
            try realm.create("Person", value: .dictionary([
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
                    try realm.create("Person", ["id": .int(Int64(i)), "name": .string("n\(i)"), "age": .int(Int64(i % 90))])
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
            #expect(try realm.objects("Person").filter("name == 'n3'").keys().count == (1300..<3000).filter { $0 % 7 == 3 }.count)
            #expect(try realm.objects("Person").filter("name IN {'n1', 'n2'}").keys().count == (1300..<3000).filter { $0 % 7 == 1 || $0 % 7 == 2 }.count)
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
        let schema = Schema([ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string), Property(name: "color", type: .string), Property(name: "age", type: .int),
        ])])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "order-\(UUID().uuidString)", schema: schema))
        try realm.write {
            for (name, color, age) in [("a", "red", 5), ("b", "red", 1), ("c", "blue", 3)] {
                try realm.create("Dog", ["name": .string(name), "color": .string(color), "age": .int(Int64(age))])
            }
        }
        func names(_ results: Results) throws -> [String] {
            try results.keys().map { key in
                guard case .string(let name) = try realm.object(ofType: "Dog", key: key)?.value(forKey: "name") else { return "?" }
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
}
