import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// The cluster node shift (not stored in the file): inferred per table and checked.
@Suite struct CoreNodeShiftTests {
    static func tablesWithCompactNodes(_ file: RealmCoreFile) throws -> [RealmCoreTable] {
        // A table over 4 objects in a node-size-4 file necessarily has inner nodes.
        file.tables.filter { $0.objectCount > 4 }
    }

    @Test(arguments: ["realm-core_test_upgrade_database_4_24.realm", "realm-core_test_upgrade_database_4_23.realm"])
    func nodeSizeFourFilesInferShiftTwo(name: String) throws {
        let file = try CoreDumpConformanceTests.open(CoreFixtures.url(name))
        let tables = try Self.tablesWithCompactNodes(file)
        #expect(!tables.isEmpty, "\(name) has no table large enough to need inner nodes")
        for t in tables {
            #expect(try t.resolvedNodeShift() == 2, "\(name) \(t.name)")
            var n = 0
            try t.forEachObject { _ in
                n += 1
                return true
            }
            #expect(n == t.objectCount)
        }
    }

    @Test func sdkFilesInferShiftEight() throws {
        let file = try CoreDumpConformanceTests.open(CoreFixtures.url("generated-dogs.realm"))
        for t in file.tables { #expect(try t.resolvedNodeShift() == 8, "\(t.name)") }
    }

    @Test func statedShiftIsUsed() throws {
        let url = CoreFixtures.url("realm-core_test_upgrade_database_4_24.realm")
        let file = try RealmCoreFile(image: RealmCoreImage(copying: Data(contentsOf: url)), nodeShift: 2)
        for t in file.tables { #expect(try t.resolvedNodeShift() == 2) }
        #expect(throws: RealmError.self) {
            try RealmCoreFile(image: RealmCoreImage(copying: Data(contentsOf: url)), nodeShift: 0)
        }
    }
}

extension CoreNodeShiftTests {
    /// A stated shift of 8 on a node-size-4 file would read keys 0, 1, 2, 3, 256, … that pass
    /// every range check: it is refused instead.
    @Test func shiftEightOnNodeSizeFourFileIsRefused() throws {
        let url = CoreFixtures.url("realm-core_test_upgrade_database_4_24.realm")
        let wrong = try RealmCoreFile(image: RealmCoreImage(copying: Data(contentsOf: url)), nodeShift: 8)
        let tables = wrong.tables.filter { $0.objectCount > 4 }
        #expect(!tables.isEmpty)
        for t in tables {
            #expect(throws: RealmError.self) { try t.forEachObject { _ in true } }
        }
    }
}
