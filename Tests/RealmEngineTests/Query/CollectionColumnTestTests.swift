import Foundation
import Testing
@testable import RealmEngine

/// Comparisons over sets, lists and dictionaries compile to column tests that read the
/// elements in the leaf (`ElementScan`); every answer must equal the object-at-a-time
/// evaluator's over a table of predicates × constants — nil elements and values, empty
/// collections, missing keys, Mixed elements of every kind, Unicode case and diacritics,
/// strings beside data.
@Suite struct CollectionColumnTestTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "otags", type: .string, isOptional: true, isSet: true),
                Property(name: "list", type: .string, isList: true),
                Property(name: "nums", type: .int, isOptional: true, isSet: true),
                Property(name: "flags", type: .bool, isList: true),
                Property(name: "reals", type: .double, isOptional: true, isSet: true),
                Property(name: "blobs", type: .data, isSet: true),
                Property(name: "mixed", type: .mixed, isOptional: true, isSet: true),
                Property(name: "attrs", type: .int, isOptional: true, isMap: true),
                Property(name: "names", type: .string, isOptional: true, isMap: true),
                Property(name: "mix", type: .mixed, isOptional: true, isMap: true),
            ])
    ])

    static let words = [
        "tag", "Tag", "TAG", "", "école", "École", "ÉCOLE", "e\u{301}cole", "Straße", "STRASSE", "李", "ǅ", "ab", "abc",
    ]
    static let mixedValues: [Value] = [
        .int(3), .double(3.5), .float(2.5), .string("tag"), .string("École"), .data(Data("tag".utf8)), .null,
        .bool(true), .int(-1), .double(.nan), .string(""), .date(Timestamp(seconds: 3)),
    ]
    static let keys = ["a", "b", "rank", "e\u{301}", "k", "K", ""]

    /// Items with every kind of collection content, several leaves' worth.
    static func realm() throws -> Realm {
        var rng = SeededGenerator(seed: 23)
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "elements-\(UUID())", schema: schema))
        try realm.beginWrite()
        func pick<T>(_ from: [T], _ n: Int) -> [T] { (0..<n).map { _ in from[Int(rng.next() % UInt64(from.count))] } }
        func distinct(_ values: [Value]) -> [Value] {
            var out: [Value] = []
            for v in values where !out.contains(where: { ValueOrder.equal($0, v) }) { out.append(v) }
            return out
        }
        for id in 0..<600 {
            let n = Int(rng.next() % 5)  // 0 ... 4 elements; 0 is an empty collection
            var otags = pick(words, n).map(Value.string)
            if rng.next() % 4 == 0 { otags.append(.null) }
            var nums = pick(Array(-2...5), n).map { Value.int(Int64($0)) }
            if rng.next() % 4 == 0 { nums.append(.null) }
            var reals = pick([0.5, 3.0, 2.5, -1.0, .nan], n).map(Value.double)
            if rng.next() % 5 == 0 { reals.append(.null) }
            var attrs: [String: Value] = [:]
            var names: [String: Value] = [:]
            var mix: [String: Value] = [:]
            for key in pick(keys, n) { attrs[key] = rng.next() % 5 == 0 ? .null : .int(Int64(rng.next() % 6) - 1) }
            for key in pick(keys, n) { names[key] = rng.next() % 5 == 0 ? .null : .string(pick(words, 1)[0]) }
            for key in pick(keys, n) { mix[key] = pick(mixedValues, 1)[0] }
            try realm.create(
                "Item",
                [
                    "id": .int(Int64(id)),
                    "tags": .list(distinct(pick(words, n).map(Value.string))),
                    "otags": .list(distinct(otags)),
                    "list": .list(pick(words, n).map(Value.string)),
                    "nums": .list(distinct(nums)),
                    "flags": .list(pick([true, false], n).map(Value.bool)),
                    "reals": .list(distinct(reals)),
                    "blobs": .list(distinct(pick(["tag", "", "ab", "abc"], n).map { .data(Data($0.utf8)) })),
                    "mixed": .list(distinct(pick(mixedValues, n))),
                    "attrs": .map(attrs), "names": .map(names), "mix": .map(mix),
                ])
        }
        try realm.commitWrite()
        return realm
    }

    /// Every comparison of the table, with its arguments.
    static var table: [(String, [Value])] {
        var out: [(String, [Value])] = []
        let strings: [Value] = ["tag", "école", "ÉCOLE", "e\u{301}cole", "Straße", "", "ab"].map(Value.string)
        let others: [Value] = [
            .int(3), .int(0), .int(-1), .double(3.0), .double(2.5), .double(.nan), .bool(true), .null,
            .data(Data("tag".utf8)), .string("tag"), .string("École"),
        ]
        let multi = [
            "ANY P == $0", "ALL P == $0", "NONE P == $0", "ANY P != $0", "ALL P != $0", "$0 IN P", "ANY P ==[c] $0",
            "ANY P ==[cd] $0", "ANY P BEGINSWITH $0", "ANY P CONTAINS[c] $0", "ANY P ENDSWITH $0", "ANY P LIKE $0",
            "ANY P > $0", "ALL P <= $0", "NONE P < $0", "ANY P IN {$0, 'abc'}", "ANY P IN {$0, 5}",
            "NOT (ANY P == $0)", "ANY P == $0 OR P.@count == 0", "P.@count >= $0", "P.@size == $0", "$0 == P.@count",
        ]
        let paths = [
            "tags", "otags", "list", "names.@values", "names", "names.@keys", "attrs.@keys", "nums", "flags", "reals",
            "blobs", "mixed", "attrs.@values", "attrs", "mix.@values", "mix.@keys",
        ]
        for path in paths {
            for template in multi {
                for arg in strings + others {
                    out.append((template.replacingOccurrences(of: "P", with: path), [arg]))
                }
            }
            for fixed in ["ANY P == nil", "ANY P != nil", "NONE P == nil", "P.@count >= 2", "P.@count == 0"] {
                out.append((fixed.replacingOccurrences(of: "P", with: path), []))
            }
        }
        let single = [
            "K == $0", "K != $0", "K > $0", "K <= $0", "K IN {$0, 1}", "K IN {$0, 'abc'}", "K ==[c] $0",
            "K BEGINSWITH $0",
            "K CONTAINS[cd] $0", "$0 == K", "$0 IN {K}", "NOT (K == $0)",
        ]
        let keyed = [
            "attrs['a']", "attrs['rank']", "attrs['missing']", "attrs['e\u{301}']", "attrs['']", "names['k']",
            "names['K']", "names['missing']", "names.k", "mix['k']", "mix['a']", "mix['']",
        ]
        for key in keyed {
            for template in single {
                for arg in strings + others {
                    out.append((template.replacingOccurrences(of: "K", with: key), [arg]))
                }
            }
            for fixed in ["K == nil", "K != nil"] { out.append((fixed.replacingOccurrences(of: "K", with: key), [])) }
        }
        return out
    }

    @Test func elementTestsAgreeWithTheEvaluator() throws {
        let realm = try Self.realm()
        let store = try realm.readView
        let all = try store.keys(classIndex: 0)
        var compared = 0
        var matchedSome = 0
        for (text, arguments) in Self.table {
            // Comparisons the binder refuses (a string with an int, `@keys > 5`, …) are not in the table.
            guard let query = try? BoundQuery.parse(text, classIndex: 0, schema: Self.schema, arguments: arguments)
            else { continue }
            compared += 1
            #expect(query.columnTest != nil, "\(text) \(arguments) compiles to a column test")
            let expected = try all.filter { try query.matches($0, in: store) }
            let scanned = try realm.objects("Item").filter(text, arguments: arguments).keys()
            #expect(scanned == expected, "\(text) \(arguments)")
            #expect(
                try realm.objects("Item").filter(text, arguments: arguments).count == expected.count,
                "\(text) \(arguments) counted")
            if !expected.isEmpty && expected.count < all.count { matchedSome += 1 }
        }
        // The table tests something: most comparisons bind and split the items.
        #expect(compared > 2000)
        #expect(matchedSome > 1000)
    }

    /// A dictionary's key is found by its bytes, as Realm Core finds it and as `@keys` compares:
    /// `attrs['é']` (one scalar) is not the key `e` + U+0301, which Swift's `String` equality
    /// would take for it.
    @Test func dictionaryKeysAreComparedByBytes() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "keys-\(UUID())", schema: Self.schema))
        try realm.write {
            try realm.create("Item", ["id": .int(1), "attrs": .map(["e\u{301}": .int(1)])])
        }
        for inWrite in [false, true] {
            if inWrite { try realm.beginWrite() }
            #expect(try realm.objects("Item").filter("attrs['\u{E9}'] == 1").count == 0, "in a write: \(inWrite)")
            #expect(try realm.objects("Item").filter("attrs['e\u{301}'] == 1").count == 1, "in a write: \(inWrite)")
            #expect(try realm.objects("Item").filter("attrs['\u{E9}'] == nil").count == 1, "in a write: \(inWrite)")
            #expect(
                try realm.objects("Item").filter("ANY attrs.@keys == '\u{E9}'").count == 0, "in a write: \(inWrite)")
            if inWrite { realm.cancelWrite() }
        }
    }

    /// A bulk delete selects a leaf's rows with the same element tests.
    @Test func deletingByAnElementTest() throws {
        let realm = try Self.realm()
        let store = try realm.readView
        let query = try BoundQuery.parse("ANY tags == 'tag'", classIndex: 0, schema: Self.schema, arguments: [])
        let keep = try store.keys(classIndex: 0).filter { try !query.matches($0, in: store) }
        #expect(keep.count > 50 && keep.count < 550)
        try realm.write { try realm.delete(try realm.objects("Item").filter("ANY tags == 'tag'")) }
        #expect(try realm.objects("Item").keys() == keep)
    }
}
