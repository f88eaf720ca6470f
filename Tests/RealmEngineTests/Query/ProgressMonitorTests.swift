import Foundation
@testable import RealmEngine
import Testing

/// Long reads report progress to a `ProgressMonitor` and stop when it cancels (issue 29, item 15).
@Suite struct ProgressMonitorTests {
    /// 12,300 people, each with a best dog among 1,000 (an OR of comparisons through a link
    /// evaluates object by object, reporting every `ProgressMonitor.stride` objects; a single
    /// comparison through links is answered from the far end, `LinkPlan`).
    private func realm(_ dir: TempDir) throws -> Realm {
        let realm = try Realm(path: dir.path("progress.realm"), schema: Fixtures.people)
        try realm.write {
            var dogs: [ObjectKey] = []
            for index in 0..<1000 {
                dogs.append(
                    try realm.create("Dog", ["name": .string("d\(index)"), "age": .int(Int64(index % 17))]).key)
            }
            for id in 0..<Self.people {
                try realm.create(
                    "Person", ["id": .int(Int64(id)), "name": .string("p\(id)"), "best": .link(dogs[id % 1000])])
            }
        }
        return realm
    }

    static let people = 12_300
    static let query = "best.name BEGINSWITH 'd1' OR best.age == -1"

    @Test func aQueryThroughLinksReportsProgressAndGivesTheSameAnswer() throws {
        let dir = TempDir()
        let realm = try realm(dir)
        let expected = try realm.objects("Person").filter(Self.query).count
        var reports: [(Int, Int)] = []
        let monitor = ProgressMonitor { done, total in
            reports.append((done, total))
            return true
        }
        let counted = try monitor.run { try realm.objects("Person").filter(Self.query).checkedCount() }
        #expect(counted == expected)
        #expect(reports.count == Self.people / ProgressMonitor.stride, "\(reports.count) reports")
        #expect(reports.allSatisfy { $0.0 <= $0.1 && $0.1 == Self.people })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 < $1.0 })
    }

    @Test func cancellingStopsTheReadAndCachesNothing() throws {
        let dir = TempDir()
        let realm = try realm(dir)
        let results = try realm.objects("Person").filter(Self.query)
        var calls = 0
        let monitor = ProgressMonitor { _, _ in
            calls += 1
            return false
        }
        #expect(throws: RealmError.cancelled) { try monitor.run { try results.checkedCount() } }
        #expect(calls == 1)
        #expect(monitor.isCancelled)
        // A later read in the same run throws at once; outside it, the read is whole.
        #expect(throws: RealmError.cancelled) {
            try monitor.run { try realm.objects("Person").sorted(byKeyPath: "best.name").keys() }
        }
        #expect(calls == 1)
        // d1, d10…d19, d100…d199: 111 of every 1,000 dogs.
        #expect(try results.checkedCount() == (0..<Self.people).filter { id in "d\(id % 1000)".hasPrefix("d1") }.count)
    }

    @Test func aSortThroughALinkCanBeCancelled() throws {
        let dir = TempDir()
        let realm = try realm(dir)
        let people = try realm.objects("Person").sorted(byKeyPath: "best.age", ascending: false)
        var reports = 0
        let monitor = ProgressMonitor { _, _ in
            reports += 1
            return reports < 3
        }
        #expect(throws: RealmError.cancelled) { try monitor.run { try people.keys() } }
        #expect(reports == 3)
        #expect(try people.keys().count == Self.people)
    }
}
