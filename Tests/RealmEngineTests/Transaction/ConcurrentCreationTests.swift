import Foundation
@testable import RealmEngine
import Synchronization
import Testing

/// Several processes creating one new file at once (CI saw it: 4 `realm-torture increment`
/// on a path that did not exist, one failed with "neither commit slot of the header is valid"):
/// an opener read the header while the creating process was writing it (under the write lock),
/// saw part of it, and refused the file. An opener that may create the file now judges a header
/// it cannot read only once the write lock is free — a creation in progress has finished then.
@Suite struct ConcurrentCreationTests {
    @Test func anOpenerWaitsForAHeaderBeingWritten() throws {
        let dir = TempDir()
        // The bytes a creation in progress shows: the start of a real header, the rest not yet written.
        let donor = dir.path("donor.realm")
        do { _ = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: donor), schema: Fixtures.people)) }
        let real = try [UInt8](Data(contentsOf: URL(fileURLWithPath: donor)))
        var torn = [UInt8](repeating: 0, count: real.count)
        torn.replaceSubrange(0..<24, with: real[0..<24])
        let path = dir.path("new.realm")
        try Data(torn).write(to: URL(fileURLWithPath: path))
        // The creating process: its lock file open and the write lock held.
        let creator = try LockFile(path: LockFile.path(forRealmAt: URL(fileURLWithPath: path).standardizedFileURL.path))
        try creator.lockWriter()
        // It finishes (here: gives up, leaving a blank header to initialize) when the opener
        // first takes a lock of the lock file — after the opener read the torn header.
        let finished = Mutex(false)
        let plan = FaultPlan(folder: dir.url.path, calls: [.lock], failure: .error(EIO), nth: .max)
        plan.beforeCall = { _, _, _ in
            guard finished.withLock({ done in defer { done = true }; return !done }) else { return }
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.write(Data(repeating: 0, count: 24))
                try? handle.close()
            }
            creator.unlockWriter()
        }
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people))
        FaultPlan.remove(plan)
        #expect(finished.withLock { $0 }, "the creator must have finished during the open")
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("first")]) }
        #expect(try realm.objects("Person").count == 1)
        withExtendedLifetime(creator) {}
    }
}
