import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Primary keys and indexed columns: `RealmCoreWriter` writes Realm Core's search index
/// (`StringIndex`). Realm Core checks it (`verify` finds every object through the index under
/// its own value), queries through it, writes to the file through it (`write-test` adds,
/// changes and deletes objects, then looks every object up by primary key), and builds the
/// same index itself from the same data (`make` from our file's dump).
@Suite(.tags(.multiProcess)) struct CoreWriterIndexTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    static func indexed(_ name: String, _ type: CoreColumnType, nullable: Bool) -> Column {
        var c = Column(name: name, type: type, nullable: nullable)
        c.isIndexed = true
        return c
    }

    static func table(_ name: String, _ columns: [Column], primaryKey: String?, _ objects: [Object])
        -> RealmCoreWriterTable
    {
        var t = RealmCoreWriterTable(name: name, columns: columns, objects: objects)
        t.primaryKey = primaryKey
        return t
    }

    /// Realm Core's answer to `query` on `className`: the object keys, in key order.
    static func query(_ path: String, _ className: String, _ rql: String) throws -> [Int64]? {
        let tool = try CoreFixtures.requireTool()
        let answer =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, className, rql]).stdout) as? [String: Any]
        let keys = try #require(answer?["object_keys"] as? [Any], "\(rql): \(String(describing: answer))")
        return keys.compactMap { ($0 as? NSNumber)?.int64Value }.sorted()
    }

    /// Has Realm Core build the same tables itself (`make` from Realm Core's dump of our file)
    /// and compares every search index node by node. Returns our indexes as text (by table
    /// and column), for checks of their shape.
    @discardableResult
    static func expectRealmCoreBuildsTheSameIndexes(_ path: String, tables: Int, _ dir: TempDir) throws -> [[String]] {
        let ours = try CoreIndexTree(path: path)
        let described = try (0..<tables).map { t in
            try ours.indexRefs(table: t).filter { $0 != 0 }.map { try ours.describe($0) }
        }
        let tool = try CoreFixtures.requireTool()
        let dump = dir.path("dump-\(UUID().uuidString).json")
        try CoreProcess.run(tool, ["dump", path]).stdout.write(to: URL(fileURLWithPath: dump))
        let made = dir.path("made-\(UUID().uuidString).realm")
        _ = try CoreProcess.run(tool, ["make", made, "--from", dump])
        let theirs = try CoreIndexTree(path: made)
        var compared = 0
        for t in 0..<tables {
            let a = try ours.indexRefs(table: t)
            let b = try theirs.indexRefs(table: t)
            #expect(a.map { $0 != 0 } == b.map { $0 != 0 }, "table \(t): indexed columns differ")
            for (x, y) in zip(a, b) where x != 0 && y != 0 {
                let mine = try ours.describe(x)
                let core = try theirs.describe(y)
                let same = zip(mine, core).prefix { $0 == $1 }.count
                #expect(
                    mine == core,
                    "table \(t): the indexes differ after \(same) characters: ours …\(mine.dropFirst(max(0, same - 200)).prefix(600))… Realm Core's …\(core.dropFirst(max(0, same - 200)).prefix(600))…"
                )
                compared += 1
            }
        }
        #expect(compared > 0)
        return described
    }

    /// Strings for a string primary key: over 1000 distinct 4-byte prefixes (the index's root
    /// leaf splits into a B-tree), prefixes shared by many (sub-indexes several levels deep),
    /// strings of 0–5 bytes around the 4-byte boundary and the 'X' terminator, a NUL byte,
    /// strings sharing more than 200 bytes (kept in one list, sorted by value), and nil.
    static let strings: [String?] = {
        var s: [String?] = (0..<1150).map { String(format: "%04d", $0 * 7 % 10_000) + "-\($0)" }
        s += (0..<40).map { "shared-prefix-\($0)" }
        s += ["", "a", "ab", "abc", "abcd", "abcde", "abX", "abX\u{0}", "abXX", "ünï", "🐶dog", "🐶dogs", nil]
        s += [3, 1, 4, 0, 2].map { String(repeating: "p", count: 210) + "\($0)" }
        return s
    }()

    @Test func stringPrimaryKey() throws {
        let dir = TempDir("core-writer-index")
        let columns = [
            Column(name: "id", type: .string, nullable: true), Column(name: "n", type: .int, nullable: false),
        ]
        // Keys in an order unrelated to the values.
        let objects = Self.strings.enumerated().map { i, s in
            Object(
                key: Int64((i * 37) % Self.strings.count) * 2 + 5,
                values: [s.map(CoreValue.string) ?? .null, .int(Int64(i))])
        }
        let path = try CoreWriterTests.roundTrip([Self.table("class_Str", columns, primaryKey: "id", objects)], dir)
        let indexes = try Self.expectRealmCoreBuildsTheSameIndexes(path, tables: 2, dir)
        // Over 1000 keys: the root is an inner B-tree node; shared prefixes made sub-indexes.
        #expect(
            indexes[1].count == 1 && indexes[1][0].hasPrefix("I32{"), "\(indexes[1].first?.prefix(100) ?? "no index")")
        #expect(indexes[1].first?.contains(":SL32{") == true)
        let key = { (s: String?) in objects.first { $0.values[0] == (s.map(CoreValue.string) ?? .null) }?.key }
        for (rql, value) in [
            ("id == ''", ""), ("id == 'abc'", "abc"), ("id == 'abcd'", "abcd"), ("id == nil", nil),
            ("id == 'shared-prefix-17'", "shared-prefix-17"), ("id == '0700-100'", "0700-100"),
            ("id == '🐶dog'", "🐶dog"),
            ("id == '\(String(repeating: "p", count: 210))4'", String(repeating: "p", count: 210) + "4"),
        ] {
            guard let found = try Self.query(path, "Str", rql) else { return }
            let expected = try #require(key(value), "\(rql)")
            #expect(found == [expected], "\(rql)")
        }
        #expect(try Self.query(path, "Str", "id == 'shared-prefix-'") == [])
    }

    @Test func intObjectIdUUIDAndEmptyPrimaryKeys() throws {
        let dir = TempDir("core-writer-index")
        // 1500 ints (over 1000 distinct keys: a B-tree), the extremes, keys in reverse value order.
        let ints: [Int64] = (0..<1500).map { Int64($0) - 700 } + [Int64.min, Int64.max, 1 << 40, -(1 << 40)]
        let intObjects: [Object] = ints.enumerated().map { i, v in Object(key: Int64(ints.count - i), values: [.int(v)])
        }
        // ObjectIds sharing their first 4 bytes (one second's timestamp) and more.
        var oids: [Data?] = []
        for i in 0..<300 {
            let bytes: [UInt8] = [0x65, 0x4A, 0x01, 0x02, UInt8(i % 3), 0, 0, 0, 0, 0, UInt8(i >> 8), UInt8(i & 0xFF)]
            oids.append(Data(bytes))
        }
        oids.append(nil)
        let oidObjects: [Object] = oids.enumerated().map { i, d in
            let id: CoreValue = d.map { CoreValue.objectId($0) } ?? .null
            return Object(key: Int64(i), values: [id, .string("o\(i)")])
        }
        var uuidObjects: [Object] = []
        for i in 0..<50 {
            let bytes: [UInt8] = (0..<16).map { b in UInt8((b < 8 ? 0 : i * 5 + b) & 0xFF) }
            uuidObjects.append(Object(key: Int64(i * 3), values: [.uuid(Data(bytes))]))
        }
        let tables = [
            Self.table("class_Int", [Column(name: "_id", type: .int, nullable: false)], primaryKey: "_id", intObjects),
            Self.table(
                "class_Oid",
                [
                    Column(name: "_id", type: .objectId, nullable: true),
                    Column(name: "s", type: .string, nullable: false),
                ],
                primaryKey: "_id", oidObjects),
            Self.table(
                "class_Uuid", [Column(name: "_id", type: .uuid, nullable: false)], primaryKey: "_id", uuidObjects),
            // No objects: the index is an empty leaf.
            Self.table("class_None", [Column(name: "_id", type: .string, nullable: true)], primaryKey: "_id", []),
        ]
        let path = try CoreWriterTests.roundTrip(tables, dir)
        let indexes = try Self.expectRealmCoreBuildsTheSameIndexes(path, tables: 5, dir)
        #expect(indexes[4] == ["L32{}"])
        #expect(
            indexes[1].count == 1 && indexes[1][0].hasPrefix("I32{"), "\(indexes[1].first?.prefix(100) ?? "no index")")
        for v: Int64 in [-700, 0, 5, 799, .min, .max] {
            guard let found = try Self.query(path, "Int", "_id == \(v)") else { return }
            #expect(found == [intObjects.first { $0.values[0] == .int(v) }?.key].compactMap { $0 }, "_id == \(v)")
        }
        #expect(try Self.query(path, "Int", "_id == 800") == [])
        #expect(try Self.query(path, "Oid", "_id == oid(654a01020200000000000107)") == [263])
        #expect(try Self.query(path, "Oid", "_id == nil") == [300])
    }

    /// Indexed string, int, bool, timestamp, ObjectId and UUID columns with many duplicates,
    /// nil and empty strings; over 1000 objects share one bool (their list is a B+tree).
    @Test func indexedColumnsWithDuplicates() throws {
        let dir = TempDir("core-writer-index")
        let columns = [
            Self.indexed("s", .string, nullable: true), Self.indexed("n", .int, nullable: true),
            Self.indexed("b", .bool, nullable: false),
            Self.indexed("d", .timestamp, nullable: true), Self.indexed("o", .objectId, nullable: false),
            Self.indexed("u", .uuid, nullable: true), Column(name: "plain", type: .string, nullable: false),
        ]
        let count = 2300
        let objects: [Object] = (0..<count).map { (i: Int) -> Object in
            let o: [UInt8] = [0x65, 0, 0, 1] + [UInt8](repeating: UInt8(i % 3), count: 8)
            return Object(
                key: Int64(i),
                values: [
                    i % 10 == 0 ? .null : i % 7 == 0 ? .string("") : .string("v\(i % 50)"),
                    i % 9 == 0 ? .null : .int(Int64(i % 30) - 3),
                    .bool(i % 2 == 0),
                    i % 11 == 0 ? .null : .timestamp(seconds: Int64(i % 5) * 86_400 - 86_400, nanoseconds: 0),
                    .objectId(Data(o)),
                    i % 4 == 0 ? .null : .uuid(Data([UInt8](repeating: UInt8(i % 6), count: 16))),
                    .string("p\(i)"),
                ])
        }
        let path = try CoreWriterTests.roundTrip(
            [Self.table("class_Idx", columns, primaryKey: nil, objects)], dir, compareDumps: false)
        try Self.expectRealmCoreBuildsTheSameIndexes(path, tables: 2, dir)
        func expected(_ column: Int, _ v: CoreValue) -> [Int64] { objects.filter { $0.values[column] == v }.map(\.key) }
        let two: [UInt8] = [0x65, 0, 0, 1] + [UInt8](repeating: 2, count: 8)
        let checks: [(String, Int, CoreValue)] = [
            ("s == 'v3'", 0, .string("v3")), ("s == ''", 0, .string("")), ("s == nil", 0, .null),
            ("n == 4", 1, .int(4)), ("n == -3", 1, .int(-3)), ("n == nil", 1, .null),
            ("b == true", 2, .bool(true)), ("b == false", 2, .bool(false)),
            ("u == nil", 5, .null), ("o == oid(650000010202020202020202)", 4, .objectId(Data(two))),
        ]
        for (rql, column, value) in checks {
            guard let found = try Self.query(path, "Idx", rql) else { return }
            #expect(found == expected(column, value), "\(rql): \(found.count) objects")
        }
    }

    @Test func refusesDuplicatePrimaryKeysAndUnindexableColumns() throws {
        let dup = Self.table(
            "class_Dup", [Column(name: "_id", type: .string, nullable: false)], primaryKey: "_id",
            [Object(key: 0, values: [.string("a")]), Object(key: 1, values: [.string("a")])])
        #expect(throws: RealmError.self) { try RealmCoreWriter.image(tables: [dup], schemaVersion: 1) }
        let double = Self.table(
            "class_D", [Self.indexed("x", .double, nullable: false)], primaryKey: nil,
            [Object(key: 0, values: [.double(1)])])
        #expect(throws: RealmError.self) { try RealmCoreWriter.image(tables: [double], schemaVersion: 1) }
        let missing = Self.table("class_M", [Column(name: "x", type: .int, nullable: false)], primaryKey: "id", [])
        #expect(throws: RealmError.self) { try RealmCoreWriter.image(tables: [missing], schemaVersion: 1) }
        let boolKey = Self.table("class_B", [Column(name: "x", type: .bool, nullable: false)], primaryKey: "x", [])
        #expect(throws: RealmError.self) { try RealmCoreWriter.image(tables: [boolKey], schemaVersion: 1) }
    }

    /// This engine's Realm with primary keys and indexed properties: written, checked by Realm
    /// Core, and read back with the same schema (primary key, indexes) and objects.
    @Test func aRealmWithPrimaryKeysIsWrittenAndReadBack() throws {
        let dir = TempDir("core-writer-index")
        let schema = Schema([
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "_id", type: .string, isPrimaryKey: true),
                    Property(name: "age", type: .int, isOptional: true, isIndexed: true),
                    Property(name: "dog", type: .object, isOptional: true, objectClassName: "Dog"),
                ]),
            ObjectSchema(
                name: "Dog",
                properties: [
                    Property(name: "_id", type: .objectId, isPrimaryKey: true),
                    Property(name: "name", type: .string, isIndexed: true),
                    Property(name: "good", type: .bool, isIndexed: true),
                    Property(name: "born", type: .date, isOptional: true, isIndexed: true),
                ]),
        ])
        let realm = try Realm(path: dir.path("native.realm"), schema: schema)
        try realm.write {
            var dogs: [ObjectKey] = []
            for i in 0..<40 {
                let values: [Value] = [
                    .objectId(ObjectId(words: (UInt32(i), 7, 9))), .string(i % 4 == 0 ? "" : "dog \(i % 6)"),
                    .bool(i % 3 == 0),
                    i % 5 == 0 ? .null : .date(Timestamp(seconds: Int64(i % 4) * 1000, nanoseconds: 0)),
                ]
                dogs.append(try realm.create("Dog", value: .array(values.map(ObjectInput.value))).key)
            }
            for i in 0..<30 {
                try realm.create(
                    "Person",
                    value: .array([
                        .value(.string("person \(i)")), .value(i % 7 == 0 ? .null : .int(Int64(i % 5))),
                        .value(.link(dogs[i])),
                    ]))
            }
        }
        try CoreWriterTests.roundTrip(
            CoreWriterRealmTests.withTableKeys(try RealmCoreWriter.tables(from: realm)),
            schemaVersion: realm.schemaVersion,
            dir, name: "checked.realm")
        let path = dir.path("copy.realm")
        try RealmCoreWriter.write(realm, toFile: path)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        let conversion = try RealmCoreConversion(file: file)
        #expect(conversion.omissions.isEmpty)
        for objectSchema in schema.objectSchemas {
            let read = try #require(conversion.schema.objectSchemas.first { $0.name == objectSchema.name })
            #expect(read.primaryKeyProperty?.name == "_id")
            #expect(
                read.properties.map(\.isIndexed) == objectSchema.properties.map(\.isIndexed), "\(objectSchema.name)")
            var seen = 0
            try conversion.forEachObject(of: objectSchema.name) { key, values in
                seen += 1
                let original = try realm.object(ofType: objectSchema.name, key: key)?.values()
                #expect(values == original, "\(objectSchema.name) \(key.rawValue)")
                return true
            }
            #expect(seen == (objectSchema.name == "Dog" ? 40 : 30))
        }
        #expect(try Self.query(path, "Person", "_id == 'person 12'")?.count == 1)
        #expect(try Self.query(path, "Dog", "name == 'dog 1'")?.count == 7)
    }
}
