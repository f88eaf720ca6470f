import Foundation
import Testing

@testable import RealmEngine

/// The notifier's change computation on a second `ReadableVersion`: the same commit seen as two
/// engine snapshots and as two `InMemoryVersion` copies of them. The fake keeps no change
/// records, so its collection change sets are the engine's for a trimmed change log: the same
/// keys, deletions and insertions, and every object still in the result counted as modified.
@Suite struct ReadableVersionNotificationTests {
    /// Before and after one commit that inserts, deletes, modifies and re-links objects: the
    /// engine's snapshots (the old one pinned by a frozen instance) and in-memory copies.
    final class Commit {
        let realm: Realm
        let frozen: Realm
        let old: Snapshot
        let new: Snapshot
        let oldFake: InMemoryVersion
        let newFake: InMemoryVersion
        let person: Int

        init() throws {
            let realm = try Realm(configuration: .init(inMemoryIdentifier: UUID().uuidString, schema: Fixtures.people))
            self.realm = realm
            try realm.write {
                let dogs = try (0..<10).map { i in
                    try realm.create("Dog", ["name": .string("dog\(i)"), "age": .int(Int64(i))])
                }
                for i in 0..<60 {
                    let age: Value = i % 7 == 0 ? .null : .int(Int64((i * 37) % 50))
                    try realm.create(
                        "Person",
                        value: .dictionary([
                            "id": .value(.int(Int64(i))), "name": .value(.string("p\(i % 13)")),
                            "age": .value(age), "dogs": .array([.value(.link(dogs[i % 10].key))]),
                            "best": .value(.link(dogs[(i + 3) % 10].key)),
                        ]))
                }
            }
            frozen = try realm.freeze()
            old = try frozen.readView
            try realm.write {
                try realm.delete(try realm.objects("Person").filter("id IN {4, 17, 33}"))
                try realm.objects("Person").filter("id IN {5, 20, 41}").setValue(.value(.int(99)), forKey: "age")
                try realm.objects("Dog").filter("name == 'dog2'").setValue(.value(.int(40)), forKey: "age")
                for i in 100..<104 {
                    try realm.create("Person", ["id": .int(Int64(i)), "name": .string("new\(i)"), "age": .int(25)])
                }
            }
            new = try realm.readView
            oldFake = try InMemoryVersion(copying: old)
            newFake = try InMemoryVersion(copying: new)
            person = try realm.classIndex("Person")
        }
    }

    static let queries: [(String, [RealmEngine.SortDescriptor])] = [
        ("TRUEPREDICATE", []),
        ("age > 20", []),
        ("age > 20", [RealmEngine.SortDescriptor(keyPath: "age")]),
        ("name BEGINSWITH 'p1'", [RealmEngine.SortDescriptor(keyPath: "name", ascending: false)]),
        ("ANY dogs.age > 1", []),
        ("best.age >= 5", [RealmEngine.SortDescriptor(keyPath: "age")]),
    ]

    @Test func collectionChangesOnTheFakeAreTheEnginesForAnUnknownLog() throws {
        let commit = try Commit()
        for (predicate, sort) in Self.queries {
            var results = try commit.realm.objects("Person").filter(predicate)
            if !sort.isEmpty { results = try results.sorted(by: sort) }
            let spec = results.query
            let native = Registration(kind: .collection(spec), schema: Fixtures.people) { _, _, _ in }
            let fake = Registration(kind: .collection(spec), schema: Fixtures.people) { _, _, _ in }
            let (nativeChange, nativeKeys) = native.compute(
                from: .init(version: commit.old.version, pin: nil, keys: nil, held: commit.old), to: commit.new)
            let (fakeChange, fakeKeys) = fake.compute(
                from: .init(version: commit.oldFake.version, pin: nil, keys: nil, held: commit.oldFake),
                to: commit.newFake)
            guard case .collection(let n) = nativeChange, case .collection(let f) = fakeChange else {
                Issue.record("\(predicate): not collection changes: \(nativeChange), \(fakeChange)")
                continue
            }
            #expect(fakeKeys == nativeKeys, "\(predicate) \(sort)")
            #expect(f.deletions == n.deletions, "\(predicate) \(sort)")
            #expect(f.insertions == n.insertions, "\(predicate) \(sort)")
            // No change records: every object of the old result still in the new one may have
            // changed, as the engine says when its log was trimmed.
            let oldKeys = try commit.oldFake.evaluate(spec, missingOwnerIsEmpty: true)
            let kept = Set(fakeKeys)
            #expect(f.modifications == oldKeys.indices.filter { kept.contains(oldKeys[$0]) }, "\(predicate)")
            #expect(Set(n.modifications).isSubset(of: Set(f.modifications)), "\(predicate)")
            #expect(fake.fullEvaluations == 1, "\(predicate): the fake's result is run again")
        }
    }

    @Test func objectChangesOnTheFakeAreTheEngines() throws {
        let commit = try Commit()
        for id in [5, 6, 20, 33] as [Int64] {
            let key = try #require(try commit.frozen.object(ofType: "Person", forPrimaryKey: .int(id))?.key)
            let native = Registration(kind: .object(classIndex: commit.person, key: key), schema: Fixtures.people) {
                _, _, _ in
            }
            let fake = Registration(kind: .object(classIndex: commit.person, key: key), schema: Fixtures.people) {
                _, _, _ in
            }
            let (n, _) = native.compute(
                from: .init(version: commit.old.version, pin: nil, keys: [], held: commit.old), to: commit.new)
            let (f, _) = fake.compute(
                from: .init(version: commit.oldFake.version, pin: nil, keys: [], held: commit.oldFake),
                to: commit.newFake)
            #expect(String(describing: f) == String(describing: n), "person \(id)")
        }
    }

    @Test func aFirstComputationOnTheFakeRunsTheQueryThere() throws {
        let commit = try Commit()
        let spec = try commit.realm.objects("Person").filter("age > 20").sorted(byKeyPath: "age").query
        let registration = Registration(kind: .collection(spec), schema: Fixtures.people) { _, _, _ in }
        let (change, keys) = registration.compute(from: nil, to: commit.newFake)
        guard case .initial = change else {
            Issue.record("not initial: \(change)")
            return
        }
        #expect(keys == (try spec.evaluate(in: commit.new, missingOwnerIsEmpty: true)))
    }
}
