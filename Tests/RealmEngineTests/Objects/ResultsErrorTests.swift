import Foundation
import Testing
@testable import RealmEngine

/// An error never reads as an answer: with a damaged leaf, the throwing members throw, and the
/// non-throwing ones (`count`, `isEmpty`, `first`, `last`, iteration, notifications) record the
/// failure in `Results.error` instead of passing "no objects" off as the truth.
@Suite struct ResultsErrorTests {
    static func damagedRealm(_ dir: TempDir) throws -> Realm {
        let path = dir.path("bad.realm")
        try NodeVerificationTests.makeFile(path)
        try NodeVerificationTests.damage(path)
        return try Realm(path: path)
    }

    static func isCorrupt(_ error: RealmError?) -> Bool {
        if case .corruptFile = error { return true }
        return false
    }

    @Test func theNonThrowingSurfaceRecordsTheFailure() throws {
        let dir = TempDir()
        let realm = try Self.damagedRealm(dir)
        let results = try realm.objects("Person").filter("age >= 0")
        #expect(results.error == nil)
        #expect(results.count == 0)
        #expect(Self.isCorrupt(results.error), "count: \(String(describing: results.error))")
        let fresh = try realm.objects("Person").filter("age >= 0")
        #expect(fresh.isEmpty)
        #expect(Self.isCorrupt(fresh.error), "isEmpty")
        let first = try realm.objects("Person").filter("age >= 0")
        #expect(first.first == nil)
        #expect(Self.isCorrupt(first.error), "first")
        let last = try realm.objects("Person").sorted(byKeyPath: "age")
        #expect(last.last == nil)
        #expect(Self.isCorrupt(last.error), "last")
    }

    @Test func theThrowingVariantsThrow() throws {
        let dir = TempDir()
        let realm = try Self.damagedRealm(dir)
        let results = try realm.objects("Person").filter("age >= 0")
        #expect(throws: RealmError.self) { _ = try results.checkedCount() }
        #expect(throws: RealmError.self) { _ = try results.checkedIsEmpty() }
        #expect(throws: RealmError.self) { _ = try results.checkedFirst() }
        #expect(throws: RealmError.self) { _ = try results.checkedLast() }
    }

    @Test func iterationStopsAndRecordsTheFailure() throws {
        let dir = TempDir()
        let realm = try Self.damagedRealm(dir)
        let all = try realm.objects("Person")
        var seen = 0
        for _ in all { seen += 1 }
        #expect(seen < 1001)
        #expect(Self.isCorrupt(all.error), "iteration: \(String(describing: all.error))")
        let filtered = try realm.objects("Person").filter("age >= 0")
        for _ in filtered { seen += 1 }
        #expect(Self.isCorrupt(filtered.error))
    }

    @Test func aGoodEvaluationClearsTheError() throws {
        let dir = TempDir()
        let path = dir.path("good.realm")
        try NodeVerificationTests.makeFile(path)
        let realm = try Realm(path: path)
        let results = try realm.objects("Person").filter("age >= 0")
        results.error = .closed
        #expect(results.count == 1001)
        #expect(results.error == nil)
        #expect(try results.checkedFirst() != nil)
    }

    @Test func aNotificationDeliversTheFailure() throws {
        let dir = TempDir()
        let realm = try Self.damagedRealm(dir)
        let results = try realm.objects("Person").filter("age >= 0")
        nonisolated(unsafe) var delivered: String?
        let token = results.observe { change in
            switch change {
            case .initial: delivered = "initial"
            case .update: delivered = "update"
            case .error(let error): delivered = "error \(error)"
            }
        }
        defer { token.invalidate() }
        pumpRunLoop { delivered != nil }
        #expect(delivered?.hasPrefix("error") == true, "\(String(describing: delivered))")
        #expect(Self.isCorrupt(results.error))
    }

    /// A list whose owner's leaf is damaged counts 0 only with its `error` set.
    @Test func aListRecordsTheFailureToo() throws {
        let dir = TempDir()
        let path = dir.path("list.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try NodeVerificationTests.addPeopleWithADogEach(realm, count: 50)
            // A later small commit, so the damaged leaf is not in the newest commit.
            try realm.write { _ = try realm.create("Dog", ["name": .string("stray")]) }
            #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(7))?.list(forKey: "dogs").count == 1)
        }
        try NodeVerificationTests.damage(path)
        let realm = try Realm(path: path)
        // The owner by key (object key 7), without reading its leaf.
        let owner = DynamicObject(realm: realm, classIndex: try realm.classIndex("Person"), key: ObjectKey(7))
        let dogs = try owner.list(forKey: "dogs")
        #expect(dogs.count == 0)
        #expect(Self.isCorrupt(dogs.error), "\(String(describing: dogs.error))")
    }

    /// A date has a smallest and a largest value but no sum or average: asking is an error, not
    /// 0 (dates counted as no number).
    @Test func sumAndAverageOfADateAreErrorsNotZero() throws {
        let schema = Schema([ObjectSchema(name: "Event", properties: [Property(name: "at", type: .date)])])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "dates-\(UUID().uuidString)", schema: schema))
        try realm.write {
            for seconds in [1_000, 2_000] {
                try realm.create("Event", ["at": .date(Timestamp(seconds: Int64(seconds)))])
            }
        }
        let events = try realm.objects("Event")
        #expect(try events.min(ofProperty: "at") == .date(Timestamp(seconds: 1_000)))
        #expect(try events.max(ofProperty: "at") == .date(Timestamp(seconds: 2_000)))
        #expect(throws: RealmError.self) { try events.sum(ofProperty: "at") }
        #expect(throws: RealmError.self) { try events.average(ofProperty: "at") }
    }

    /// An integer sum past 64 bits is an error from `sum`, and in a query compares as the
    /// (double) sum it is; it wrapped to a large negative number before.
    @Test func anIntegerSumPast64BitsIsNotWrapped() throws {
        let schema = Schema([
            ObjectSchema(
                name: "Account",
                properties: [
                    Property(name: "balance", type: .int), Property(name: "entries", type: .int, isList: true),
                ])
        ])
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "sums-\(UUID().uuidString)", schema: schema))
        try realm.write {
            try realm.create("Account", ["balance": .int(.max), "entries": .list([.int(.max), .int(.max)])])
            try realm.create("Account", ["balance": .int(1), "entries": .list([.int(1), .int(2)])])
        }
        let accounts = try realm.objects("Account")
        #expect(throws: RealmError.self) { try accounts.sum(ofProperty: "balance") }
        #expect(try accounts.filter("entries.@sum > 0").count == 2)
        #expect(try accounts.filter("entries.@sum > 9223372036854775807").count == 1)
        #expect(try accounts.filter("entries.@sum == 3").count == 1)
    }
}
