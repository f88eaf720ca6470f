import Foundation
import Testing
import TestSupport
@testable import RealmEngine

/// A search index on a Mixed property: every `==` / `IN` answer through the index equals the
/// answer of a scan of the same objects without an index — numbers equal across int, float,
/// double and decimal, strings apart from data, nil, NaN, links — through inserts, updates
/// (one by one and in bulk) and deletes, with the index checked against the values each time.
@Suite struct MixedIndexTests {
    static func schema(indexed: Bool) -> Schema {
        Schema([
            ObjectSchema(
                name: "M",
                properties: [
                    Property(name: "any", type: .mixed, isOptional: true, isIndexed: indexed),
                    Property(name: "tag", type: .int),
                ]),
            ObjectSchema(name: "T", properties: [Property(name: "n", type: .int)]),
        ])
    }

    /// Values that are equal and unequal in the ways an index can get wrong.
    static let pool: [Value] = {
        var values: [Value] = [
            .null, .bool(true), .bool(false),
            .int(0), .int(1), .int(-1), .int(2), .int(Int64.max), .int(Int64.min), .int(1 << 53), .int((1 << 53) + 1),
            .double(0), .double(-0.0), .double(1), .double(1.5), .double(-1), .double(0.1), .double(.nan),
            .double(-.nan), .double(.infinity), .double(-.infinity), .double(0x1p53), .double(0x1p63),
            .double(.leastNonzeroMagnitude),
            .double(Double(Float(0.1))),
            .float(1), .float(1.5), .float(0.1), .float(.nan), .float(-0.0),
            .string("a"), .string("1"), .string(""), .string("b"),
            .data(Data("a".utf8)), .data(Data()), .data(Data([0, 1])),
            .date(Timestamp(seconds: 0)), .date(Timestamp(seconds: 1, nanoseconds: 5)),
            .objectId(ObjectId("000000000000000000000001")), .objectId(ObjectId("ffffffffffffffffffffffff")),
            .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))),
            .uuid(UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))),
        ]
        for text in [
            "1", "1.0", "1.00", "1.5", "0.1", "0.100000001490116", "-0", "0", "2", "1E400", "NaN",
            "9223372036854775807", "9007199254740993", "-1",
        ] {
            if let d = try? Decimal128(parsing: text) { values.append(.decimal128(d)) }
        }
        return values
    }()

    /// Random inserts, updates and deletes in an indexed and an unindexed Realm alike; after
    /// each round every pool value's `==` and random `IN` lists answer the same in both.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func indexAnswersEqualAScan(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let dir = TempDir()
        let indexed = try Realm(path: dir.path("indexed.realm"), schema: Self.schema(indexed: true))
        let plain = try Realm(path: dir.path("plain.realm"), schema: Self.schema(indexed: false))
        var links: [Value] = []
        for realm in [indexed, plain] {
            try realm.write {
                links = try (0..<3).map {
                    .typedLink(TypedLink(className: "T", key: try realm.create("T", ["n": .int($0)]).key))
                }
            }
        }
        let pool = Self.pool + links
        func random() -> Value { pool[Int.random(in: 0..<pool.count, using: &rng)] }
        for round in 0..<4 {
            // The same operations with the same random values in both Realms.
            let inserts = (0..<150).map { _ in (random(), Int64.random(in: 0..<10, using: &rng)) }
            let updates = (0..<40).map { _ in (Int.random(in: 0..<10_000, using: &rng), random()) }
            let bulk = (random(), Int64.random(in: 0..<10, using: &rng))
            let doomed = Int64.random(in: 0..<10, using: &rng)
            for realm in [indexed, plain] {
                try realm.write {
                    for (value, tag) in inserts { try realm.create("M", ["any": value, "tag": .int(tag)]) }
                    let keys = try realm.objects("M").keys()
                    for (i, value) in updates {
                        try realm.object(ofType: "M", key: keys[i % keys.count])?.setValue(value, forKey: "any")
                    }
                    // Many objects at once (the leaf-by-leaf bulk paths).
                    try realm.objects("M").filter("tag == $0", .int(bulk.1)).setValue(.value(bulk.0), forKey: "any")
                    try realm.delete(try realm.objects("M").filter("tag == $0", .int(doomed)))
                }
            }
            _ = try indexed.checkIntegrity()
            var questions = pool.map { ("any == $0", [$0]) }
            for _ in 0..<20 { questions.append(("any IN {$0, $1, $2}", [random(), random(), random()])) }
            questions.append(("any == $0 AND tag > 4", [.int(1)]))
            for (query, arguments) in questions {
                let fast = try indexed.objects("M").filter(query, arguments: arguments)
                #expect(fast.planDescription == "index lookup on any", "\(query) \(arguments)")
                let slow = try plain.objects("M").filter(query, arguments: arguments)
                #expect(try fast.keys() == slow.keys(), "round \(round): \(query) \(arguments)")
            }
        }
    }

    /// Equal numbers of every kind find each other through the index; string and data with the
    /// same bytes do not; NaNs find NaNs; the double 0.1 finds the decimal 0.1 (Realm Core's
    /// 15-digit conversion), which an index keyed by exact values would miss.
    @Test func numbersFindEachOtherAcrossKinds() throws {
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "mixed-index-\(UUID())", schema: Self.schema(indexed: true)))
        let one = try Decimal128(parsing: "1")
        let tenth = try Decimal128(parsing: "0.1")
        try realm.write {
            for (i, v) in [
                Value.int(1), .double(1), .float(1), .decimal128(one), .double(1.5), .string("a"),
                .data(Data("a".utf8)),
                .double(.nan), .decimal128(tenth), .null, .double(-0.0), .int(0),
            ].enumerated() {
                try realm.create("M", ["any": v, "tag": .int(Int64(i))])
            }
        }
        func tags(_ query: String, _ v: Value) throws -> [Int64] {
            let r = try realm.objects("M").filter(query, v)
            #expect(r.planDescription == "index lookup on any")
            return try r.keys().compactMap { try realm.object(ofType: "M", key: $0)?["tag"] }.compactMap {
                if case .int(let t) = $0 { t } else { nil }
            }.sorted()
        }
        #expect(try tags("any == $0", .int(1)) == [0, 1, 2, 3])
        #expect(try tags("any == $0", .decimal128(one)) == [0, 1, 2, 3])
        #expect(try tags("any == $0", .float(1.5)) == [4])
        #expect(try tags("any == $0", .string("a")) == [5])
        #expect(try tags("any == $0", .data(Data("a".utf8))) == [6])
        #expect(try tags("any == $0", .float(.nan)) == [7])
        #expect(try tags("any == $0", .double(0.1)) == [8])
        #expect(try tags("any == $0", .null) == [9])
        #expect(try tags("any == $0", .double(0)) == [10, 11])
        _ = try realm.checkIntegrity()
    }

    /// A migration adds the index to a Mixed property holding values and later removes it;
    /// the index built from the stored values answers like a scan.
    @Test func migrationAddsAndRemovesTheIndex() throws {
        let dir = TempDir()
        let path = dir.path("migrate.realm")
        do {
            let realm = try Realm(path: path, schema: Self.schema(indexed: false))
            try realm.write {
                for (i, v) in [Value.int(1), .double(1), .string("x"), .null, .double(2.5)].enumerated() {
                    try realm.create("M", ["any": v, "tag": .int(Int64(i))])
                }
            }
        }
        do {
            let realm = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: path), schema: Self.schema(indexed: true), schemaVersion: 1))
            #expect(realm.schema.objectSchemas[0].properties[0].isIndexed)
            let r = try realm.objects("M").filter("any == 1.0")
            #expect(r.planDescription == "index lookup on any")
            #expect(r.count == 2)
            _ = try realm.checkIntegrity()
        }
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: Self.schema(indexed: false), schemaVersion: 2))
        let r = try realm.objects("M").filter("any == 1.0")
        #expect(r.planDescription == "scan M")
        #expect(r.count == 2)
        _ = try realm.checkIntegrity()
    }
}
