import Foundation
import Testing
@testable import RealmEngine

/// A full disk while the lock file is created must be an error, never a SIGBUS: the first opener
/// used to extend the lock file with `ftruncate` (a sparse file) and write its header through
/// the mapping, so a disk with no block to give made the store fault. The bytes are now written
/// with `pwrite` before the file is mapped, where ENOSPC is an ordinary error.
@Suite(.tags(.integrity)) struct LockFileFullDiskTests {
    /// Runs `body` with every `pwrite` to the lock file at `path` failing with ENOSPC (a disk
    /// that stays full) and returns the plan.
    @discardableResult
    static func withFullDisk(lockFile path: String, _ body: () throws -> Void) rethrows -> FaultPlan {
        let plan = FaultPlan(folder: path, calls: [.pwrite], failure: .error(ENOSPC), nth: 1, sticky: true)
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        try body()
        return plan
    }

    @Test func aFullDiskWhileCreatingTheLockFileIsAnError() throws {
        let path = try lockTestPath()
        var thrown: (any Error)?
        let plan = Self.withFullDisk(lockFile: path) {
            do { _ = try LockFile(path: path, initialVersion: { 3 }) } catch { thrown = error }
        }
        #expect(!plan.fired.isEmpty, "the lock file's bytes were never written with pwrite")
        guard case .io(_, _, let code, let message)? = thrown as? RealmError else {
            Issue.record("expected an io error, got \(String(describing: thrown))")
            return
        }
        #expect(code == ENOSPC)
        #expect(message.contains("No space left"), "\(message)")
    }

    @Test func theLockFileAFullDiskLeftBehindIsRebuiltOnceThereIsRoom() throws {
        let path = try lockTestPath()
        Self.withFullDisk(lockFile: path) {
            #expect(throws: RealmError.self) { try LockFile(path: path, initialVersion: { 3 }) }
        }
        // Whatever the failed open left (a short or empty file) is rebuilt by the next opener.
        let again = try LockFile(path: path, initialVersion: { 4 })
        #expect(again.initializedByThisOpen)
        #expect(again.latestVersion == 4)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == LockFile.Layout.fileSize(slots: again.slotCount))
    }

    @Test func aRealmOnAFullDiskFailsToOpenWithTheDiskFullError() throws {
        let dir = TempDir()
        let path = dir.path("full.realm")
        do { _ = try Realm(path: path, schema: Fixtures.people) }  // the database file exists
        var thrown: (any Error)?
        Self.withFullDisk(lockFile: LockFile.path(forRealmAt: path)) {
            do { _ = try Realm(path: path, schema: Fixtures.people) } catch { thrown = error }
        }
        #expect((thrown as? RealmError)?.code == "io", "\(String(describing: thrown))")
        #expect("\(thrown.map { "\($0)" } ?? "")".contains("No space left"))
        let reopened = try Realm(path: path, schema: Fixtures.people)
        #expect(try reopened.objects("Person").count == 0)
    }
}
