import CShims
import Foundation
import Testing
@testable import RealmEngine

/// A lock file's OFD locks must not outlive a failed release: a held init or writer byte makes
/// every other opener or writer, in any process, wait until this process exits.
@Suite(.tags(.integrity)) struct LockReleaseFaultTests {
    /// Whether another open file description holds a lock on `byte` of the lock file at `path`,
    /// asked through a description of our own (which OFD locks do not exclude from asking).
    static func held(_ byte: Int, lockFile path: String) -> Bool {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        return rt_ofd_test(fd, byte) == 1
    }

    /// Runs `body` with the Nth call of `kind` on files in `dir` failing once with EIO.
    @discardableResult
    static func failing<T>(_ kind: SystemCall, nth: Int = 1, in dir: TempDir, _ body: () throws -> T) rethrows -> T {
        let plan = FaultPlan(folder: dir.url.path, calls: [kind], failure: .error(EIO), nth: nth)
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        let result = try body()
        #expect(plan.fired.count == 1)
        return result
    }

    @Test func aFailedReleaseOfTheInitLockDoesNotKeepItHeld() throws {
        let dir = TempDir()
        let path = dir.path("init.realm")
        let lockPath = LockFile.path(forRealmAt: path)
        do {
            // The open either fails cleanly or goes on without the init byte held.
            let realm = try? Self.failing(.unlock, in: dir) { try Realm(path: path, schema: Fixtures.people) }
            #expect(!Self.held(LockFile.Layout.initLockByte, lockFile: lockPath))
            _ = realm
        }
        #expect(!Self.held(LockFile.Layout.initLockByte, lockFile: lockPath))
    }

    @Test func aFailedUnmapOfTheLockFileDoesNotKeepItsLocks() throws {
        let dir = TempDir()
        let path = dir.path("unmap.realm")
        let lockPath = LockFile.path(forRealmAt: path)
        do {
            var realm: Realm? = try Realm(path: path, schema: Fixtures.people)
            try realm?.write { try realm?.create("Person", ["id": .int(1), "name": .string("one")]) }
            #expect(Self.held(LockFile.Layout.openLockByte, lockFile: lockPath))
            // The database file's mapping goes first, then the lock file's (the second munmap).
            Self.failing(.munmap, nth: 2, in: dir) { realm = nil }
        }
        // Closed: no open lock, no liveness lock left behind by a mapping that outlived the close.
        #expect(!Self.held(LockFile.Layout.openLockByte, lockFile: lockPath))
        #expect(!Self.held(LockFile.Layout.livenessLockBase + Int(getpid()), lockFile: lockPath))
    }

    @Test func aFailedReleaseOfTheWriterLockDoesNotKeepItHeld() throws {
        let dir = TempDir()
        let path = dir.path("writer.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try Self.failing(.unlock, in: dir) {
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("one")]) }
        }
        #expect(!Self.held(LockFile.Layout.writerLockByte, lockFile: LockFile.path(forRealmAt: path)))
        #expect(try realm.objects("Person").count == 1)
    }
}

/// Short reads of the lock file's header (a second opener validates it with `pread`).
@Suite(.tags(.integrity)) struct LockFileShortReadTests {
    @Test func aSecondOpenerReadsTheHeaderWholeAfterShortReads() throws {
        let path = try lockTestPath()
        let first = try LockFile(path: path, initialVersion: { 7 })
        let plan = FaultPlan(
            folder: URL(fileURLWithPath: path).deletingLastPathComponent().path,
            calls: [.pread], failure: .short, nth: 1, sticky: true)
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        let second = try LockFile(path: path)
        #expect(!plan.fired.isEmpty)
        #expect(second.latestVersion == 7)
        _ = first
    }
}
