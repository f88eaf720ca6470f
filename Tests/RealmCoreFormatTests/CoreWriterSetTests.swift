import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Sets: written in Realm Core's own element order (its lookups are binary searches, so a
/// set out of that order loses elements in the user's app). The oracle for the order is a
/// file Realm Core wrote: its sets, given to the writer reversed, must come out in the order
/// Realm Core stored them.
@Suite(.tags(.multiProcess)) struct CoreWriterSetTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    /// Every scalar set column of `generated-alltypes.realm` (NaNs, nulls, prefixes, negative
    /// timestamps, decimal NaNs and null included).
    @Test(.enabled(if: CoreFixtures.sharedIsPresent)) func fixtureSetsComeOutInRealmCoresOrder() throws {
        let url = try #require(CoreFixtures.sharedFixture("generated-alltypes.realm"))
        let fixture = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: url)), name: url.lastPathComponent)
        let table = try #require(fixture.table(named: "class_AllTypes"))
        let picked = table.columns.enumerated().filter {
            $0.element.collection == .set && $0.element.type != .mixed && $0.element.type != .link
        }
        #expect(picked.count == 20)
        var stored: [Object] = []
        try table.forEachObject { o in
            stored.append(Object(key: o.key, values: picked.map { o.values[$0.offset] }))
            return true
        }
        let columns = picked.map {
            Column(name: $0.element.name, type: $0.element.type, nullable: $0.element.nullable, isSet: true)
        }
        let reversed = stored.map { o in
            Object(
                key: o.key,
                values: o.values.map { v in if case .set(let items) = v { .set(items.reversed()) } else { v } })
        }
        let dir = TempDir("core-writer-sets")
        let path = dir.path("reversed.realm")
        try RealmCoreWriter.write(
            tables: [RealmCoreWriterTable(name: "class_Sets", columns: columns, objects: reversed)], schemaVersion: nil,
            toFile: path)
        let written = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        // Realm Core leaves a float or double NaN where the order of insertion put it; the
        // writer puts it last (`CoreSetOrder.sorted`), which is where Realm Core left it in
        // object 3 and where its binary search finds every other element.
        let expected = stored.map { o in Object(key: o.key, values: o.values.map(Self.nanLast)) }
        var i = 0
        try #require(written.table(named: "class_Sets")).forEachObject { o in
            for (c, v) in o.values.enumerated() where !CoreWriterTests.same(v, expected[i].values[c]) {
                Issue.record("object \(o.key) \(columns[c].name): wrote \(v), Realm Core stored \(stored[i].values[c])")
            }
            i += 1
            return true
        }
        #expect(i == stored.count && i > 3)
        // Object 3's float and double sets hold a NaN, last as Realm Core left it: byte for byte.
        let three = try #require(stored.first { $0.key == 3 })
        #expect(three.values.filter(Self.hasNaN).count >= 2)
        for v in three.values { #expect(CoreWriterTests.same(v, Self.nanLast(v)), "\(v)") }
        // The file in Realm Core's order passes Realm Core's checks and dumps equal.
        try CoreWriterTests.roundTrip(
            [RealmCoreWriterTable(name: "class_Sets", columns: columns, objects: expected)], schemaVersion: nil, dir)
    }

    /// A set with its float or double NaNs moved last, the other elements in their order.
    static func nanLast(_ v: CoreValue) -> CoreValue {
        guard case .set(let items) = v else { return v }
        let nan = items.filter { Self.hasNaN(.set([$0])) }
        return .set(items.filter { !Self.hasNaN(.set([$0])) } + nan)
    }

    /// A float or double set holding a NaN, in any order of insertion: the other elements in
    /// order, the NaN last (after a null first in an optional set); Realm Core verifies the file.
    @Test func aNaNIsWrittenLastInAFloatOrDoubleSet() throws {
        let dir = TempDir("core-writer-sets")
        let columns = [
            Column(name: "d", type: .double, nullable: false, isSet: true),
            Column(name: "f", type: .float, nullable: true, isSet: true),
        ]
        // Each order of insertion: the NaN first, in the middle, last.
        let doubles: [[CoreValue]] = [
            [.double(.nan), .double(7), .double(-3)], [.double(7), .double(.nan), .double(-3)],
            [.double(7), .double(-3), .double(.nan)],
        ]
        let floats: [[CoreValue]] = [
            [.float(.nan), .null, .float(1)], [.float(1), .float(.nan), .null], [.null, .float(1), .float(.nan)],
        ]
        let objects = zip(doubles, floats).enumerated().map { i, sets in
            Object(key: Int64(i), values: [.set(sets.0), .set(sets.1)])
        }
        let path = dir.path("nan.realm")
        try RealmCoreWriter.write(
            tables: [RealmCoreWriterTable(name: "class_N", columns: columns, objects: objects)], schemaVersion: nil,
            toFile: path)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        var read = 0
        try #require(file.table(named: "class_N")).forEachObject { o in
            #expect(
                CoreWriterTests.same(o.values[0], .set([.double(-3), .double(7), .double(.nan)])), "\(o.values[0])")
            #expect(CoreWriterTests.same(o.values[1], .set([.null, .float(1), .float(.nan)])), "\(o.values[1])")
            read += 1
            return true
        }
        #expect(read == 3)
        if let tool = CoreFixtures.tool() {
            let verify = try CoreProcess.run(tool, ["verify", path])
            #expect(String(decoding: verify.stdout, as: UTF8.self).contains("\"result\": \"ok\""))
        }
    }

    /// The fixture's set of Mixed (numbers of every kind, strings and binaries, nulls): given
    /// to the writer reversed, it comes out in the order Realm Core stored it (`Mixed::compare`).
    @Test(.enabled(if: CoreFixtures.sharedIsPresent)) func fixtureMixedSetComesOutInRealmCoresOrder() throws {
        let url = try #require(CoreFixtures.sharedFixture("generated-alltypes.realm"))
        let fixture = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: url)), name: url.lastPathComponent)
        let table = try #require(fixture.table(named: "class_AllTypes"))
        let picked = table.columns.enumerated().filter { $0.element.collection == .set && $0.element.type == .mixed }
        #expect(picked.count == 1)
        var stored: [Object] = []
        try table.forEachObject { o in
            // Typed links left out: their target tables are not written here (the CLI round
            // trip of this fixture writes them); the other elements keep their stored order.
            stored.append(
                Object(
                    key: o.key,
                    values: picked.map { p in
                        guard case .set(let items) = o.values[p.offset] else { return o.values[p.offset] }
                        return .set(items.filter { if case .typedLink = $0 { false } else { true } })
                    }))
            return true
        }
        let nonEmpty = stored.filter { o in
            o.values.contains { if case .set(let items) = $0 { items.count > 2 } else { false } }
        }
        #expect(nonEmpty.count > 0)
        let columns = picked.map { Column(name: $0.element.name, type: .mixed, nullable: true, isSet: true) }
        let reversed = stored.map { o in
            Object(
                key: o.key,
                values: o.values.map { v in if case .set(let items) = v { .set(items.reversed()) } else { v } })
        }
        let dir = TempDir("core-writer-mixed-sets")
        let path = dir.path("reversed.realm")
        try RealmCoreWriter.write(
            tables: [RealmCoreWriterTable(name: "class_Sets", columns: columns, objects: reversed)], schemaVersion: nil,
            toFile: path)
        let written = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        var i = 0
        try #require(written.table(named: "class_Sets")).forEachObject { o in
            for (c, v) in o.values.enumerated() where !CoreWriterTests.same(v, stored[i].values[c]) {
                Issue.record("object \(o.key) \(columns[c].name): wrote \(v), Realm Core stored \(stored[i].values[c])")
            }
            i += 1
            return true
        }
        #expect(i == stored.count && i > 3)
        try CoreWriterTests.roundTrip(
            [RealmCoreWriterTable(name: "class_Sets", columns: columns, objects: stored)], schemaVersion: nil, dir)
    }

    /// Two elements Realm Core takes as one (`1`, `1.0` and decimal `1` in a set of Mixed) are
    /// refused by name, not silently dropped; a string and a binary of the same bytes are two.
    @Test func mixedSetElementsEqualByRealmAreRefused() throws {
        let dir = TempDir("core-writer-mixed-sets")
        let columns = [Column(name: "m", type: .mixed, nullable: true, isSet: true)]
        func write(_ items: [CoreValue]) throws -> String {
            let path = dir.path("m\(items.count).realm")
            try RealmCoreWriter.write(
                tables: [
                    RealmCoreWriterTable(
                        name: "class_M", columns: columns, objects: [Object(key: 0, values: [.set(items)])])
                ],
                schemaVersion: nil, toFile: path)
            return path
        }
        #expect(throws: RealmError.self) { try write([.int(1), .string("a"), .double(1.0)]) }
        #expect(throws: RealmError.self) { try write([.decimal128(low: 1, high: 0x3040_0000_0000_0000), .int(1)]) }
        let path = try write([.binary(Data("a".utf8)), .int(2), .string("a"), .double(1.5), .bool(true), .null])
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        var got: [CoreValue] = []
        try #require(file.table(named: "class_M")).forEachObject { o in
            if case .set(let items) = o.values[0] { got = items }
            return true
        }
        // null, bools, numbers (1.5 before 2), strings, binaries.
        #expect(got == [.null, .bool(true), .double(1.5), .int(2), .string("a"), .binary(Data("a".utf8))])
    }

    static func hasNaN(_ v: CoreValue) -> Bool {
        guard case .set(let items) = v else { return false }
        return items.contains { item in
            switch item {
            case .float(let f): f.isNaN
            case .double(let d): d.isNaN
            default: false
            }
        }
    }

    /// Sets of links with their backlinks, and sets longer than a B+tree leaf; Realm Core's
    /// queries find set members.
    @Test func linkSetsAndLongSets() throws {
        let dir = TempDir("core-writer-sets")
        let targets = RealmCoreWriterTable(
            name: "class_T", columns: [.init(name: "n", type: .int, nullable: false)],
            objects: (0..<20).map { Object(key: Int64($0), values: [.int(Int64($0))]) })
        let owners = RealmCoreWriterTable(
            name: "class_O",
            columns: [
                .init(name: "targets", type: .link, nullable: false, isSet: true, linkTarget: "class_T"),
                .init(name: "words", type: .string, nullable: true, isSet: true),
                .init(name: "numbers", type: .int, nullable: false, isSet: true),
            ],
            objects: (0..<4).map { i in
                Object(
                    key: Int64(i),
                    values: [
                        .set([19, 3, 7, 0].prefix(i).map { .link(tableKey: 0, key: Int64($0)) }),
                        .set(i == 1 ? [.string("b"), .null, .string("ab"), .string(""), .string("a")] : []),
                        .set(i == 3 ? (0..<2500).map { .int(Int64(($0 * 7919) % 2500) - 1250) } : [.int(Int64(i))]),
                    ])
            })
        let path = dir.path("sets.realm")
        try RealmCoreWriter.write(tables: [targets, owners], schemaVersion: nil, toFile: path)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        let o = try #require(file.table(named: "class_O"))
        let one = try #require(try o.object(key: 1))
        #expect(one.values[1] == .set([.null, .string(""), .string("a"), .string("ab"), .string("b")]))
        let three = try #require(try o.object(key: 3))
        #expect(three.values[0] == .set([3, 7, 19].map { .link(tableKey: 0, key: $0) }))
        #expect(three.values[2] == .set((0..<2500).map { .int(Int64($0) - 1250) }))
        let t = try #require(file.table(named: "class_T"))
        #expect(try t.object(key: 3)?.backlinks == [[2, 3]])
        let tool = try CoreFixtures.requireTool()
        for (args, expected) in [
            (["verify", path], "\"result\": \"ok\""), (["write-test", path], "\"result\": \"ok\""),
        ] {
            #expect(String(decoding: try CoreProcess.run(tool, args).stdout, as: UTF8.self).contains(expected))
        }
        func keys(_ cls: String, _ query: String) throws -> [Int]? {
            let answer =
                try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, cls, query]).stdout) as? [String: Any]
            return answer?["object_keys"] as? [Int]
        }
        let withSeven = try keys("O", "ANY targets.n == 7")
        #expect(withSeven == [3])
        let withA = try keys("O", "'ab' IN words")
        #expect(withA == [1])
        let withNumber = try keys("O", "ANY numbers == 1249")
        #expect(withNumber == [3])
        let linked = try keys("T", "@links.O.targets.@count > 0")
        #expect(linked == [3, 7, 19])
    }

    /// Elements Realm Core takes as equal are refused, not merged.
    @Test func equalElementsAreRefused() throws {
        for (type, a, b) in [
            (CoreColumnType.double, CoreValue.double(0.0), CoreValue.double(-0.0)),
            (
                .decimal128, .decimal128(low: 1, high: 0x3040_0000_0000_0000),
                .decimal128(low: 10, high: 0x303E_0000_0000_0000)
            ),
            (.string, .string("x"), .string("x")),
        ] {
            let withNaN = RealmCoreWriterTable(
                name: "class_S", columns: [.init(name: "s", type: .float, nullable: false, isSet: true)],
                objects: [.init(key: 0, values: [.set([.float(1), .float(.nan), .float(1)])])])
            #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: [withNaN], schemaVersion: nil) }
            let table = RealmCoreWriterTable(
                name: "class_S", columns: [.init(name: "s", type: type, nullable: false, isSet: true)],
                objects: [.init(key: 0, values: [.set([a, b])])])
            #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: [table], schemaVersion: nil) }
        }
    }

    /// A Realm's sets (scalars, optional strings, links) written and converted back equal.
    @Test func aRealmWithSetsIsWrittenAndReadBackEqual() throws {
        let dir = TempDir("core-writer-sets")
        let schema = Schema([
            ObjectSchema(name: "Tag", properties: [Property(name: "name", type: .string)]),
            ObjectSchema(
                name: "Post",
                properties: [
                    Property(name: "ids", type: .int, isSet: true),
                    Property(name: "labels", type: .string, isOptional: true, isSet: true),
                    Property(name: "when", type: .date, isSet: true),
                    Property(name: "tags", type: .object, isSet: true, objectClassName: "Tag"),
                ]),
        ])
        let realm = try Realm(path: dir.path("native.realm"), schema: schema)
        try realm.write {
            var tags: [ObjectKey] = []
            for i in 0..<6 { tags.append(try realm.create("Tag", value: .array([.value(.string("t\(i)"))])).key) }
            for i in 0..<8 {
                try realm.create(
                    "Post",
                    value: .array([
                        .array((0..<i).map { .value(.int(Int64(($0 * 5) % 11) - 5)) }),
                        .array(
                            (0..<(i % 4)).map {
                                $0 == 1 ? .value(.null) : .value(.string(["zeta", "Alpha", "alpha", "é"][$0]))
                            }),
                        .array(
                            (0..<(i % 3)).map {
                                .value(.date(Timestamp(seconds: Int64($0) * -1000 + 7, nanoseconds: 0)))
                            }),
                        .array((0..<(i % 5)).map { .value(.link(tags[($0 * 2 + i) % 6])) }),
                    ]))
            }
        }
        try CoreWriterTests.roundTrip(
            try CoreWriterRealmTests.withTableKeys(RealmCoreWriter.tables(from: realm)).map(Self.sortedSets),
            schemaVersion: realm.schemaVersion, dir, name: "checked.realm")
        #expect(try CoreWriterTests.readBackEqual(realm, className: "Post", dir) == 8)
    }

    /// The table with each set in the order the writer stores it (as the reader reads it back).
    static func sortedSets(_ table: RealmCoreWriterTable) throws -> RealmCoreWriterTable {
        var t = table
        let image = try RealmCoreWriter.image(
            tables: [
                RealmCoreWriterTable(
                    name: t.name, columns: t.columns.filter { $0.type != .link },
                    objects: t.objects.map { o in
                        Object(key: o.key, values: zip(t.columns, o.values).filter { $0.0.type != .link }.map(\.1))
                    })
            ], schemaVersion: nil)
        let file = try RealmCoreFile(image: RealmCoreImage(copying: Data(image)), name: t.name)
        let read = try #require(file.table(named: t.name))
        let scalarColumns = t.columns.indices.filter { t.columns[$0].type != .link }
        var i = 0
        try read.forEachObject { o in
            for (c, v) in zip(scalarColumns, o.values) { t.objects[i].values[c] = v }
            i += 1
            return true
        }
        for c in t.columns.indices where t.columns[c].type == .link && t.columns[c].isSet {
            for o in t.objects.indices {
                if case .set(let items) = t.objects[o].values[c] {
                    t.objects[o].values[c] = .set(
                        items.sorted { a, b in
                            if case .link(_, let x) = a, case .link(_, let y) = b { return x < y }
                            return false
                        })
                }
            }
        }
        return t
    }
}
