import Foundation
import Testing
@testable import RealmEngine

/// `Results.keys(in:)` reads a window of a result: whatever path it takes, it must give exactly
/// `keys()[range]`.
@Suite struct ResultsWindowTests {
    private func people(_ count: Int, in dir: TempDir) throws -> Realm {
        let realm = try Realm(path: dir.path("w.realm"), schema: Fixtures.people)
        try realm.write {
            for i in 0..<count {
                try realm.create(
                    "Person",
                    [
                        "id": .int(Int64(i)), "name": .string("n\((i * 7919) % count)"),
                        "age": .int(Int64((i * 31) % 90)),
                    ])
            }
        }
        return realm
    }

    @Test func everyWindowEqualsTheSameSliceOfTheWholeResult() throws {
        let dir = TempDir()
        let realm = try people(5000, in: dir)
        let all = try realm.objects("Person")
        let results: [Results] = [
            all,
            try all.filter("age >= 20 AND age < 30"),
            try all.filter("age > 85"),
            try all.filter("name BEGINSWITH 'n1'"),
            try all.filter("age == 3 OR name ENDSWITH '7'"),
            try all.filter("id == 17"),
            try all.sorted(byKeyPath: "name"),
            try all.sorted(byKeyPath: "age", ascending: false),
            try all.filter("age < 50").sorted(byKeyPath: "name"),
            try all.filter("age < 50 SORT(name DESC) LIMIT(300)"),
            try all.filter("age > 1000"),
        ]
        var generator = SystemRandomNumberGenerator()
        for result in results {
            let whole = try result.keys()
            var ranges = [
                0..<0, 0..<1, 0..<40, max(0, whole.count - 40)..<whole.count, whole.count..<whole.count + 10,
                0..<10_000,
            ]
            for _ in 0..<20 {
                let lower = Int.random(in: 0...max(0, whole.count), using: &generator)
                ranges.append(lower..<lower + Int.random(in: 1...200, using: &generator))
            }
            for range in ranges {
                // A fresh Results each time: the window path runs, not the cache of keys().
                let fresh = result.copy()
                let expected = Array(whole[min(range.lowerBound, whole.count)..<min(range.upperBound, whole.count)])
                #expect(try fresh.keys(in: range) == expected, "\(result.planDescription) \(range)")
            }
        }
    }

    @Test func aWindowInsideAWriteTransactionSeesTheWritersChanges() throws {
        let dir = TempDir()
        let realm = try people(3000, in: dir)
        try realm.write {
            try realm.create("Person", ["id": .int(99_999), "name": .string("new"), "age": .int(25)])
            let filtered = try realm.objects("Person").filter("age >= 20 AND age < 30")
            let whole = try filtered.keys()
            #expect(try filtered.copy().keys(in: (whole.count - 5)..<whole.count) == Array(whole.suffix(5)))
        }
    }
}

/// A snapshot remembers the leaf views of small classes only, so its memory is bounded whatever
/// the size of a class it scans.
@Suite struct LeafViewCacheBoundTests {
    @Test func aClassWithMoreLeavesThanTheCapacityIsNotRemembered() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("c.realm"), schema: Fixtures.people)
        try realm.write {
            try realm.create("Person", ["id": .int(1), "name": .string("a"), "age": .int(1)])
        }
        let view = try #require(try realm.readView.leafViews(classIndex: realm.classIndex("Person"))?.first)
        let cache = LeafViewCache()
        cache.setLeaves(Array(repeating: view, count: LeafViewCache.classLeafCapacity), of: 0)
        #expect(cache.leaves(of: 0)?.count == LeafViewCache.classLeafCapacity)
        cache.setLeaves(Array(repeating: view, count: LeafViewCache.classLeafCapacity + 1), of: 1)
        #expect(cache.leaves(of: 1) == nil)
    }
}
