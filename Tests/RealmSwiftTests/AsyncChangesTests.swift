import Foundation
import Testing
import RealmSwift

@Suite struct AsyncChangesTests {
    final class CDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }

    static func add(_ config: Realm.Configuration, _ name: String) throws {
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.add(CDog(value: ["name": name])) }
        }
    }

    /// The sequence is made on a thread of its own (a Realm is confined to its thread, and a task
    /// may resume on another after `await`).
    static func changes(_ config: Realm.Configuration) throws -> RealmChanges<RealmCollectionChange<Results<CDog>>> {
        nonisolated(unsafe) var made: RealmChanges<RealmCollectionChange<Results<CDog>>>?
        try onOtherThread {
            made = try Realm(configuration: config).objects(CDog.self).sorted(byKeyPath: "name").changes()
        }
        return try #require(made)
    }

    @Test func collectionChangesArriveFrozenInOrder() async throws {
        let config = try fileConfig([CDog.self])
        defer { removeFolder(of: config) }
        try Self.add(config, "b")
        let changes = try Self.changes(config)
        var iterator = changes.makeAsyncIterator()
        guard case .initial(let first)? = await iterator.next() else {
            Issue.record("no .initial")
            return
        }
        #expect(first.isFrozen && first.map(\.name) == ["b"])
        try Self.add(config, "a")
        guard case .update(let second, let d, let i, let m)? = await iterator.next() else {
            Issue.record("no .update")
            return
        }
        #expect(second.isFrozen && second.map(\.name) == ["a", "b"] && d == [] && i == [0] && m == [])
        try Self.add(config, "c")
        #expect(first.count == 1 && second.count == 2)  // each element keeps its own version
    }

    @Test func cancellingTheTaskEndsTheLoop() async throws {
        let config = try fileConfig([CDog.self])
        defer { removeFolder(of: config) }
        let changes = try Self.changes(config)
        let seen = Counter()
        let task = Task {
            for await _ in changes { seen.bump() }
            return seen.value
        }
        while seen.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        #expect(await task.value == 1)
        try Self.add(config, "after")  // no delivery to a cancelled loop
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == nil)  // the sequence has ended
    }

    @Test func twoLoopsShareTheChangesAndEndTogether() async throws {
        let config = try fileConfig([CDog.self])
        defer { removeFolder(of: config) }
        let changes = try Self.changes(config)
        let seen = Counter()
        let loop: @Sendable () async -> Void = { for await _ in changes { seen.bump() } }
        let first = Task { await loop() }
        let second = Task { await loop() }
        while seen.value < 1 { try await Task.sleep(for: .milliseconds(5)) }  // .initial, to one loop
        try Self.add(config, "x")
        while seen.value < 2 { try await Task.sleep(for: .milliseconds(5)) }  // the update, to one loop
        first.cancel()  // ends the sequence for both
        await first.value
        await second.value
        #expect(seen.value == 2)
    }

    @Test func objectChangesEndWithDeletion() async throws {
        let config = try fileConfig([CDog.self])
        defer { removeFolder(of: config) }
        try Self.add(config, "rex")
        nonisolated(unsafe) var made: RealmChanges<ObjectChange<CDog>>?
        try onOtherThread { made = try Realm(configuration: config).objects(CDog.self)[0].changes(keyPaths: ["age"]) }
        let changes = try #require(made)
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.objects(CDog.self)[0].name = "ignored" }
            try r.write { r.objects(CDog.self)[0].age = 3 }
        }
        var log: [String] = []
        for await change in changes {
            switch change {
            case .change(let dog, let properties):
                #expect(dog.isFrozen && dog.age == 3)
                log.append(properties.map(\.name).joined())
                try onOtherThread {
                    let r = try Realm(configuration: config)
                    try r.write { r.delete(r.objects(CDog.self)[0]) }
                }
            case .deleted: log.append("deleted")
            case .error(let e): Issue.record(e)
            }
        }
        #expect(log == ["age", "deleted"])
    }
}

extension AsyncChangesTests {
    final class COwner: Object { @Persisted var name = "" }
    final class COwnedDog: Object {
        @Persisted var name = ""
        @Persisted var owner: COwner?
    }

    @Test func objectChangesFollowKeyPathsThroughLinks() async throws {
        let config = try fileConfig([COwner.self, COwnedDog.self])
        defer { removeFolder(of: config) }
        let write: (@escaping @Sendable (Realm) -> Void) throws -> Void = { body in
            try onOtherThread {
                let r = try Realm(configuration: config)
                try r.write { body(r) }
            }
        }
        try write { r in r.create(COwnedDog.self, value: ["name": "Rex", "owner": ["name": "Jim"]]) }
        nonisolated(unsafe) var made: RealmChanges<ObjectChange<COwnedDog>>?
        try onOtherThread {
            made = try Realm(configuration: config).objects(COwnedDog.self)[0].changes(keyPaths: ["owner.name"])
        }
        let changes = try #require(made)
        try write { r in r.objects(COwnedDog.self)[0].name = "ignored" }
        try write { r in r.objects(COwner.self)[0].name = "James" }
        var log: [String] = []
        for await change in changes {
            switch change {
            case .change(let dog, let properties):
                #expect(dog.isFrozen)
                log.append("\(dog.name) \(dog.owner?.name ?? "-") \(properties.map(\.name))")
                try write { r in r.delete(r.objects(COwnedDog.self)[0]) }
            case .deleted: log.append("deleted")
            case .error(let e): Issue.record(e)
            }
        }
        #expect(log == ["ignored James [\"owner.name\"]", "deleted"])
    }
}

/// A counter shared between a test and its task.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func bump() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
