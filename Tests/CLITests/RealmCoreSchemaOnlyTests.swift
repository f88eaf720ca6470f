import Foundation
import Testing
@testable import RealmCoreFormat

/// `schema` and a whole class's `query --format count` on a Realm file read the header, the group
/// and the tables' specs, never an object: a file of any size answers at once, each class's count
/// from its cluster tree's root.
@Suite(.tags(.multiProcess)) struct RealmCoreSchemaOnlyTests {
    /// The ref in element `index` of the node at `ref` (Realm Core's node header: `AAAA`, a flags
    /// byte whose low three bits code the width, the element count in bytes 5–7).
    static func element(_ bytes: Data, node ref: Int, _ index: Int) -> Int {
        let width = (1 << Int(bytes[ref + 4] & 7)) >> 1
        let start = ref + 8 + index * width / 8
        return (0..<width / 8).reduce(0) { $0 | Int(bytes[start + $1]) << (8 * $1) }
    }

    @Test func aClassWhoseObjectsCannotBeReadIsStillDescribedWithItsCount() throws {
        let scratch = try Scratch()
        let (path, _, _) = try RealmCoreFileTests.copy("generated-dogs.realm", into: scratch)
        let file = try RealmCoreFile(image: try RealmCoreFileAccess.open(path: path).image, name: path)
        let person = try #require(file.tables.first { $0.className == "Person" })
        let leaf = try #require(person.clusterRoot)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Damage the node header of the leaf's first column: its objects can no longer be read.
        let column = Self.element(bytes, node: leaf, 1)
        try #require(column > 0 && column % 8 == 0 && column + 8 < bytes.count)
        bytes.replaceSubrange(column..<column + 8, with: Data(repeating: 0xEE, count: 8))
        try bytes.write(to: URL(fileURLWithPath: path))

        let query = try CLI.run(["query", path, "Person", "_id >= 0", "--format", "count"])
        #expect(query.status == 1, "\(query.stdout)")
        // A whole class's count is the cluster tree root's, as Realm counts: no object is read.
        for predicate in [[], ["TRUEPREDICATE"]] {
            let count = try CLI.run(["query", path, "Person"] + predicate + ["--format", "count"])
            #expect(count.status == 0 && count.stdout == "250\n", "\(count.stdout)\(count.stderr)")
        }
        let schema = try CLI.run(["schema", path])
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout.contains("Person (250 objects), primary key _id"), "\(schema.stdout)")
        let json = try CLI.run(["schema", path, "--json"])
        #expect(
            json.status == 0 && json.stdout.contains(#""Person" : 250"#) || json.stdout.contains(#""Person": 250"#),
            "\(json.stdout)")
        #expect(json.stdout.contains(#""realmCoreFormat""#))
    }
}
