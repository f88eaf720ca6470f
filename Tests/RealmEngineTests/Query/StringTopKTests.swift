import Foundation
import Testing
@testable import RealmEngine

/// `SORT(s) LIMIT(k)` on a string column of committed leaves goes through `StringTopK` (8-byte
/// prefixes, a bounded heap); it must give exactly the first k of a plain full sort by UTF-8
/// bytes — nil first ascending and last descending, ties in key order.
@Suite struct StringTopKTests {
    static let schema = Schema([
        ObjectSchema(
            name: "T",
            properties: [
                Property(name: "i", type: .int),
                Property(name: "s", type: .string, isOptional: true),
                Property(name: "r", type: .string),
            ])
    ])

    /// Strings that stress the prefix: empty, shorter than 8 bytes, equal in their first 8 bytes
    /// and beyond, embedded NUL bytes, CJK (3-byte UTF-8), mixed.
    static let pieces = [
        "", "a", "ab", "Ab", "abcdefg", "abcdefgh", "abcdefgh\0", "abcdefghij", "abcdefghik",
        "abcdefgh\u{1}", "a\0", "a\0b", "李", "李四", "李四五六七", "李四五六七八", "王芳", "Émile",
        "Zoe Kim 12", "Zoe Kim 123", "Zoe Kim 1234", "zzzzzzzzzzzz", "\u{7F}", "\u{80}",
    ]

    static func randomString(_ rng: inout SeededGenerator) -> String {
        let r = rng.next()
        let s = pieces[Int(r % UInt64(pieces.count))]
        return (r >> 8) % 3 == 0 ? s + pieces[Int((r >> 16) % UInt64(pieces.count))] : s
    }

    /// The reference order: every key's value, sorted in full.
    static func expected(_ keys: [ObjectKey], column: Int, ascending: Bool, store: some ObjectStore) throws
        -> [ObjectKey]
    {
        let values: [[UInt8]?] = try keys.map { k in
            if case .string(let s) = try store.value(classIndex: 0, key: k, column: column) { return Array(s.utf8) }
            return nil
        }
        let order = keys.indices.sorted { a, b in
            switch (values[a], values[b]) {
            case (nil, nil): return a < b
            case (nil, _): return ascending
            case (_, nil): return !ascending
            case (let x?, let y?):
                if x == y { return a < b }
                return ascending ? x.lexicographicallyPrecedes(y) : y.lexicographicallyPrecedes(x)
            }
        }
        return order.map { keys[$0] }
    }

    static func limits(_ n: Int) -> [Int] {
        [0, 1, 2, 7, 37, 100, n / 8 - 1, n / 8, n - 1, n, n + 10]
    }

    @Test func topKAgreesWithAFullSort() throws {
        var rng = SeededGenerator(seed: 7)
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "topk-\(UUID())", schema: Self.schema))
        try realm.beginWrite()
        for n in 0..<3000 {
            let r = rng.next()
            try realm.create(
                "T",
                [
                    "i": .int(Int64(n % 10)),
                    "s": r % 13 == 0 ? .null : .string(Self.randomString(&rng)),
                    "r": .string(Self.randomString(&rng)),
                ])
        }
        try realm.commitWrite()
        try check(realm)
        // Deleted rows leave gaps in the leaves' keys (the per-row key matching).
        try realm.write { try realm.delete(realm.objects("T").filter("i == 3 OR i == 8")) }
        try check(realm)
    }

    @Test func topKWithNilsAtTheLimit() throws {
        // More nils than the limit: ascending, the first k are all nil (the scan stops early).
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "topk-nil-\(UUID())", schema: Self.schema))
        try realm.write {
            for n in 0..<2000 {
                try realm.create(
                    "T", ["i": .int(Int64(n)), "s": n % 3 == 0 ? .null : .string("x\(n % 17)"), "r": .string("")])
            }
        }
        try check(realm)
    }

    private func check(_ realm: Realm) throws {
        let store = try realm.readView
        #expect(try store.forEachCluster(classIndex: 0) { _ in } == true)
        let all = try store.keys(classIndex: 0)
        let filtered = try realm.objects("T").filter("i != 5").keys()
        for keys in [all, filtered] {
            for (column, path) in [(1, "s"), (2, "r")] {
                for ascending in [true, false] {
                    let full = try Self.expected(keys, column: column, ascending: ascending, store: store)
                    for limit in Self.limits(keys.count) {
                        let got = try ResultOrdering.sort(
                            keys, classIndex: 0, by: [SortDescriptor(keyPath: path, ascending: ascending)],
                            in: store, limit: limit)
                        #expect(
                            got == Array(full.prefix(limit)),
                            "\(path) ascending \(ascending) limit \(limit) of \(keys.count)")
                    }
                }
            }
        }
        // Through the public API.
        let byName = try Self.expected(filtered, column: 1, ascending: false, store: store)
        #expect(
            try realm.objects("T").filter("i != 5").sorted(byKeyPath: "s", ascending: false).limit(25).keys()
                == Array(byName.prefix(25)))
        // A whole class, sorted and limited: straight from the leaves, without a key list.
        for (column, path) in [(1, "s"), (2, "r")] {
            for ascending in [true, false] {
                let full = try Self.expected(all, column: column, ascending: ascending, store: store)
                for limit in [1, 25, all.count / 8 - 1] where limit > 0 {
                    #expect(
                        try ResultOrdering.sortedPrefixOfClass(
                            0, by: [SortDescriptor(keyPath: path, ascending: ascending)],
                            limit: limit, in: store) == Array(full.prefix(limit)))
                    #expect(
                        try realm.objects("T").sorted(byKeyPath: path, ascending: ascending).limit(limit).keys()
                            == Array(full.prefix(limit)), "\(path) ascending \(ascending) limit \(limit)")
                }
            }
        }
    }

    @Test func prefixIsMonotone() {
        // a < b in bytes ⇒ prefix(a) ≤ prefix(b), whether the 8 bytes come from one load or byte by byte.
        let strings = Self.pieces.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        func prefix(_ b: [UInt8], padded: Bool) -> UInt64 {
            let buffer = b + (padded ? Array(repeating: 0xFF, count: 8) : [])
            return buffer.withUnsafeBytes { p in
                StringTopK.prefix(
                    p.baseAddress ?? UnsafeRawPointer(bitPattern: 8).unsafelyUnwrapped,
                    count: b.count, room: padded ? buffer.count : b.count)
            }
        }
        for padded in [false, true] {
            let prefixes = strings.map { prefix($0, padded: padded) }
            #expect(zip(prefixes, prefixes.dropFirst()).allSatisfy { $0 <= $1 })
        }
        for s in strings { #expect(prefix(s, padded: false) == prefix(s, padded: true)) }
    }
}
