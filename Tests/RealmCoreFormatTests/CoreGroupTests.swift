import Foundation
import RealmCoreFormat
import Testing

/// The group's top: version, history and free lists, as the manifest describes each file.
@Suite struct CoreGroupTests {
    @Test func historyFileHasFreeListsAndVersion() throws {
        let file = try CoreDumpConformanceTests.open(CoreFixtures.url("generated-history.realm"))
        #expect(file.header.form == .committed)
        #expect(file.version == 52)
        #expect(file.historyType == 2)
        #expect(file.freeListEntries > 0)
        let free = try file.freeBytes()
        #expect(free > 0 && free < Int64(file.logicalFileSize ?? 0))
        #expect(try file.schemaVersion() == 3)
    }

    @Test func compactedFileIsStreamingWithoutFreeLists() throws {
        let file = try CoreDumpConformanceTests.open(CoreFixtures.url("generated-compacted.realm"))
        #expect(file.header.form == .streaming)
        #expect(file.version == 1)
        #expect(file.historyType == 0)
        #expect(try file.freeBytes() == 0)
        #expect(file.table(named: "class_Person")?.primaryKey == "_id")
        #expect(file.table(named: "class_Dog")?.objectCount == 750)
    }
}

extension CoreGroupTests {
    @Test func backlinkColumnsNameTheirOrigin() throws {
        let file = try CoreDumpConformanceTests.open(CoreFixtures.url("generated-dogs.realm"))
        let dog = try #require(file.table(named: "class_Dog"))
        let origins = dog.backlinkColumns.compactMap { file.backlinkOrigin($0) }.map {
            "\($0.table.name).\($0.column.name)"
        }
        #expect(origins == ["class_Person.dogs", "class_Person.bestFriend"])
        let first = try #require(try dog.objects(from: 0, limit: 1).first)
        #expect(first.backlinks == [[0], [0]])
        #expect(try dog.object(key: 1)?.values.first == .string("Daisy 1"))
    }
}
