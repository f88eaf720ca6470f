import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Mixed columns and lists of Mixed (`ArrayMixed`): every scalar kind, typed links with the
/// backlink columns Realm Core adds to their targets, lists nested in a Mixed; checked by
/// Realm Core (verify compares typed links with backlinks, dump, write-test, queries) and read
/// back by this reader and the conversion.
@Suite(.tags(.multiProcess)) struct CoreWriterMixedTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    static let oid = Data((0..<12).map { UInt8($0 * 11) })
    static let uuid = Data((0..<16).map { UInt8(200 - $0) })
    /// One of each kind, edge values included; typed links to table 0 (`class_Target`).
    static let samples: [CoreValue] = [
        .null, .int(0), .int(-1), .int(Int64(Int32.max)), .int(Int64(Int32.min)), .int(Int64(Int32.max) + 1),
        .int(.min), .int(.max),
        .bool(true), .bool(false), .float(1.5), .float(-.infinity), .double(-0.0), .double(.nan), .double(1e300),
        .string(""), .string("short ✓"), .string(String(repeating: "forty ", count: 7)),
        .string(String(repeating: "long ", count: 30)),
        .binary(Data()), .binary(Data([0, 1, 2, 0])), .binary(Data(repeating: 0xEE, count: 100)),
        .timestamp(seconds: -5, nanoseconds: -7), .timestamp(seconds: 1_700_000_000, nanoseconds: 999_999_999),
        .decimal128(low: 12_345, high: 0x303C_0000_0000_0000), .objectId(oid), .uuid(uuid),
        .typedLink(tableKey: 0, key: 2), .typedLink(tableKey: 0, key: 7),
    ]

    static func tables() -> [RealmCoreWriterTable] {
        let target = RealmCoreWriterTable(
            name: "class_Target", columns: [.init(name: "n", type: .int, nullable: false)],
            objects: (0..<10).map { Object(key: Int64($0), values: [.int(Int64($0))]) })
        let holders = RealmCoreWriterTable(
            name: "class_Holder",
            columns: [
                .init(name: "value", type: .mixed, nullable: true),
                .init(name: "values", type: .mixed, nullable: true, isList: true),
            ],
            objects: samples.enumerated().map { i, v in
                Object(key: Int64(i) * 2, values: [v, .list(i % 4 == 0 ? [] : Array(samples[(i % samples.count)...]))])
            } + [
                // Lists nested in a Mixed, a typed link inside, an empty nested list; and a
                // list of Mixed longer than one leaf.
                // (Realm Core's verify looks for a typed link's origin one level down only.)
                Object(
                    key: 1000,
                    values: [
                        .list([
                            .int(1), .typedLink(tableKey: 0, key: 9), .list([.string("deep"), .list([.bool(true)])]),
                            .list([]),
                        ]),
                        .list((0..<1500).map { .int(Int64($0) - 700) }),
                    ])
            ])
        return [target, holders]
    }

    @Test func everyKindInColumnsAndLists() throws {
        let dir = TempDir("core-writer-mixed")
        let path = try CoreWriterTests.roundTrip(Self.tables(), schemaVersion: nil, dir)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        // One backlink column per Mixed column that links to the target.
        let target = try #require(file.table(named: "class_Target"))
        #expect(target.backlinkColumns.count == 2)
        let nine = try #require(try target.object(key: 9))
        #expect(nine.backlinks == [[1000], []])
        let tool = try CoreFixtures.requireTool()
        func keys(_ cls: String, _ query: String) throws -> [Int]? {
            let answer =
                try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, cls, query]).stdout) as? [String: Any]
            return answer?["object_keys"] as? [Int]
        }
        // Realm Core's own comparisons find each kind where it was written.
        let big = try keys("Holder", "value == 2147483648")
        #expect(big == [10])
        let short = try keys("Holder", "value == 'short ✓'")
        #expect(short == [32])
        let id = try keys("Holder", "value == oid(000b16212c37424d58636e79)")
        #expect(id == [50])
        let inList = try keys("Holder", "ANY values == -700")
        #expect(inList == [1000])
        let linked = try keys("Target", "@links.@count > 0")
        #expect(linked?.contains(9) == true)
    }

    /// A Realm with Mixed properties written and converted back equal, typed links to two
    /// classes included.
    @Test func aRealmWithMixedIsWrittenAndReadBackEqual() throws {
        let dir = TempDir("core-writer-mixed")
        let schema = Schema([
            ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
            ObjectSchema(
                name: "Box",
                properties: [
                    Property(name: "any", type: .mixed),
                    Property(name: "many", type: .mixed, isList: true),
                ]),
        ])
        let realm = try Realm(path: dir.path("native.realm"), schema: schema)
        try realm.write {
            var dogs: [ObjectKey] = []
            for i in 0..<5 { dogs.append(try realm.create("Dog", value: .array([.value(.string("dog \(i)"))])).key) }
            let values: [Value] = [
                .null, .int(-3), .int(1 << 40), .bool(true), .float(2.5), .double(.infinity), .string("hello"),
                .data(Data([9, 8])), .date(Timestamp(seconds: -100, nanoseconds: 250)),
                .decimal128(Decimal128(low: 7, high: 0x3040_0000_0000_0000)),
                .objectId(ObjectId(words: (1, 2, 3))),
                .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
                .typedLink(TypedLink(className: "Dog", key: dogs[3])),
                .list([.int(1), .typedLink(TypedLink(className: "Dog", key: dogs[0]))]),
            ]
            for (i, v) in values.enumerated() {
                try realm.create("Box", value: .array([.value(v), .array(values[..<i].map { .value($0) })]))
            }
        }
        try CoreWriterTests.roundTrip(
            try RealmCoreWriter.tables(from: realm), schemaVersion: realm.schemaVersion, dir, name: "checked.realm")
        #expect(try CoreWriterTests.readBackEqual(realm, className: "Box", dir) == 14)
    }

    /// A typed link to an object or table that is not written is refused.
    @Test func danglingTypedLinksAreRefused() throws {
        var tables = Self.tables()
        tables[1].objects[0].values[0] = .typedLink(tableKey: 0, key: 99)
        #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: tables, schemaVersion: nil) }
        tables[1].objects[0].values[0] = .typedLink(tableKey: 5, key: 0)
        #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: tables, schemaVersion: nil) }
    }
}
