import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Files `RealmCoreWriter` writes, checked by Realm Core itself (`realm-core-tool verify`,
/// `write-test`, `dump`, `query`) and read back by this reader.
@Suite(.tags(.multiProcess)) struct CoreWriterTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    /// Equal values, floats and doubles compared by bits (NaN, -0).
    static func same(_ a: CoreValue, _ b: CoreValue) -> Bool {
        switch (a, b) {
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.list(let x), .list(let y)), (.set(let x), .set(let y)):
            x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default: a == b
        }
    }

    /// Writes `realm` as a Realm Core file in `dir`, reads it back through the reader and
    /// expects every object of `className` to equal the original; answers how many were read.
    static func readBackEqual(_ realm: Realm, className: String, _ dir: TempDir) throws -> Int {
        let path = dir.path("copy.realm")
        try RealmCoreWriter.write(realm, toFile: path)
        let conversion = try RealmCoreConversion(
            file: RealmCoreFile(
                image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path))
        #expect(conversion.omissions.isEmpty)
        var seen = 0
        try conversion.forEachObject(of: className) { key, values in
            seen += 1
            let original = try realm.object(ofType: className, key: key)?.values()
            #expect(values == original, "\(className) \(key.rawValue)")
            return true
        }
        return seen
    }

    /// Writes `tables` to `path` and reads the file back with this reader, expecting its
    /// schema version, columns, object counts, keys and every value to be what was written
    /// (`context`, a random test's seed, goes into every failure). Returns the file as read.
    static func writeAndReadBack(
        _ tables: [RealmCoreWriterTable], schemaVersion: UInt64?, path: String, context: String
    ) throws -> RealmCoreFile {
        let context: Comment = context.isEmpty ? "" : "\(context)"
        let name = URL(fileURLWithPath: path).lastPathComponent
        try RealmCoreWriter.write(tables: tables, schemaVersion: schemaVersion, toFile: path)
        // For looking at a written file by hand (realm-core-tool, a node dump).
        if let keep = ProcessInfo.processInfo.environment["REALM_CORE_WRITER_KEEP"] {
            try? FileManager.default.copyItem(atPath: path, toPath: keep + "/" + UUID().uuidString + "-" + name)
        }
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: name)
        #expect(file.formatVersion == 24, context)
        #expect(try file.schemaVersion() == schemaVersion.map { Int64(bitPattern: $0) }, context)
        for t in tables {
            let read = try #require(file.table(named: t.name), "\(t.name) missing \(context)")
            #expect(read.columns.map(\.name) == t.columns.map(\.name), context)
            #expect(read.columns.map(\.type) == t.columns.map(\.type), context)
            #expect(read.columns.map(\.nullable) == t.columns.map(\.nullable), context)
            #expect(read.objectCount == t.objects.count, context)
            let expected = t.objects.sorted { $0.key < $1.key }
            var i = 0
            try read.forEachObject { o in
                #expect(i < expected.count, context)
                guard i < expected.count else { return false }
                #expect(o.key == expected[i].key, context)
                for (c, v) in o.values.enumerated() where !same(v, expected[i].values[c]) {
                    Issue.record(
                        "\(t.name) object \(o.key) \(t.columns[c].name): read \(v), wrote \(expected[i].values[c]) \(context)"
                    )
                }
                i += 1
                return true
            }
            #expect(i == expected.count, context)
        }
        return file
    }

    /// Writes `tables`, reads the file back with this reader and compares every value, and
    /// (when the tool is here) has Realm Core verify it, write to it, dump it (equal to this
    /// reader's dump) and count every class's objects with a query. Returns the file's path.
    @discardableResult
    static func roundTrip(
        _ tables: [RealmCoreWriterTable], schemaVersion: UInt64? = 7, _ dir: TempDir,
        name: String = "out.realm", compareDumps: Bool = true, context: String = ""
    ) throws -> String {
        let path = dir.path(name)
        let file = try writeAndReadBack(tables, schemaVersion: schemaVersion, path: path, context: context)
        // `context` (a random test's seed) goes into every failure, to replay it.
        let context: Comment = context.isEmpty ? "" : "\(context)"
        let tool = try CoreFixtures.requireTool()
        let verify = try CoreProcess.run(tool, ["verify", path])
        #expect(
            String(decoding: verify.stdout, as: UTF8.self).contains("\"result\": \"ok\""),
            "\(context) verify: \(verify.stderr)")
        if compareDumps {
            let coreDump = try CoreJSONCompare.parse(CoreProcess.run(tool, ["dump", path]).stdout)
            let ourDump = try CoreJSONCompare.parse(Data(RealmCoreDumper(file: file, fileName: name).dump().utf8))
            let diffs = CoreJSONCompare.differences(coreDump, ourDump, limit: 20)
            #expect(
                diffs.isEmpty,
                "\(context) Realm Core's dump of the written file differs:\n\(diffs.joined(separator: "\n"))")
        }
        let writeTest = try CoreProcess.run(tool, ["write-test", path])
        #expect(
            String(decoding: writeTest.stdout, as: UTF8.self).contains("\"result\": \"ok\""),
            "\(context) write-test: \(writeTest.stderr)")
        for t in tables {
            let answer =
                try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, t.name, "TRUEPREDICATE"]).stdout)
                as? [String: Any]
            #expect(
                answer?["count"] as? Int == t.objects.count,
                "\(context) \(t.name): Realm Core counts \(String(describing: answer?["count"]))")
        }
        return path
    }

    static let toolPresent = CoreFixtures.tool() != nil

    @Test func everyScalarTypeWithEdgeValues() throws {
        let dir = TempDir("core-writer")
        let long = String(repeating: "long string ✓ ", count: 10)
        let medium = String(repeating: "m", count: 40)
        let oid = Data((0..<12).map { UInt8($0 * 7) })
        let uuid = Data((0..<16).map { UInt8(255 - $0) })
        let columns: [Column] = [
            .init(name: "int", type: .int, nullable: false), .init(name: "optInt", type: .int, nullable: true),
            .init(name: "bool", type: .bool, nullable: false), .init(name: "optBool", type: .bool, nullable: true),
            .init(name: "string", type: .string, nullable: false),
            .init(name: "optString", type: .string, nullable: true),
            .init(name: "double", type: .double, nullable: false),
            .init(name: "optDouble", type: .double, nullable: true),
            .init(name: "float", type: .float, nullable: false), .init(name: "optFloat", type: .float, nullable: true),
            .init(name: "date", type: .timestamp, nullable: false),
            .init(name: "optDate", type: .timestamp, nullable: true),
            .init(name: "data", type: .binary, nullable: false), .init(name: "optData", type: .binary, nullable: true),
            .init(name: "oid", type: .objectId, nullable: false),
            .init(name: "optOid", type: .objectId, nullable: true),
            .init(name: "uuid", type: .uuid, nullable: false), .init(name: "optUuid", type: .uuid, nullable: true),
            .init(name: "dec", type: .decimal128, nullable: false),
            .init(name: "optDec", type: .decimal128, nullable: true),
        ]
        let rows: [[CoreValue]] = [
            [
                .int(.min), .null, .bool(false), .null, .string(""), .null, .double(.nan), .null, .float(-0.0), .null,
                .timestamp(seconds: -86_400 * 365 * 30, nanoseconds: -5), .null, .binary(Data()), .null,
                .objectId(oid), .null, .uuid(uuid), .null, .decimal128(low: 15, high: 0x303E_0000_0000_0000), .null,
            ],
            [
                .int(.max), .int(0), .bool(true), .bool(true), .string(long), .string(""), .double(-0.0),
                .double(.infinity),
                .float(.nan), .float(1.5), .timestamp(seconds: 0, nanoseconds: 0),
                .timestamp(seconds: 1_700_000_000, nanoseconds: 999_999_999),
                .binary(Data(repeating: 0xAB, count: 100)), .binary(Data()), .objectId(Data(repeating: 0, count: 12)),
                .objectId(oid),
                .uuid(Data(repeating: 0, count: 16)), .uuid(uuid), .decimal128(low: 0, high: 0x3040_0000_0000_0000),
                .decimal128(low: 1, high: 0xB040_0000_0000_0000),
            ],
            [
                .int(-1), .int(.min), .bool(false), .bool(false), .string("ünïcødé 🐶"), .string(medium), .double(1e300),
                .double(-.infinity),
                .float(.greatestFiniteMagnitude), .float(-.infinity),
                .timestamp(seconds: -1, nanoseconds: -999_999_999), .null,
                .binary(Data([0, 1, 2])), .binary(Data(repeating: 7, count: 65)), .objectId(oid), .null, .uuid(uuid),
                .null,
                .decimal128(low: 123_456_789, high: 0x3036_0000_0000_0000), .null,
            ],
        ]
        let objects = rows.enumerated().map { Object(key: Int64($0.offset), values: $0.element) }
        try Self.roundTrip([RealmCoreWriterTable(name: "class_AllTypes", columns: columns, objects: objects)], dir)
    }

    @Test func emptyTablesAndNoMetadata() throws {
        let dir = TempDir("core-writer")
        let tables = [
            RealmCoreWriterTable(
                name: "class_Empty", columns: [.init(name: "s", type: .string, nullable: true)], objects: []),
            RealmCoreWriterTable(name: "class_NoColumns", columns: [], objects: []),
        ]
        try Self.roundTrip(tables, schemaVersion: nil, dir)
        try Self.roundTrip(tables, schemaVersion: 0, dir, name: "with-metadata.realm")
    }

    /// 1000+ objects with sparse keys: several leaves under an inner node.
    @Test func largeTablesHaveInnerNodes() throws {
        let dir = TempDir("core-writer")
        let columns: [Column] = [
            .init(name: "n", type: .int, nullable: false), .init(name: "s", type: .string, nullable: true),
        ]
        let sparse = (0..<1500).map { i in
            Object(key: Int64(i) * 3 + 1, values: [.int(Int64(i)), i % 5 == 0 ? .null : .string("s\(i)")])
        }
        let path = try Self.roundTrip(
            [RealmCoreWriterTable(name: "class_Sparse", columns: columns, objects: sparse)], dir)
        let tool = try CoreFixtures.requireTool()
        let answer =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "Sparse", "s == nil"]).stdout)
            as? [String: Any]
        #expect(answer?["count"] as? Int == 300)
    }

    /// More than 256 × 256 objects: two levels of inner nodes (checked by Realm Core without
    /// comparing whole dumps, to stay fast).
    @Test func twoLevelsOfInnerNodes() throws {
        let dir = TempDir("core-writer")
        let dense = (0..<66_000).map { i in Object(key: Int64(i) + 10, values: [.int(Int64(i) - 33_000)]) }
        let path = try Self.roundTrip(
            [
                RealmCoreWriterTable(
                    name: "class_Dense", columns: [.init(name: "n", type: .int, nullable: false)],
                    objects: dense)
            ], dir, compareDumps: false)
        let tool = try CoreFixtures.requireTool()
        let answer =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "Dense", "n >= 0"]).stdout)
            as? [String: Any]
        #expect(answer?["count"] as? Int == 33_000)
    }

    /// A leaf of "" only, in a required column: Realm Core reads a width-0 string leaf as all
    /// null whatever the column says (found by CoreWriterRandomTests, seed 20).
    @Test func requiredEmptyStringsStayEmpty() throws {
        let dir = TempDir("core-writer")
        let table = RealmCoreWriterTable(
            name: "class_S",
            columns: [
                .init(name: "s", type: .string, nullable: false),
                .init(name: "o", type: .string, nullable: true),
            ],
            objects: [.init(key: 0, values: [.string(""), .string("")]), .init(key: 1, values: [.string(""), .null])])
        try Self.roundTrip([table], dir)
    }

    /// Lists of every scalar type, required and optional elements, empty lists, up to 1000
    /// elements (one B+tree leaf; longer lists: CoreWriterBPlusTreeTests).
    @Test func listsOfScalars() throws {
        let dir = TempDir("core-writer")
        let samples: [(CoreColumnType, CoreValue)] = [
            (.int, .int(-5)), (.bool, .bool(true)), (.string, .string(String(repeating: "x", count: 70))),
            (.binary, .binary(Data([1, 2]))),
            (.timestamp, .timestamp(seconds: -10, nanoseconds: -3)), (.float, .float(.nan)), (.double, .double(-0.0)),
            (.decimal128, .decimal128(low: 5, high: 0x3040_0000_0000_0000)),
            (.objectId, .objectId(Data(repeating: 9, count: 12))),
            (.uuid, .uuid(Data(repeating: 3, count: 16))),
        ]
        var columns: [Column] = []
        for (type, _) in samples {
            columns.append(.init(name: "\(type.name)s", type: type, nullable: false, isList: true))
            columns.append(.init(name: "opt_\(type.name)s", type: type, nullable: true, isList: true))
        }
        let objects = (0..<3).map { i in
            Object(
                key: Int64(i),
                values: samples.flatMap { _, sample -> [CoreValue] in
                    let n = i == 0 ? 0 : i == 1 ? 3 : 1000
                    return [
                        .list(Array(repeating: sample, count: n)), .list((0..<n).map { $0 % 2 == 0 ? .null : sample }),
                    ]
                })
        }
        try Self.roundTrip([RealmCoreWriterTable(name: "class_Lists", columns: columns, objects: objects)], dir)
    }

    @Test func refusesWrongValuesWithTheirColumn() throws {
        let table = RealmCoreWriterTable(
            name: "class_A", columns: [.init(name: "i", type: .int, nullable: false)],
            objects: [.init(key: 0, values: [.null])])
        #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: [table], schemaVersion: nil) }
        let negative = RealmCoreWriterTable(name: "class_A", columns: [], objects: [.init(key: -3, values: [])])
        #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: [negative], schemaVersion: nil) }
        // Realm Core asserts that a timestamp's seconds and nanoseconds have one sign.
        let mixedSigns = RealmCoreWriterTable(
            name: "class_A", columns: [.init(name: "t", type: .timestamp, nullable: false)],
            objects: [.init(key: 0, values: [.timestamp(seconds: -2, nanoseconds: 750_000_000)])])
        #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: [mixedSigns], schemaVersion: nil) }
        // A link to an object that is not written would leave a backlink-less dangling link.
        let target = RealmCoreWriterTable(name: "class_T", columns: [], objects: [.init(key: 0, values: [])])
        let dangling = RealmCoreWriterTable(
            name: "class_O", columns: [.init(name: "t", type: .link, nullable: true, linkTarget: "class_T")],
            objects: [.init(key: 0, values: [.link(tableKey: 0, key: 5)])])
        #expect(throws: RealmError.self) {
            _ = try RealmCoreWriter.image(tables: [target, dangling], schemaVersion: nil)
        }
        let noTarget = RealmCoreWriterTable(
            name: "class_O", columns: [.init(name: "t", type: .link, nullable: true, linkTarget: "class_X")],
            objects: [])
        #expect(throws: RealmError.self) { _ = try RealmCoreWriter.image(tables: [noTarget], schemaVersion: nil) }
    }
}
