import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Lists, link lists and backlink lists longer than one B+tree leaf (1000 elements): inner
/// nodes in Realm Core's compact form, checked by Realm Core (verify walks every inner node
/// and asserts its sizes) and read back by this reader.
@Suite(.tags(.multiProcess)) struct CoreWriterBPlusTreeTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    /// Lists of 1001 and 2500 elements of several types (strings in every leaf form), beside
    /// short ones; Realm Core's queries see their sizes and last elements.
    @Test func listsLongerThanOneLeaf() throws {
        let dir = TempDir("core-writer-bptree")
        let columns: [Column] = [
            .init(name: "ints", type: .int, nullable: true, isList: true),
            .init(name: "strings", type: .string, nullable: false, isList: true),
            .init(name: "doubles", type: .double, nullable: false, isList: true),
        ]
        let sizes = [0, 3, 1000, 1001, 2500]
        let objects = sizes.enumerated().map { i, n in
            Object(
                key: Int64(i),
                values: [
                    .list((0..<n).map { $0 % 7 == 3 ? .null : .int(Int64($0) * 1_000_003) }),
                    .list(
                        (0..<n).map { .string($0 >= 1500 ? String(repeating: "long", count: 20) + "\($0)" : "s\($0)") }),
                    .list((0..<n).map { .double(Double($0) / 4) }),
                ])
        }
        let path = try CoreWriterTests.roundTrip(
            [RealmCoreWriterTable(name: "class_Long", columns: columns, objects: objects)], dir)
        let tool = try CoreFixtures.requireTool()
        let count =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "Long", "strings.@count > 1000"]).stdout)
            as? [String: Any]
        #expect(count?["object_keys"] as? [Int] == [3, 4])
        // The element at index 2499 is in the third leaf.
        let last =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "Long", "ANY ints == 2499007497"]).stdout)
            as? [String: Any]
        #expect(last?["object_keys"] as? [Int] == [4])
    }

    /// A list of links longer than a leaf, and a target with more than 1000 backlinks (its
    /// backlink list a B+tree too).
    @Test func longLinkListsAndManyBacklinks() throws {
        let dir = TempDir("core-writer-bptree")
        let targets = RealmCoreWriterTable(
            name: "class_T", columns: [.init(name: "n", type: .int, nullable: false)],
            objects: (0..<1200).map { Object(key: Int64($0), values: [.int(Int64($0))]) })
        let origins = RealmCoreWriterTable(
            name: "class_O",
            columns: [
                .init(name: "targets", type: .link, nullable: false, isList: true, linkTarget: "class_T"),
                .init(name: "one", type: .link, nullable: true, linkTarget: "class_T"),
            ],
            objects: (0..<1500).map { i in
                // Object 0 links to every target; every object's single link goes to target 5.
                Object(
                    key: Int64(i),
                    values: [
                        .list(i == 0 ? (0..<1200).map { .link(tableKey: 0, key: Int64($0)) } : []),
                        .link(tableKey: 0, key: 5),
                    ])
            })
        let path = try CoreWriterTests.roundTrip([targets, origins], schemaVersion: nil, dir, compareDumps: false)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        let t = try #require(file.table(named: "class_T"))
        let five = try #require(try t.object(key: 5))
        #expect(five.backlinks.map(\.count) == [1, 1500])
        let tool = try CoreFixtures.requireTool()
        let answer =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "T", "@links.O.one.@count > 1000"]).stdout)
            as? [String: Any]
        #expect(answer?["object_keys"] as? [Int] == [5])
        let all =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "O", "ANY targets.n == 1199"]).stdout)
            as? [String: Any]
        #expect(all?["object_keys"] as? [Int] == [0])
    }

    /// Over 1000 × 1000 elements: two levels of inner nodes (the upper one with 1,000,000
    /// elements per child).
    @Test func twoLevelsOfInnerNodes() throws {
        let dir = TempDir("core-writer-bptree")
        let n = 1_000_000 + 1500
        let table = RealmCoreWriterTable(
            name: "class_Huge", columns: [.init(name: "xs", type: .int, nullable: false, isList: true)],
            objects: [Object(key: 0, values: [.list((0..<n).map { .int(Int64($0 % 100)) })])])
        let path = try CoreWriterTests.roundTrip([table], schemaVersion: nil, dir, compareDumps: false)
        let tool = try CoreFixtures.requireTool()
        let answer =
            try CoreJSONCompare.parse(CoreProcess.run(tool, ["query", path, "Huge", "xs.@count == \(n)"]).stdout)
            as? [String: Any]
        #expect(answer?["count"] as? Int == 1)
    }
}
