import Foundation
@testable import RealmCoreFormat
import Testing

/// Embedded objects of Realm files through the command line: `schema` shows the embedded
/// classes (nothing "not shown"), `query --format count` counts through embedded objects at any
/// depth, an embedded class is not queried on its own, a printed object shows them nested,
/// `check` checks each embedded object's parent and names
/// a damaged one; the file and its folder are never changed.
@Suite(.tags(.multiProcess)) struct RealmCoreEmbeddedCLITests {
    static func count(_ path: String, _ className: String, _ predicate: String) throws -> String {
        let result = try CLI.run(["query", path, className, predicate, "--format", "count"])
        #expect(result.status == 0, "\(predicate): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func schemaQueryAndCheckOfAFileWithEmbeddedObjects() throws {
        let scratch = try Scratch()
        let (path, bytes, listing) = try RealmCoreFileTests.copy("generated-alltypes.realm", into: scratch)
        let schema = try CLI.run(["schema", path])
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(
            schema.stdout.contains(
                "\nEmbedded (11 objects), embedded in AllTypes.embeddedObj, AllTypes.embeddedList, AllTypes.embeddedDict\n"
            ), "\(schema.stdout)")
        #expect(schema.stdout.contains("\nEmbeddedChild (5 objects), embedded in Embedded.child\n"), "\(schema.stdout)")
        #expect(schema.stdout.contains("  embeddedList "), "\(schema.stdout)")
        #expect(
            !schema.stdout.contains("Not shown") && !schema.stderr.contains("not shown"),
            "\(schema.stdout)\(schema.stderr)")

        // Counts through embedded objects (to-one, list, dictionary, nested), as Realm Core's parser answers.
        #expect(try Self.count(path, "AllTypes", "embeddedObj.label == 'embedded of 3'") == "1")
        #expect(try Self.count(path, "AllTypes", "embeddedObj.child.note == '深い'") == "1")
        #expect(try Self.count(path, "AllTypes", "embeddedObj.num > 1") == "3")
        #expect(try Self.count(path, "AllTypes", "ANY embeddedList.child.depth == 3") == "1")
        #expect(try Self.count(path, "AllTypes", "embeddedDict['first'].label == 'dictionary value'") == "2")
        #expect(try Self.count(path, "AllTypes", "embeddedObj.target != nil") == "4")
        // Not on their own, whole-class count included.
        for args in [
            ["query", path, "Embedded", "--format", "count"],
            ["query", path, "Embedded", "label == 'x'", "--format", "count"],
        ] {
            let refused = try CLI.run(args)
            #expect(
                refused.status == 1
                    && refused.stderr.contains("Embedded is embedded: its objects live in AllTypes.embeddedObj"),
                "\(refused.stderr)")
        }
        // Printed nested in its parent; --columns leaves it out.
        let printed = try CLI.run(["query", path, "AllTypes", "_id == 3", "--format", "json"])
        #expect(
            printed.status == 0 && printed.stdout.contains(#""embeddedObj":{"label":"embedded of 3""#),
            "\(printed.stderr)\(printed.stdout)")
        let columns = try CLI.run([
            "query", path, "AllTypes", "embeddedObj.label == 'embedded of 3'", "--columns", "_id,intCol",
        ])
        #expect(columns.status == 0, "\(columns.stderr)")
        #expect(columns.stdout.contains("(1 object)"), "\(columns.stdout)")

        let check = try CLI.run(["check", path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("every one read; 16 embedded objects, each with one parent"), "\(check.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == listing)
    }

    /// `generated-embedded-chain.realm` with Parent 2's `node` (embedded object Node 16)
    /// rewritten to no link: Node 16 is left without a parent, which no write makes.
    @Test func checkAndQueryNameAnEmbeddedObjectWithoutAParent() throws {
        let scratch = try Scratch()
        let (path, _, _) = try RealmCoreFileTests.copy("generated-embedded-chain.realm", into: scratch)
        #expect(try Self.count(path, "Parent", "node.next.name == 'b'") == "1")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: path)
        let table = try #require(file.table(named: "class_Parent"))
        let column = try #require(table.columns.first { $0.name == "node" })
        let tree = CoreClusterTree(
            bytes: table.bytes, rootRef: try #require(table.clusterRoot), shift: try table.shift(),
            tableName: table.name)
        let (leaf, index) = try #require(try tree.find(key: 2))
        let node = try table.bytes.node(try #require(try table.bytes.ref(leaf.node, column.leafSlot, "test")), "test")
        try #require(node.width == 8 && node.int(index) == 17, "Parent 2's node is stored as 16 + 1 in an 8-bit array")
        bytes[node.data + index] = 0
        let damaged = scratch.path("orphan.realm")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))

        let check = try CLI.run(["check", damaged])
        #expect(check.status == 1)
        #expect(check.stderr.contains("embedded object Node 16 has no parent (an orphan)"), "\(check.stderr)")
        let query = try CLI.run(["query", damaged, "Parent", "node.name == 'c'", "--format", "count"])
        #expect(query.status == 1)
        #expect(query.stderr.contains("embedded object Node 16 has no parent (an orphan)"), "\(query.stderr)")
    }
}
