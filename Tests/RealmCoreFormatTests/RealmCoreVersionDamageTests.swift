import Foundation
import RealmEngine
import Testing

@testable import RealmCoreFormat

/// Damaged and truncated Realm Core files read in place (`RealmCoreVersion`): every question
/// of the readable-version protocol ends in an answer or a `RealmError` with a message — never
/// a crash, trap or hang.
@Suite(.tags(.integrity)) struct RealmCoreVersionDamageTests {
    /// Opens `bytes` in place and asks every class for its count, keys, windows, key bound,
    /// rows, a primary key and backlinks; returns the error, if any.
    static func readAll(_ bytes: [UInt8], name: String) -> Error? {
        do {
            let version = try RealmCoreVersion(file: RealmCoreFile(image: RealmCoreImage(copying: bytes), name: name))
            for (c, objectSchema) in version.schema.objectSchemas.enumerated() {
                let count = try version.count(classIndex: c)
                _ = try version.keys(classIndex: c, in: max(0, count - 3)..<count)
                _ = try version.keyBound(classIndex: c)
                let keys = try version.keys(classIndex: c)
                for key in keys { _ = try version.row(classIndex: c, key: key) }
                if let key = keys.first, let pk = objectSchema.persistedProperties.firstIndex(where: \.isPrimaryKey) {
                    _ = try version.object(
                        classIndex: c, primaryKey: try version.value(classIndex: c, key: key, column: pk))
                }
                for (o, origin) in version.schema.objectSchemas.enumerated() {
                    for (j, property) in origin.persistedProperties.enumerated()
                    where property.objectClassName == objectSchema.name {
                        for key in keys {
                            _ = try version.backlinks(classIndex: c, key: key, originClass: o, originColumn: j)
                        }
                    }
                }
            }
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        "generated-dogs.realm", "generated-compacted.realm", "realm-core_test_upgrade_database_4_24.realm",
    ])
    func truncatedFilesGiveErrors(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: CoreFixtures.url(name)))
        var g = CoreDamageTests.Xorshift(state: 0x9E37_79B9_7F4A_7C15)
        var lengths = [0, 1, 8, 23, 24, 25, 40, bytes.count - 16, bytes.count - 1]
        for _ in 0..<60 { lengths.append(Int.random(in: 0..<bytes.count, using: &g)) }
        for length in lengths {
            let error = Self.readAll(Array(bytes[0..<length]), name: "\(name) cut at \(length)")
            CoreDamageTests.expectRealmError(error, "\(name) cut at \(length)")
        }
        #expect(Self.readAll(Array(bytes[0..<24]), name: name) != nil)
        #expect(Self.readAll(bytes, name: name) == nil)
    }

    @Test(arguments: [
        ("generated-dogs.realm", 60), ("generated-history.realm", 30), ("generated-alltypes.realm", 30),
        ("generated-embedded-chain.realm", 30), ("realm-core_test_upgrade_database_1000_23.realm", 30),
    ])
    func flippedBytesNeverCrash(name: String, rounds: Int) throws {
        let original = try [UInt8](Data(contentsOf: CoreFixtures.url(name)))
        var g = CoreDamageTests.Xorshift(state: 0xD1B5_4A32_D192_ED03 ^ UInt64(name.utf8.count))
        for round in 0..<rounds {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &g) {
                bytes[Int.random(in: 0..<bytes.count, using: &g)] = UInt8.random(in: 0...255, using: &g)
            }
            CoreDamageTests.expectRealmError(
                Self.readAll(bytes, name: "\(name) round \(round)"), "\(name) round \(round)")
        }
    }

    /// A damaged column leaf is an error naming the class and column, at the read that meets it.
    @Test func damagedColumnLeafIsNamedByClassAndColumn() throws {
        let url = CoreFixtures.url("generated-dogs.realm")
        var bytes = try [UInt8](Data(contentsOf: url))
        let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: "dogs")
        let table = try #require(file.table(named: "class_Dog"))
        let position = try #require(table.columns.firstIndex { $0.name == "age" })
        let tree = try #require(try table.tree())
        var leafRef: Int?
        try tree.forEachLeaf { leaf, _ in
            leafRef = try file.bytes.ref(leaf.node, table.columns[position].leafSlot, "age")
            return false
        }
        // The age leaf's header mnemonic destroyed.
        let ref = try #require(leafRef)
        bytes[ref] = 0
        let version = try RealmCoreVersion(file: RealmCoreFile(image: RealmCoreImage(copying: bytes), name: "dogs"))
        let dog = try #require(version.schema.objectSchemas.firstIndex { $0.name == "Dog" })
        let age = try #require(version.column(classIndex: dog, named: "age"))
        let first = try version.key(classIndex: dog, at: 0)
        #expect(try version.count(classIndex: dog) == 750)
        #expect { try version.value(classIndex: dog, key: first, column: age) } throws: { error in
            guard case .corruptFile(_, _, let reason) = error as? RealmError else { return false }
            return reason.contains("class_Dog.age")
        }
        // The other columns of the same object still read.
        let name = try #require(version.column(classIndex: dog, named: "name"))
        #expect(try version.value(classIndex: dog, key: first, column: name) != .null)
    }
}
