import Foundation
import Testing
import TestSupport
@testable import RealmEngine

/// The explorer's first screen of a sorted table comes from `Results.keys(in:)`, which for a
/// small window of a sorted class (whole or filtered) runs a bounded top-k pass instead of a full
/// sort. Its answer must be exactly the first page of the full sort, for every kind of column,
/// both directions, several sort keys, ties (kept in key order) and nulls (first ascending, last
/// descending), and the pass must not have evaluated (and cached) the whole result.
///
/// The reference order is computed here from the values alone (not with the engine's sort).
@Suite struct SortedWindowTopKTests {
    static let schema = Schema([
        ObjectSchema(
            name: "T",
            properties: [
                Property(name: "i", type: .int, isOptional: true),
                Property(name: "d", type: .double, isOptional: true),
                Property(name: "s", type: .string, isOptional: true),
                Property(name: "t", type: .date, isOptional: true),
                Property(name: "b", type: .bool, isOptional: true),
                Property(name: "f", type: .float, isOptional: true),
                Property(name: "n", type: .int),
                Property(name: "o", type: .object, objectClassName: "O"),
            ]),
        ObjectSchema(name: "O", properties: [Property(name: "name", type: .string)]),
    ])

    /// 1,200 objects of few distinct values (many ties), about one value in seven nil, some NaN.
    /// (In a file: the explorer's tables read committed leaves.)
    static func filled(in dir: TempDir) throws -> Realm {
        let realm = try Realm(path: dir.path("topk.realm"), schema: schema)
        var rng = SeededGenerator(seed: 30)
        func maybe(_ value: Value) -> Value { rng.next() % 7 == 0 ? .null : value }
        let strings = ["", "a", "ab", "abcdefgh", "abcdefghi", "Zoe", "王芳", "李四", "Émile", "abcdefgh\u{1}"]
        try realm.write {
            let owners = try (0..<5).map { try realm.create("O", ["name": .string(["x", "b", "王", "", "a"][$0])]).key }
            for _ in 0..<1_200 {
                let r = rng.next()
                let double: Double = r % 41 == 0 ? .nan : Double(Int((r >> 8) % 13) - 6) / 4
                try realm.create(
                    "T",
                    [
                        "i": maybe(.int(Int64((r >> 12) % 20) - 10)),
                        "d": maybe(.double(double)),
                        "s": maybe(.string(strings[Int((r >> 20) % UInt64(strings.count))])),
                        "t": maybe(
                            .date(Timestamp(seconds: Int64((r >> 28) % 9) - 4, nanoseconds: Int32((r >> 36) % 3) * 500))
                        ),
                        "b": maybe(.bool((r >> 40) % 2 == 0)),
                        "f": maybe(.float(r % 37 == 0 ? -.infinity : Float(Int((r >> 52) % 7) - 3) * 1.5)),
                        "n": .int(Int64((r >> 56) % 4)),
                        "o": (r >> 44) % 6 == 0 ? .null : .link(owners[Int((r >> 48) % 5)]),
                    ])
            }
        }
        return realm
    }

    /// -1, 0, 1: nil first, then NaN, then numbers; strings by UTF-8 bytes; false before true.
    static func compare(_ a: Value, _ b: Value) -> Int {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.bool(let x), .bool(let y)): return sign(x ? 1 : 0, y ? 1 : 0)
        case (.date(let x), .date(let y)):
            return sign(x.seconds, y.seconds) != 0 ? sign(x.seconds, y.seconds) : sign(x.nanoseconds, y.nanoseconds)
        case (.string(let x), .string(let y)):
            return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
                ? -1 : (Array(x.utf8) == Array(y.utf8) ? 0 : 1)
        case (.float(let x), .float(let y)): return compare(.double(Double(x)), .double(Double(y)))
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? 0 : (x.isNaN ? -1 : 1) }
            return sign(x, y)
        default:
            Issue.record("unexpected values \(a), \(b)")
            return 0
        }
    }

    /// `keys` (ascending) in the order of `descriptors`, ties in key order.
    static func reference(_ keys: [ObjectKey], by descriptors: [RealmEngine.SortDescriptor], in realm: Realm) throws
        -> [ObjectKey]
    {
        let rows: [[Value]] = try keys.map { key in
            let object = try #require(try realm.object(ofType: "T", key: key))
            return try descriptors.map { descriptor in
                guard descriptor.keyPath == "o.name" else { return try object.value(forKey: descriptor.keyPath) }
                guard let owner = try object.linkedObject(forKey: "o") else { return .null }
                return try owner.value(forKey: "name")
            }
        }
        let order = keys.indices.sorted { a, b in
            for (d, descriptor) in descriptors.enumerated() {
                let c = compare(rows[a][d], rows[b][d])
                if c != 0 { return descriptor.ascending ? c < 0 : c > 0 }
            }
            return a < b
        }
        return order.map { keys[$0] }
    }

    static let sorts: [[RealmEngine.SortDescriptor]] = [
        [.init(keyPath: "i")], [.init(keyPath: "i", ascending: false)],
        [.init(keyPath: "d")], [.init(keyPath: "d", ascending: false)],
        [.init(keyPath: "s")], [.init(keyPath: "s", ascending: false)],
        [.init(keyPath: "t")], [.init(keyPath: "t", ascending: false)],
        [.init(keyPath: "b")], [.init(keyPath: "b", ascending: false)],
        [.init(keyPath: "f")], [.init(keyPath: "f", ascending: false)],
        [.init(keyPath: "n")], [.init(keyPath: "n", ascending: false)],
        [.init(keyPath: "o.name")], [.init(keyPath: "o.name", ascending: false)],
        [.init(keyPath: "b"), .init(keyPath: "i", ascending: false)],
        [.init(keyPath: "i"), .init(keyPath: "s", ascending: false)],
        [.init(keyPath: "s", ascending: false), .init(keyPath: "d"), .init(keyPath: "t", ascending: false)],
        [.init(keyPath: "o.name"), .init(keyPath: "b", ascending: false), .init(keyPath: "d")],
    ]

    static let filters: [String?] = [nil, "i > -3", "s != nil AND b == true", "d < 0.5 OR t == nil"]

    @Test(arguments: sorts)
    func aSortedWindowIsTheFullSortsFirstPage(_ descriptors: [RealmEngine.SortDescriptor]) throws {
        let dir = TempDir()
        let realm = try Self.filled(in: dir)
        for filter in Self.filters {
            var base = try realm.objects("T")
            if let filter { base = try base.filter(filter) }
            let unsorted = try base.keys()
            let expected = try Self.reference(unsorted, by: descriptors, in: realm)
            let sorted = try base.sorted(by: descriptors)
            let label =
                "\(descriptors.map { "\($0.keyPath) \($0.ascending ? "asc" : "desc")" }) \(filter ?? "whole class")"
            // Pages under an eighth of the objects take the bounded pass (`ResultOrdering.sort`);
            // the second window of the largest reaches past it (a full sort, then a slice).
            for page in [1, 38, 140] {
                // A fresh Results each time: the window is read without any keys cached.
                let fresh = sorted.copy()
                #expect(try fresh.keys(in: 0..<page) == Array(expected.prefix(page)), "\(label), first \(page)")
                #expect(fresh.cache == nil, "\(label): the window of \(page) evaluated the whole result")
                let second = page..<(2 * page)
                #expect(try sorted.copy().keys(in: second) == Array(expected[second]), "\(label), \(second)")
                #expect(
                    try sorted.copy().limit(page).keys() == Array(expected.prefix(page)), "\(label), LIMIT(\(page))")
            }
            // The full sort (which the window must agree with) against the same reference.
            #expect(try sorted.copy().keys() == expected, "\(label), full sort")
        }
    }
}
