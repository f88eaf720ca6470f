import Foundation
import Testing
import RealmEngine

/// `Realm.commitSummaries(after:)`: per commit and class, the counts and the keys of the objects
/// created and modified (what the explorer's changes pane lists).
@Suite struct CommitSummaryTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Dog",
            properties: [
                Property(name: "name", type: .string),
                Property(name: "age", type: .int),
            ]),
        ObjectSchema(name: "Cat", properties: [Property(name: "name", type: .string)]),
    ])

    @Test func eachCommitListsItsCreatedAndModifiedKeysPerClass() throws {
        let scratch = TempDir("commit-summary")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        let path = folder.appendingPathComponent("s.realm").path
        let writer = try Realm(path: path, schema: Self.schema)
        var dogs: [DynamicObject] = []
        try writer.write {
            for i in 0..<5 { dogs.append(try writer.create("Dog", ["name": .string("d\(i)"), "age": .int(Int64(i))])) }
        }
        let reader = try Realm(path: path)
        let start = reader.version
        var created: DynamicObject?
        try writer.write {
            created = try writer.create("Dog", ["name": .string("new"), "age": .int(9)])
            try dogs[1].setValue(.int(10), forKey: "age")
            try writer.delete(dogs[2])
        }
        try writer.write { _ = try writer.create("Cat", ["name": .string("tom")]) }
        #expect(reader.refresh())
        let summaries = try #require(try reader.commitSummaries(after: start))
        #expect(summaries.map(\.version) == [start + 1, start + 2])
        let dog = try #require(summaries[0].classes.first)
        #expect(summaries[0].classes.count == 1 && dog.className == "Dog")
        #expect(dog.inserted == 1 && dog.deleted == 1 && dog.modified == 1)
        let newKey = try #require(created?.key)
        #expect(dog.insertedKeys == [newKey])
        #expect(dog.touchedKeys == [dogs[1].key, newKey].sorted { $0.rawValue < $1.rawValue })
        #expect(summaries[1].classes.map(\.className) == ["Cat"])
        #expect(summaries[1].classes.first?.insertedKeys.count == 1)
        #expect(summaries[1].classes.first?.touchedKeys == summaries[1].classes.first?.insertedKeys)
    }
}
