import Foundation
import Testing
@testable import RealmEngine

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ModesTests {
    @Test func inMemoryRealmsAreSharedByIdentifierAndVanishWithTheLastInstance() throws {
        let id = "mem-\(UUID())"
        do {
            let a = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
            let b = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
            try a.write { try a.create("Person", ["id": .int(1), "name": .string("a")]) }
            b.refresh()
            #expect(try b.objects("Person").count == 1)
            let other = try Realm(configuration: .init(inMemoryIdentifier: id + "-other", schema: Fixtures.people))
            #expect(try other.objects("Person").count == 0)
        }
        let fresh = try Realm(configuration: .init(inMemoryIdentifier: id, schema: Fixtures.people))
        #expect(try fresh.objects("Person").count == 0)
    }

    @Test func readOnlyRefusesWritesAndLeavesTheFileUnchanged() throws {
        let dir = TempDir()
        let path = dir.path("ro.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("a")]) }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let ro = try Realm(path: path, readOnly: true)
        #expect(try ro.objects("Person").count == 1)
        #expect(throws: RealmError.readOnly(path: ro.path)) { try ro.beginWrite() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func readOnlyOpensWhereNoLockFileCanBeWritten() throws {
        let dir = TempDir()
        let path = dir.path("bundled.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("a")]) }
        }
        try FileManager.default.removeItem(atPath: path + ".lock")
        // Stand-in for a read-only folder (root ignores folder permissions): something that is
        // not a file where the lock file would go.
        try FileManager.default.createDirectory(atPath: path + ".lock", withIntermediateDirectories: false)
        let ro = try Realm(path: path, readOnly: true)
        #expect(try ro.objects("Person").count == 1)
        if geteuid() != 0 {
            let folder = dir.path("ro-folder")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: path, toPath: folder + "/x.realm")
            chmod(folder, 0o555)
            defer { chmod(folder, 0o755) }
            let bundled = try Realm(path: folder + "/x.realm", readOnly: true)
            #expect(try bundled.objects("Person").count == 1)
            #expect(!FileManager.default.fileExists(atPath: folder + "/x.realm.lock"))
        }
    }

    @Test func aMissingFileIsNotCreatedWithoutASchema() throws {
        let dir = TempDir()
        let path = dir.path("missing.realm")
        #expect(throws: RealmError.self) {
            try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }

    @Test func limitsAreClearErrors() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("l.realm"), schema: Fixtures.people)
        let big = String(repeating: "x", count: Limits.maxValueBytes + 1)
        #expect(throws: RealmError.self) {
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string(big)]) }
        }
        #expect(throws: RealmError.missingValue(className: "Person", property: "name")) {
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .null]) }
        }
        #expect(throws: RealmError.self) {
            try realm.write { try realm.create("Person", ["id": .string("one"), "name": .string("x")]) }
        }
        #expect(try realm.objects("Person").count == 0)
        // 16 MB exactly is allowed and round-trips.
        let max = String(repeating: "y", count: Limits.maxValueBytes)
        try realm.write { try realm.create("Person", ["id": .int(2), "name": .string(max)]) }
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .int(2))?["name"] == .string(max))
        _ = try realm.checkIntegrity()
    }
}
