import Foundation
import Testing
@testable import RealmEngine

/// Creating, copying and compacting a file sync its directory, so a crash cannot lose the
/// file's name (or bring back the file a compaction replaced).
@Suite(.serialized, .tags(.integrity)) struct DirectorySyncTests {
    /// Counts the syncs of one directory while `body` runs.
    final class Counter: @unchecked Sendable {
        let directory: String
        private let lock = NSLock()
        private var n = 0
        var fail = false
        init(_ directory: String) { self.directory = URL(fileURLWithPath: directory).standardizedFileURL.path }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return n
        }
        func saw(_ d: String) throws {
            guard URL(fileURLWithPath: d).standardizedFileURL.path == directory else { return }
            lock.lock()
            n += 1
            let fail = self.fail
            lock.unlock()
            if fail { throw RealmError.io(path: d, operation: "sync the directory", errno: EIO, message: "injected") }
        }
    }

    @Test func createCopyAndCompactSyncTheDirectory() throws {
        let dir = TempDir()
        let watch = Counter(URL(fileURLWithPath: dir.path("a.realm")).deletingLastPathComponent().path)
        PosixSync.observer = { try watch.saw($0) }
        defer { PosixSync.observer = nil }
        let path = dir.path("a.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            #expect(watch.count >= 1, "create")
            try realm.write { _ = try realm.create("Person", ["id": .int(1), "name": .string("a"), "age": .int(3)]) }
            let before = watch.count
            try realm.writeCopy(toFile: dir.path("b.realm"))
            #expect(watch.count > before, "writeCopy")
        }
        let before = watch.count
        try Realm.compact(path: path)
        #expect(watch.count > before, "compact")
    }

    @Test func aFailedDirectorySyncFailsTheCopy() throws {
        let dir = TempDir()
        let path = dir.path("a.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        let watch = Counter(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        watch.fail = true
        PosixSync.observer = { try watch.saw($0) }
        defer { PosixSync.observer = nil }
        #expect(throws: RealmError.self) { try realm.writeCopy(toFile: dir.path("b.realm")) }
        #expect(!FileManager.default.fileExists(atPath: dir.path("b.realm")))
    }
}
