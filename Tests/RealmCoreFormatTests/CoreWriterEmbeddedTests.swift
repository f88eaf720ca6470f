import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Embedded tables (table type 1), owned through to-one links, lists and dictionaries, an
/// embedded object owning another; Realm Core's verify checks each has exactly one parent,
/// write-test deletes a parent (and with it its embedded objects).
@Suite(.tags(.multiProcess)) struct CoreWriterEmbeddedTests {
    typealias Object = RealmCoreWriterTable.Object

    static func tables(childParents: [Int64] = [0]) -> [RealmCoreWriterTable] {
        let child = RealmCoreWriterTable(
            name: "class_Child", columns: [.init(name: "depth", type: .int, nullable: false)],
            objects: [Object(key: 0, values: [.int(2)])], isEmbedded: true)
        let address = RealmCoreWriterTable(
            name: "class_Address",
            columns: [
                .init(name: "street", type: .string, nullable: false),
                .init(name: "child", type: .link, nullable: true, linkTarget: "class_Child"),
            ],
            objects: (0..<6).map { i in
                Object(
                    key: Int64(i),
                    values: [
                        .string("street \(i)"), childParents.contains(Int64(i)) ? .link(tableKey: 0, key: 0) : .null,
                    ])
            },
            isEmbedded: true)
        func entry(_ k: String, _ v: CoreValue) -> CoreDictionaryEntry { CoreDictionaryEntry(key: k, value: v) }
        let person = RealmCoreWriterTable(
            name: "class_Person",
            columns: [
                .init(name: "name", type: .string, nullable: false),
                .init(name: "home", type: .link, nullable: true, linkTarget: "class_Address"),
                .init(name: "others", type: .link, nullable: false, isList: true, linkTarget: "class_Address"),
                .init(name: "byName", type: .link, nullable: true, isDictionary: true, linkTarget: "class_Address"),
            ],
            objects: [
                Object(
                    key: 0,
                    values: [
                        .string("ann"), .link(tableKey: 1, key: 0),
                        .list([.link(tableKey: 1, key: 1), .link(tableKey: 1, key: 2)]),
                        .dictionary([entry("none", .null), entry("work", .link(tableKey: 1, key: 3))]),
                    ]),
                Object(
                    key: 1,
                    values: [
                        .string("bob"), .null, .list([.link(tableKey: 1, key: 4)]),
                        .dictionary([entry("x", .link(tableKey: 1, key: 5))]),
                    ]),
                Object(key: 2, values: [.string("cy"), .null, .list([]), .dictionary([])]),
            ])
        return [child, address, person]
    }

    @Test func embeddedObjectsWithTheirParents() throws {
        let dir = TempDir("core-writer-embedded")
        let path = try CoreWriterTests.roundTrip(Self.tables(), schemaVersion: nil, dir)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        #expect(try #require(file.table(named: "class_Address")).kind == .embedded)
        #expect(try #require(file.table(named: "class_Person")).kind == .topLevel)
        let tool = try CoreFixtures.requireTool()
        let info = String(decoding: try CoreProcess.run(tool, ["verify", path]).stdout, as: UTF8.self)
        #expect(info.contains("\"embedded_objects\": 7"), "\(info)")
        func keys(_ query: String) throws -> [Int]? {
            let answer =
                try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "Person", query]).stdout)
                as? [String: Any]
            return answer?["object_keys"] as? [Int]
        }
        let home = try keys("home.child.depth == 2")
        #expect(home == [0])
        let other = try keys("ANY others.street == 'street 4'")
        #expect(other == [1])
        let named = try keys("byName['x'].street == 'street 5'")
        #expect(named == [1])
    }

    /// An embedded object with no parent, or two, is refused.
    @Test func embeddedObjectsNeedExactlyOneParent() throws {
        #expect(throws: RealmError.self) {
            _ = try RealmCoreWriter.image(tables: Self.tables(childParents: []), schemaVersion: nil)
        }
        #expect(throws: RealmError.self) {
            _ = try RealmCoreWriter.image(tables: Self.tables(childParents: [0, 3]), schemaVersion: nil)
        }
    }

    /// A Realm with embedded objects (to-one, list, map, nested) written and converted back equal.
    @Test func aRealmWithEmbeddedObjectsIsWrittenAndReadBackEqual() throws {
        let dir = TempDir("core-writer-embedded")
        let schema = Schema([
            ObjectSchema(name: "Note", properties: [Property(name: "text", type: .string)], isEmbedded: true),
            ObjectSchema(
                name: "Address",
                properties: [
                    Property(name: "city", type: .string),
                    Property(name: "note", type: .object, isOptional: true, objectClassName: "Note"),
                ],
                isEmbedded: true),
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "name", type: .string),
                    Property(name: "home", type: .object, isOptional: true, objectClassName: "Address"),
                    Property(name: "past", type: .object, isList: true, objectClassName: "Address"),
                    Property(name: "named", type: .object, isMap: true, objectClassName: "Address"),
                ]),
        ])
        let realm = try Realm(path: dir.path("native.realm"), schema: schema)
        try realm.write {
            for i in 0..<4 {
                let address: (Int) -> ObjectInput = { j in
                    .dictionary([
                        "city": .value(.string("c\(i)-\(j)")),
                        "note": j % 2 == 0 ? .dictionary(["text": .value(.string("n\(j)"))]) : .value(.null),
                    ])
                }
                try realm.create(
                    "Person",
                    value: .dictionary([
                        "name": .value(.string("p\(i)")), "home": i == 3 ? .value(.null) : address(0),
                        "past": .array((0..<i).map { address($0 + 1) }),
                        "named": .dictionary(i == 0 ? [:] : ["work": address(9), "gym": address(10)]),
                    ]))
            }
        }
        let tables = try CoreWriterRealmTests.withTableKeys(RealmCoreWriter.tables(from: realm)).map(
            CoreWriterDictionaryTests.inStoredOrder)
        try CoreWriterTests.roundTrip(tables, schemaVersion: realm.schemaVersion, dir, name: "checked.realm")
        #expect(try CoreWriterTests.readBackEqual(realm, className: "Person", dir) == 4)
    }
}
