import Foundation
import Testing
@testable import RealmEngine

/// The columnar scan must agree with the object-at-a-time evaluator: the same queries run inside
/// the write transaction (decoded leaves → evaluator) and after the commit (encoded leaves →
/// column tests and packed counts).
@Suite struct ColumnScanTests {
    static let schema = Schema([
        ObjectSchema(
            name: "T",
            properties: [
                Property(name: "i", type: .int),
                Property(name: "oi", type: .int, isOptional: true),
                Property(name: "d", type: .double, isOptional: true),
                Property(name: "f", type: .float),
                Property(name: "s", type: .string, isOptional: true),
                Property(name: "b", type: .bool),
                Property(name: "t", type: .date, isOptional: true),
            ])
    ])

    static let queries = [
        "i >= 20 AND i < 30", "i == 5", "i != 5", "i > 90 OR i < 3", "NOT (i BETWEEN {10, 20})",
        "oi == nil", "oi != nil", "oi > 50", "oi != 7", "oi <= 10 AND i > 40",
        "d > 0.5", "d == nil", "d != 0.25", "f < 0.5", "f >= 0.25",
        "s BEGINSWITH 'A'", "s CONTAINS '李'", "s ENDSWITH 'x'", "s == 'Ab'", "s != 'Ab'", "s == nil",
        "s CONTAINS[c] 'a'",
        "b == true", "b != true", "t > 1970-01-01@00:00:50", "t == nil", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    @Test func columnarScanAgreesWithTheEvaluator() throws {
        var rng = SeededGenerator(seed: 42)
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "scan-\(UUID())", schema: Self.schema))
        try realm.beginWrite()
        let words = ["Ab", "李四", "abc", "Xx", "", "A李x", "zzz"]
        for _ in 0..<1500 {
            let r = rng.next()
            try realm.create(
                "T",
                [
                    "i": .int(Int64(r % 100)),
                    "oi": r % 7 == 0 ? .null : .int(Int64((r >> 8) % 100)),
                    "d": r % 5 == 0 ? .null : .double(Double((r >> 16) % 4) / 4),
                    "f": .float(Float((r >> 20) % 4) / 4),
                    "s": r % 11 == 0 ? .null : .string(words[Int((r >> 24) % UInt64(words.count))]),
                    "b": .bool(r & 1 == 0),
                    "t": r % 3 == 0 ? .null : .date(Timestamp(seconds: Int64((r >> 30) % 100))),
                ])
        }
        var before: [String: [ObjectKey]] = [:]
        for q in Self.queries { before[q] = try realm.objects("T").filter(q).keys() }
        let sortedBefore = try realm.objects("T").sorted(by: [
            SortDescriptor(keyPath: "s"), SortDescriptor(keyPath: "d", ascending: false),
        ]).keys()
        let byName = try realm.objects("T").sorted(byKeyPath: "s", ascending: false).keys()
        try realm.commitWrite()
        // The committed snapshot offers its leaves, and simple predicates compile to column tests.
        #expect(try realm.readView.forEachCluster(classIndex: 0) { _ in } == true)
        let range = try BoundQuery.parse("i >= 20 AND i < 30", classIndex: 0, schema: Self.schema, arguments: [])
        #expect(range.columnTest?.intRange?.lower == 20)
        #expect(
            try BoundQuery.parse("s CONTAINS '李'", classIndex: 0, schema: Self.schema, arguments: []).columnTest != nil)
        // Leaf-scan sort values and the bounded top-k agree with the full sort.
        let sorted = try realm.objects("T").sorted(by: [
            SortDescriptor(keyPath: "s"), SortDescriptor(keyPath: "d", ascending: false),
        ])
        #expect(try sorted.keys() == sortedBefore)
        #expect(try realm.objects("T").sorted(byKeyPath: "s", ascending: false).keys() == byName)
        #expect(
            try realm.objects("T").sorted(byKeyPath: "s", ascending: false).limit(30).keys() == Array(byName.prefix(30))
        )
        #expect(try sorted.limit(25).keys() == Array(sortedBefore.prefix(25)))
        #expect(
            try realm.objects("T").filter("i > 50 SORT(s ASC, d DESC) LIMIT(7)").keys()
                == Array(
                    sortedBefore.filter { k in
                        (try? realm.object(ofType: "T", key: k)?["i"]).flatMap { $0 }.map { v in
                            if case .int(let i) = v { i > 50 } else { false }
                        } ?? false
                    }.prefix(7)))
        for q in Self.queries {
            let results = try realm.objects("T").filter(q)
            #expect(results.count == before[q]?.count, "count of \(q)")
            #expect(try results.keys() == before[q], "keys of \(q)")
        }
    }
}
