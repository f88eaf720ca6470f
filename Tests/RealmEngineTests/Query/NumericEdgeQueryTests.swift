import Foundation
import Testing
@testable import RealmEngine

/// NaN, integers beyond 2^53 and strings that Unicode calls equivalent: every query shape gives
/// the answer `ValueOrder` defines (NaN equals NaN and orders before every number; an int and a
/// double compare exactly; strings compare by bytes). Before, the compiled column scan compared
/// NaN as IEEE does, sorting left NaN among the numbers where it stood, DISTINCT used Swift's
/// equality, `@min`/`@max` depended on where a NaN stood, and ints were compared as doubles.
@Suite struct NumericEdgeQueryTests {
    static let schema = Schema([
        ObjectSchema(
            name: "M",
            properties: [
                Property(name: "score", type: .double),
                Property(name: "value", type: .int),
                Property(name: "name", type: .string),
                Property(name: "ratings", type: .double, isList: true),
            ])
    ])

    /// A Realm holding one object per row: (score, value, name, ratings), in key order.
    static func realm(_ rows: [(Double, Int64, String, [Double])]) throws -> Realm {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "numeric-\(UUID().uuidString)", schema: schema))
        try realm.write {
            for (score, value, name, ratings) in rows {
                try realm.create(
                    "M",
                    value: .dictionary([
                        "score": .value(.double(score)), "value": .value(.int(value)), "name": .value(.string(name)),
                        "ratings": .array(ratings.map { .value(.double($0)) }),
                    ]))
            }
        }
        return realm
    }

    /// The `value` of each object of `results`, in order (each test gives its objects distinct values).
    static func values(_ results: Results) throws -> [Int64] {
        try results.keys().map { key in
            guard case .int(let v) = try results.realm.object(ofType: "M", key: key)?.value(forKey: "value") else {
                return -1
            }
            return v
        }
    }

    @Test func nanEqualsNanInTheColumnScanAsInTheEvaluator() throws {
        let realm = try Self.realm([(.nan, 1, "a", []), (1.0, 2, "b", [])])
        let all = try realm.objects("M")
        // One predicate on a column: the compiled scan. With a second, list-reading condition:
        // the evaluator. Both must agree.
        #expect(try Self.values(all.filter("score == nan")) == [1])
        #expect(try Self.values(all.filter("score == nan AND ratings.@count == 0")) == [1])
        #expect(try all.filter("score == nan").checkedCount() == 1)
        #expect(try Self.values(all.filter("score != nan")) == [2])
        #expect(try Self.values(all.filter("score != nan AND ratings.@count == 0")) == [2])
        #expect(try all.filter("score != nan").checkedCount() == 1)
    }

    @Test func nanSortsBeforeEveryNumber() throws {
        let realm = try Self.realm([
            (2.0, 1, "a", []), (.nan, 2, "b", []), (1.0, 3, "c", []), (-1.0, 4, "d", []), (.nan, 5, "e", []),
        ])
        let all = try realm.objects("M")
        #expect(try Self.values(all.sorted(byKeyPath: "score")) == [2, 5, 4, 3, 1])
        #expect(try Self.values(all.sorted(byKeyPath: "score", ascending: false)) == [1, 3, 4, 2, 5])
        #expect(try Self.values(all.filter("TRUEPREDICATE SORT(score ASC) LIMIT(2)")) == [2, 5])
    }

    @Test func distinctComparesAsTheQueryLanguageDoes() throws {
        let realm = try Self.realm([
            (.nan, 1, "\u{E9}", []), (.nan, 2, "e\u{301}", []), (1.0, 3, "\u{E9}", []), (-0.0, 4, "x", []),
            (0.0, 5, "x", []),
        ])
        let all = try realm.objects("M")
        // "é" precomposed and decomposed are different bytes: two names, as `name == 'é'` tells them apart.
        #expect(try Self.values(all.distinct(by: ["name"])) == [1, 2, 4])
        #expect(try all.filter("name == %@", .string("\u{E9}")).checkedCount() == 2)
        // NaN equals NaN; -0.0 equals 0.0.
        #expect(try Self.values(all.distinct(by: ["score"])) == [1, 3, 4])
    }

    @Test func minAndMaxSkipNaNWhereverItStands() throws {
        let realm = try Self.realm([
            (.nan, 1, "a", [.nan, 1, 3]), (1.0, 2, "b", [1, .nan, 3]), (3.0, 3, "c", [1, 3, .nan]),
        ])
        let all = try realm.objects("M")
        #expect(try all.filter("ratings.@min == 1").checkedCount() == 3)
        #expect(try all.filter("ratings.@max == 3").checkedCount() == 3)
        #expect(try all.min(ofProperty: "score") == .double(1))
        #expect(try all.max(ofProperty: "score") == .double(3))
        #expect(try all.sorted(byKeyPath: "value", ascending: false).min(ofProperty: "score") == .double(1))
        let onlyNaN = try Self.realm([(.nan, 1, "a", [.nan])]).objects("M")
        #expect(
            try onlyNaN.min(ofProperty: "score").map { if case .double(let d) = $0 { d.isNaN } else { false } } == true)
        #expect(try onlyNaN.filter("ratings.@max == nan").checkedCount() == 1)
    }

    @Test func anIntAndADoubleCompareExactlyBeyondTwoToThe53() throws {
        let big: Int64 = 9_007_199_254_740_993  // 2^53 + 1: no double holds it
        let realm = try Self.realm([(0, big, "a", []), (0, .max, "b", []), (0, .min, "c", [])])
        let all = try realm.objects("M")
        #expect(try Self.values(all.filter("value > 9007199254740992.0")) == [big, .max])
        #expect(try all.filter("value == 9007199254740992.0").checkedCount() == 0)
        #expect(try Self.values(all.filter("value < 9223372036854775808")) == [big, .max, .min])
        #expect(try all.filter("value == 9223372036854775808").checkedCount() == 0)
        #expect(try Self.values(all.filter("value >= -9223372036854775808.0")) == [big, .max, .min])
        #expect(try Self.values(all.filter("value == -9223372036854775808.0")) == [.min])
        #expect(try Self.values(all.filter("value > 1.5 AND value < 1e300")) == [big, .max])
        // The evaluator's path (a list condition too) agrees.
        #expect(try Self.values(all.filter("value > 9007199254740992.0 AND ratings.@count == 0")) == [big, .max])
    }
}
