import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Dictionaries (format 24: sorted string keys and Mixed values, two B+trees). Realm Core
/// finds a key by binary search, so the key order must be its own: the oracle is a file
/// Realm Core wrote, whose dictionaries, given to the writer reversed, must come out in the
/// order Realm Core stored them; Realm Core's queries by key must find them.
@Suite(.tags(.multiProcess)) struct CoreWriterDictionaryTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    static func reversed(_ v: CoreValue) -> CoreValue {
        if case .dictionary(let entries) = v { return .dictionary(entries.reversed()) }
        return v
    }

    @Test(.enabled(if: CoreFixtures.sharedIsPresent)) func fixtureDictionariesComeOutInRealmCoresOrder() throws {
        let url = try #require(CoreFixtures.sharedFixture("generated-alltypes.realm"))
        let fixture = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: url)), name: url.lastPathComponent)
        let table = try #require(fixture.table(named: "class_AllTypes"))
        let picked = table.columns.enumerated().filter {
            $0.element.collection == .dictionary && $0.element.type != .mixed && $0.element.type != .link
        }
        #expect(picked.count == 20)
        var stored: [Object] = []
        try table.forEachObject { o in
            stored.append(Object(key: o.key, values: picked.map { o.values[$0.offset] }))
            return true
        }
        let columns = picked.map {
            Column(name: $0.element.name, type: $0.element.type, nullable: $0.element.nullable, isDictionary: true)
        }
        let dir = TempDir("core-writer-dicts")
        let path = dir.path("reversed.realm")
        try RealmCoreWriter.write(
            tables: [
                RealmCoreWriterTable(
                    name: "class_Dicts", columns: columns,
                    objects: stored.map { Object(key: $0.key, values: $0.values.map(Self.reversed)) })
            ],
            schemaVersion: nil, toFile: path)
        let written = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        var i = 0
        var entries = 0
        try #require(written.table(named: "class_Dicts")).forEachObject { o in
            for (c, v) in o.values.enumerated() {
                if case .dictionary(let e) = v { entries += e.count }
                if !CoreWriterTests.same(v, stored[i].values[c]) {
                    Issue.record(
                        "object \(o.key) \(columns[c].name): wrote \(v), Realm Core stored \(stored[i].values[c])")
                }
            }
            i += 1
            return true
        }
        #expect(i == stored.count && entries > 20)
        try CoreWriterTests.roundTrip(
            [RealmCoreWriterTable(name: "class_Dicts", columns: columns, objects: stored)], schemaVersion: nil, dir)
    }

    /// Dictionaries of scalars, of links (with backlinks) and of Mixed (typed links, a nested
    /// list and dictionary), one longer than a B+tree leaf; Realm Core's queries by key.
    @Test func scalarLinkAndMixedDictionaries() throws {
        let dir = TempDir("core-writer-dicts")
        let targets = RealmCoreWriterTable(
            name: "class_T", columns: [.init(name: "n", type: .int, nullable: false)],
            objects: (0..<10).map { Object(key: Int64($0), values: [.int(Int64($0))]) })
        func entries(_ pairs: [(String, CoreValue)]) -> CoreValue {
            .dictionary(pairs.map { CoreDictionaryEntry(key: $0.0, value: $0.1) })
        }
        let owners = RealmCoreWriterTable(
            name: "class_O",
            columns: [
                .init(name: "scores", type: .int, nullable: true, isDictionary: true),
                .init(name: "friends", type: .link, nullable: true, isDictionary: true, linkTarget: "class_T"),
                .init(name: "anything", type: .mixed, nullable: true, isDictionary: true),
                .init(name: "one", type: .mixed, nullable: true),
            ],
            objects: [
                Object(
                    key: 0,
                    values: [
                        entries([("zed", .int(1)), ("Zed", .int(2)), ("é", .null), ("", .int(-4)), ("zed2", .int(5))]),
                        entries([
                            ("best", .link(tableKey: 0, key: 3)), ("none", .null), ("also", .link(tableKey: 0, key: 3)),
                        ]),
                        entries([
                            ("t", .typedLink(tableKey: 0, key: 7)), ("s", .string("x")),
                            ("list", .list([.int(1), .string("y")])),
                            ("dict", entries([("inner", .bool(true))])),
                        ]),
                        entries([("k", .typedLink(tableKey: 0, key: 8)), ("deep", entries([("a", .int(1))]))]),
                    ]),
                Object(
                    key: 1,
                    values: [
                        entries((0..<1200).map { ("key \($0)", .int(Int64($0))) }), .dictionary([]), .dictionary([]),
                        .int(3),
                    ]),
            ])
        let path = try CoreWriterTests.roundTrip([targets, owners].map(Self.inStoredOrder), schemaVersion: nil, dir)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        let t = try #require(file.table(named: "class_T"))
        #expect(try t.object(key: 3)?.backlinks.map(\.count) == [2, 0, 0])
        #expect(try t.object(key: 7)?.backlinks.map(\.count) == [0, 1, 0])
        #expect(try t.object(key: 8)?.backlinks.map(\.count) == [0, 0, 1])
        let tool = try CoreFixtures.requireTool()
        func keys(_ cls: String, _ query: String) throws -> [Int]? {
            let answer =
                try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, cls, query]).stdout) as? [String: Any]
            return answer?["object_keys"] as? [Int]
        }
        for (query, expected) in [
            ("scores['Zed'] == 2", [0]), ("scores['key 999'] == 999", [1]), ("scores.@keys == 'é'", [0]),
            ("friends['best'].n == 3", [0]), ("anything['s'] == 'x'", [0]), ("one['deep']['a'] == 1", [0]),
        ] {
            let found = try keys("O", query)
            #expect(found == expected, "\(query)")
        }
    }

    /// Each dictionary with its entries in key order (as the reader reads them back).
    static func inStoredOrder(_ table: RealmCoreWriterTable) -> RealmCoreWriterTable {
        func sort(_ v: CoreValue) -> CoreValue {
            switch v {
            case .dictionary(let e):
                return .dictionary(
                    e.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
                        .map { CoreDictionaryEntry(key: $0.key, value: sort($0.value)) })
            case .list(let items): return .list(items.map(sort))
            default: return v
            }
        }
        var t = table
        for o in t.objects.indices { t.objects[o].values = t.objects[o].values.map(sort) }
        return t
    }

    /// A Realm's maps (scalars, optional values, links, Mixed) written and converted back equal.
    @Test func aRealmWithMapsIsWrittenAndReadBackEqual() throws {
        let dir = TempDir("core-writer-dicts")
        let schema = Schema([
            ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
            ObjectSchema(
                name: "Kennel",
                properties: [
                    Property(name: "counts", type: .int, isMap: true),
                    Property(name: "notes", type: .string, isOptional: true, isMap: true),
                    Property(name: "dogs", type: .object, isMap: true, objectClassName: "Dog"),
                    Property(name: "extra", type: .mixed, isMap: true),
                    Property(name: "any", type: .mixed),
                ]),
        ])
        let realm = try Realm(path: dir.path("native.realm"), schema: schema)
        try realm.write {
            var dogs: [ObjectKey] = []
            for i in 0..<4 { dogs.append(try realm.create("Dog", value: .array([.value(.string("d\(i)"))])).key) }
            for i in 0..<5 {
                var counts: [String: Value] = [:]
                var notes: [String: Value] = [:]
                var kennelDogs: [String: Value] = [:]
                for j in 0..<i {
                    counts["c\(j)"] = .int(Int64(i * j))
                    notes["n\(j) é"] = j == 1 ? .null : .string("note \(j)")
                    kennelDogs["dog\(j)"] = j == 2 ? .null : .link(dogs[(i + j) % 4])
                }
                let extra: Value = .map([
                    "x": .int(Int64(i)), "link": .typedLink(TypedLink(className: "Dog", key: dogs[i % 4])),
                    "nested": .map(["list": .list([.string("a"), .double(0.5)])]),
                ])
                try realm.create(
                    "Kennel",
                    value: .array([
                        .value(.map(counts)), .value(.map(notes)), .value(.map(kennelDogs)),
                        .value(extra), .value(i % 2 == 0 ? .map(["k": .bool(true)]) : .string("plain")),
                    ]))
            }
        }
        let tables = try CoreWriterRealmTests.withTableKeys(RealmCoreWriter.tables(from: realm)).map(Self.inStoredOrder)
        try CoreWriterTests.roundTrip(tables, schemaVersion: realm.schemaVersion, dir, name: "checked.realm")
        #expect(try CoreWriterTests.readBackEqual(realm, className: "Kennel", dir) == 5)
    }
}
