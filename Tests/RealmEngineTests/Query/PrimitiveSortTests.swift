import Foundation
@testable import RealmEngine
import Testing

/// Sorting one column of numbers, dates or bools through integer keys (`PrimitiveSortKey`) gives
/// exactly the order of `ValueOrder.sortCompare`, stable, in both directions.
@Suite struct PrimitiveSortTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Row",
            properties: [
                Property(name: "i", type: .int, isOptional: true),
                Property(name: "d", type: .double, isOptional: true),
                Property(name: "f", type: .float, isOptional: true),
                Property(name: "t", type: .date, isOptional: true),
                Property(name: "b", type: .bool, isOptional: true),
            ])
    ])

    @Test(arguments: ["i", "d", "f", "t", "b"])
    func matchesTheValueOrder(property: String) throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("sort.realm"), schema: Self.schema)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let doubles: [Double] = [.nan, -0.0, 0, 1, -1, .infinity, -.infinity, 1e300, -1e-300, 2.5, -2.5]
        let ints: [Int64] = [.min, .max, 0, -1, 1, 1 << 53, (1 << 53) + 1, -7]
        try realm.write {
            for _ in 0..<600 {
                let pick = next(12)
                let null = pick == 0
                try realm.create(
                    "Row",
                    [
                        "i": null ? .null : .int(ints[next(ints.count)]),
                        "d": null ? .null : .double(doubles[next(doubles.count)]),
                        "f": null ? .null : .float(Float(doubles[next(doubles.count)])),
                        "t": null
                            ? .null : .date(Timestamp(seconds: Int64(next(5)) - 2, nanoseconds: Int32(next(3) * 1000))),
                        "b": null ? .null : .bool(next(2) == 0),
                    ])
            }
        }
        for ascending in [true, false] {
            let sorted = try realm.objects("Row").sorted(byKeyPath: property, ascending: ascending)
            let keys = try sorted.keys()
            #expect(keys.count == 600)
            let values = try keys.map { try #require(try realm.object(ofType: "Row", key: $0)).value(forKey: property) }
            for index in 1..<values.count {
                let order = ValueOrder.sortCompare(values[index - 1], values[index])
                let inOrder = ascending ? order <= 0 : order >= 0
                #expect(inOrder, "\(property) \(ascending): \(values[index - 1]) before \(values[index])")
                if order == 0 { #expect(keys[index - 1] < keys[index], "ties keep key order") }
            }
        }
    }

    /// A first page (`LIMIT`: the bounded selection) and a sorted filter result, read leaf by
    /// leaf, equal the order computed here from the values themselves.
    @Test(arguments: ["i", "d", "f", "t", "b"])
    func aFirstPageAndAFilteredResultMatchTheValueOrder(property: String) throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("page.realm"), schema: Self.schema)
        let doubles: [Double] = [.nan, -0.0, 0, 1, -1, .infinity, -.infinity, 2.5]
        try realm.write {
            for index in 0..<900 {
                let null = index % 11 == 0
                try realm.create(
                    "Row",
                    [
                        "i": null ? .null : .int(Int64((index * 7919) % 97) - 40),
                        "d": null ? .null : .double(doubles[(index * 31) % doubles.count]),
                        "f": null ? .null : .float(Float(doubles[(index * 17) % doubles.count])),
                        "t": null
                            ? .null : .date(Timestamp(seconds: Int64(index % 7) - 3, nanoseconds: Int32(index % 3))),
                        "b": null ? .null : .bool(index % 3 == 0),
                    ])
            }
        }
        let classIndex = try #require(realm.schema.objectSchemas.firstIndex { $0.name == "Row" })
        let snapshot = try realm.snapshot
        for (filter, ascending) in [("TRUEPREDICATE", true), ("TRUEPREDICATE", false), ("i != 3", true)] {
            for limit in [5, 1000] {
                let text = "\(filter) SORT(\(property) \(ascending ? "ASC" : "DESC")) LIMIT(\(limit))"
                let query = try BoundQuery.parse(text, classIndex: classIndex, schema: snapshot.schema, arguments: [])
                let answer = try query.run(in: snapshot, candidates: nil)
                let plain = try BoundQuery.parse(filter, classIndex: classIndex, schema: snapshot.schema, arguments: [])
                let matches = try plain.run(in: snapshot, candidates: nil)
                let values = try matches.map {
                    try #require(try realm.object(ofType: "Row", key: $0)).value(forKey: property)
                }
                let expected = matches.indices.sorted { a, b in
                    let order = ValueOrder.sortCompare(values[a], values[b])
                    if order != 0 { return ascending ? order < 0 : order > 0 }
                    return matches[a] < matches[b]
                }.prefix(limit).map { matches[$0] }
                #expect(answer == Array(expected), "\(text)")
            }
        }
    }
}
