import Foundation
import Testing
@testable import RealmEngine

/// `Results.Iterator`: a whole class walked leaf by leaf, objects created on demand, and what
/// iteration visits when the Realm changes under it.
@Suite struct ResultsIteratorTests {
    /// A file Realm with `count` people (id i, age i % 90), committed.
    private func people(_ count: Int, in dir: TempDir) throws -> Realm {
        let realm = try Realm(path: dir.path("i.realm"), schema: Fixtures.people)
        try realm.write {
            for i in 0..<count {
                try realm.create(
                    "Person", ["id": .int(Int64(i)), "name": .string("n\(i)"), "age": .int(Int64(i % 90))])
            }
        }
        return realm
    }

    private func ids(_ objects: [DynamicObject]) throws -> [Int64] {
        try objects.map { o in
            guard case .int(let id) = try o.value(forKey: "id") else { throw RealmError.invalidatedObject }
            return id
        }
    }

    @Test func visitsEveryObjectOfEveryLeafInKeyOrder() throws {
        let dir = TempDir()
        let realm = try people(3000, in: dir)
        let leaves = try #require(try realm.readView.leafViews(classIndex: realm.classIndex("Person")))
        #expect(leaves.count > 1)
        var seen: [Int64] = []
        var ageSum: Int64 = 0
        for person in try realm.objects("Person") {
            guard case .int(let id) = try person.value(forKey: "id"),
                case .int(let age) = try person.value(forKey: "age")
            else {
                Issue.record("not ints")
                continue
            }
            #expect(age == id % 90)
            #expect(try person.value(forKey: "name") == .string("n\(id)"))
            seen.append(id)
            ageSum += age
        }
        #expect(seen == (0..<3000).map { Int64($0) })
        #expect(ageSum == (0..<3000).reduce(0) { $0 + Int64($1 % 90) })
    }

    @Test func iteratedObjectsStayLive() throws {
        let dir = TempDir()
        let realm = try people(500, in: dir)
        let kept = Array(try realm.objects("Person"))
        try realm.write { try kept[7].setValue(.int(1234), forKey: "age") }
        #expect(try kept[7].value(forKey: "age") == .int(1234))
        try realm.write { try realm.delete(kept[8]) }
        #expect(throws: RealmError.invalidatedObject) { try kept[8].value(forKey: "age") }
        #expect(kept[8].isInvalidated)
        #expect(try kept[9].value(forKey: "id") == .int(9))
        // Unknown names and linking-objects properties still resolve through the slow path.
        #expect(throws: RealmError.self) { try kept[9].value(forKey: "nope") }
    }

    /// Every step is its own object: objects the loop keeps (every third here, plus ones inside
    /// other structures) keep their own key, row and values, and are distinct instances.
    @Test func keptObjectsAreNeverReused() throws {
        let dir = TempDir()
        let realm = try people(1200, in: dir)
        var kept: [DynamicObject] = []
        var byKey: [ObjectKey: DynamicObject] = [:]
        var instances = Set<ObjectIdentifier>()
        var visited = 0
        for person in try realm.objects("Person") {
            visited += 1
            guard case .int(let id) = try person.value(forKey: "id") else {
                Issue.record("no id")
                continue
            }
            #expect(try person.value(forKey: "age") == .int(id % 90))
            if id % 3 == 0 {
                kept.append(person)
                instances.insert(ObjectIdentifier(person))
            }
            if id % 100 == 1 { byKey[person.key] = person }
        }
        #expect(visited == 1200)
        #expect(kept.count == 400)
        #expect(instances.count == 400)
        #expect(try ids(kept) == stride(from: 0, to: 1200, by: 3).map { Int64($0) })
        for (key, object) in byKey {
            #expect(object.key == key)
            guard case .int(let id) = try object.value(forKey: "id") else {
                Issue.record("no id")
                continue
            }
            #expect(id % 100 == 1)
            #expect(try object.value(forKey: "name") == .string("n\(id)"))
        }
        // Objects collected by the standard library (which keeps each) are all distinct.
        let all = Array(try realm.objects("Person"))
        #expect(Set(all.map(ObjectIdentifier.init)).count == 1200)
        #expect(try ids(all) == (0..<1200).map { Int64($0) })
    }

    /// An object the loop let go of is never handed out again as another object: a weak
    /// reference to it is either gone or still names the object it was made for (the walk used
    /// to reuse such objects for later steps).
    @Test func anObjectTheLoopDroppedNeverBecomesAnotherObject() throws {
        final class WeakObject {
            weak var object: DynamicObject?
            init(_ o: DynamicObject) { object = o }
        }
        let dir = TempDir()
        let realm = try people(500, in: dir)
        var previous: (WeakObject, ObjectKey)?
        var steps = 0
        for person in try realm.objects("Person") {
            steps += 1
            if let (weak, key) = previous, let object = weak.object {
                #expect(object.key == key)
                #expect(object !== person)
            }
            previous = (WeakObject(person), person.key)
        }
        #expect(steps == 500)
    }

    @Test func objectsDeletedDuringIterationAreSkipped() throws {
        let dir = TempDir()
        let realm = try people(3000, in: dir)
        var visited: [DynamicObject] = []
        for person in try realm.objects("Person") {
            visited.append(person)
            if visited.count == 100 {
                // Deletes this object and the next 900, spanning leaves.
                try realm.write {
                    for i in 99..<1000 {
                        try realm.delete(
                            try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i)))))
                    }
                }
            }
        }
        #expect(visited.count == 100 + 2000)
        #expect(visited[99].isInvalidated)
        #expect(try ids(Array(visited[100...])) == (1000..<3000).map { Int64($0) })
    }

    @Test func objectsCreatedDuringIterationAreNotVisited() throws {
        let dir = TempDir()
        let realm = try people(300, in: dir)
        var visited = 0
        try realm.write {
            for person in try realm.objects("Person") {
                visited += 1
                guard case .int(let id) = try person.value(forKey: "id") else { continue }
                try realm.create("Person", ["id": .int(10_000 + id), "name": .string("new")])
            }
        }
        #expect(visited == 300)
        #expect(try realm.objects("Person").count == 600)
    }

    @Test func iterationInsideAWriteTransactionSeesItsChanges() throws {
        let dir = TempDir()
        let realm = try people(2000, in: dir)
        try realm.beginWrite()
        try realm.delete(try realm.objects("Person").filter("id < 1000"))
        var visited: [Int64] = []
        for person in try realm.objects("Person") {
            guard case .int(let id) = try person.value(forKey: "id") else { continue }
            visited.append(id)
            if id % 2 == 0 { try realm.delete(person) }  // every other one, as it goes
        }
        try realm.commitWrite()
        #expect(visited == (1000..<2000).map { Int64($0) })
        #expect(try realm.objects("Person").count == 500)
    }

    @Test func filteredResultsKeepTheirKeysAndHandOutDeletedObjectsInvalidated() throws {
        let dir = TempDir()
        let realm = try people(100, in: dir)
        var states: [Bool] = []
        for person in try realm.objects("Person").filter("id < 10") {
            states.append(person.isInvalidated)
            if states.count == 1 {
                try realm.write {
                    try realm.delete(try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(5))))
                }
            }
        }
        #expect(states.count == 10)
        #expect(states.filter { $0 }.count == 1)
        #expect(states[5])
    }

    @Test func emptyClassAndRefreshMidIteration() throws {
        let dir = TempDir()
        let realm = try people(0, in: dir)
        #expect(Array(try realm.objects("Person")).isEmpty)
        try realm.write {
            for i in 0..<50 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("n")]) }
        }
        var n = 0
        for _ in try realm.objects("Person") {
            n += 1
            _ = realm.refresh()
        }
        #expect(n == 50)
    }

    @Test func iteratedObjectsRefuseOtherThreads() throws {
        let dir = TempDir()
        let realm = try people(10, in: dir)
        let first = try #require(Array(try realm.objects("Person")).first)
        #expect(try first.value(forKey: "id") == .int(0))
        let box = UncheckedBox(first)
        #expect(outcomeOnAnotherThread { _ = try box.value.value(forKey: "id") } == "wrongThread")
    }

    /// An object nobody holds any more is recycled for the next step, invisibly: one object for
    /// a loop that keeps nothing; what a loop keeps, or references weakly or unowned, stays the
    /// object it was.
    @Test func recyclesOnlyObjectsNobodyHolds() throws {
        let dir = TempDir()
        let realm = try people(2000, in: dir)
        var identities = Set<ObjectIdentifier>()
        var count = 0
        for person in try realm.objects("Person") {
            identities.insert(ObjectIdentifier(person))
            count += 1
        }
        #expect(count == 2000 && identities.count == 1)

        var kept: [DynamicObject] = []
        for person in try realm.objects("Person") where kept.count < 500 { kept.append(person) }
        #expect(try ids(kept) == Array(0..<500))
        #expect(Set(kept.map(ObjectIdentifier.init)).count == 500)

        final class Weak {
            weak var object: DynamicObject?
            init(_ o: DynamicObject) { object = o }
        }
        final class Unowned {
            unowned let object: DynamicObject
            init(_ o: DynamicObject) { object = o }
        }
        var weakOnes: [(Int64, Weak)] = []
        var unownedOnes: [(Int64, Unowned)] = []
        var alive: [DynamicObject] = []  // keeps the unowned targets alive
        for (i, person) in try realm.objects("Person").enumerated() where i < 50 {
            weakOnes.append((Int64(i), Weak(person)))
            if i < 10 {
                alive.append(person)
                unownedOnes.append((Int64(i), Unowned(person)))
            }
        }
        for (id, box) in weakOnes { if let o = box.object { #expect(try o.value(forKey: "id") == .int(id)) } }
        for (id, box) in unownedOnes { #expect(try box.object.value(forKey: "id") == .int(id)) }
        #expect(alive.count == 10)
    }

    /// A recycled object moved to the next row in place (`ObjectAccessor.rewalk`) reads that
    /// row, across leaves, and after the Realm changed under the loop (its position then comes
    /// from a lookup by key, so the next step must not keep it).
    @Test func aRecycledObjectReadsItsNewRowAcrossLeavesAndWrites() throws {
        let dir = TempDir()
        let realm = try people(3000, in: dir)
        var identities = Set<ObjectIdentifier>()
        var seen: [Int64] = []
        for person in try realm.objects("Person") {
            identities.insert(ObjectIdentifier(person))
            guard case .int(let id) = try person.value(forKey: "id") else {
                Issue.record("no id")
                continue
            }
            #expect(try person.value(forKey: "age") == .int(id % 90))
            if id % 700 == 5 {
                // A write moves the Realm on: this object is found again by key (twice, so it
                // keeps an anchor of its own), and the walk goes on in the new state.
                try realm.write { try person.setValue(.string("w\(id)"), forKey: "name") }
                #expect(try person.value(forKey: "name") == .string("w\(id)"))
                #expect(try person.value(forKey: "age") == .int(id % 90))
            } else {
                #expect(try person.value(forKey: "name") == .string("n\(id)"))
            }
            seen.append(id)
        }
        #expect(seen == (0..<3000).map { Int64($0) })
        #expect(identities.count == 1)
    }
}
