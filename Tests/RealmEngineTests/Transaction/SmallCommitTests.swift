import Foundation
import Testing
@testable import RealmEngine

/// Many small durable commits: space is reused, the file stays small and whole, and a commit
/// that cannot grow the file leaves it as it was.
@Suite struct SmallCommitTests {
    @Test func smallCommitsReuseSpace() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("small.realm"), schema: Fixtures.people)
        for i in 0..<50 {
            try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        let before = try realm.checkIntegrity()
        for i in 50..<350 {
            try realm.write { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        let after = try realm.checkIntegrity()
        #expect(after.objects["Person"] == 350)
        // Each commit rewrites a few KB; had none of it been reused, 300 commits would have added
        // over a megabyte.
        #expect(after.fileBytes - before.fileBytes < 160 << 10)
        #expect(after.freeBytes < after.fileBytes / 2 + (64 << 10))
    }

    @Test func aReaderPinningAnOldVersionKeepsItsNodes() throws {
        let dir = TempDir()
        let path = dir.path("pinned.realm")
        let writer = try Realm(path: path, schema: Fixtures.people)
        try writer.write { try writer.create("Person", ["id": .int(0), "name": .string("first")]) }
        let reader = try Realm(path: path)
        #expect(try reader.objects("Person").count == 1)
        for i in 1..<200 {
            try writer.write { try writer.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
        }
        // The reader still sees its version, whole, while the writer reused everything newer.
        #expect(try reader.objects("Person").count == 1)
        #expect(try reader.object(ofType: "Person", forPrimaryKey: .int(0))?["name"] == .string("first"))
        #expect(reader.refresh())
        #expect(try reader.objects("Person").count == 200)
        _ = try writer.checkIntegrity()
    }

    @Test func failedGrowthLeavesTheFileAsItWas() throws {
        let dir = TempDir()
        let path = dir.path("grow.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("kept")]) }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var sawGrowthFail = false
        for n in 1...64 where !sawGrowthFail {
            try realm.beginWrite()
            realm.shared.file.failAfter = n
            do {
                for i in 2..<300 {
                    try realm.create("Person", ["id": .int(Int64(i)), "name": .string(String(repeating: "y", count: 20_000))])
                }
                try realm.commitWrite()
            } catch RealmError.io(_, let operation, _, _) {
                sawGrowthFail = operation == "grow"
            }
            realm.shared.file.failAfter = nil
            if realm.isInWriteTransaction { realm.cancelWrite() }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        }
        #expect(sawGrowthFail)
        let reopened = try Realm(path: path)
        #expect(try reopened.objects("Person").count == 1)
        _ = try reopened.checkIntegrity()
    }
}
