import Foundation
import Testing
@testable import RealmEngine

/// A commit that fails and whose rollback fails too (the disk stays full, the device is gone):
/// the file is no longer byte for byte as before, so the instance must enter the ERROR state and
/// refuse writes until it is reopened — and reopened, it holds exactly what was acknowledged.
@Suite(.tags(.integrity)) struct FailedRollbackTests {
    @Test func aRollbackThatFailsRefusesWritesUntilReopened() throws {
        let dir = TempDir()
        let path = dir.path("rollback.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            for id in Int64(1)...3 {
                try realm.write { try realm.create("Person", ["id": .int(id), "name": .string("kept \(id)")]) }
            }
            // The second pwrite of the commit fails, and every one after it: the first landed
            // in free space and its undo cannot be written back.
            let plan = FaultPlan(folder: dir.url.path, calls: [.pwrite], failure: .error(ENOSPC), nth: 2, sticky: true)
            FaultPlan.install(plan)
            try realm.beginWrite()
            for id in Int64(10)..<40 {
                try realm.create("Person", ["id": .int(id), "name": .string(String(repeating: "x", count: 3000))])
            }
            #expect(throws: RealmError.self) { try realm.commitWrite() }
            FaultPlan.remove(plan)
            #expect(plan.fired.count >= 2, "the rollback wrote nothing back")
            // The device is back, but what the file holds beside the last version is unknown.
            #expect {
                try realm.write { try realm.create("Person", ["id": .int(4), "name": .string("refused")]) }
            } throws: { error in
                guard case RealmError.io(_, _, _, let message) = error else { return false }
                return message.contains("reopen")
            }
            #expect(!realm.isInWriteTransaction)
            #expect(try realm.objects("Person").count == 3)
        }
        _ = try Realm.check(path: path)
        let reopened = try Realm(path: path)
        #expect(try reopened.objects("Person").count == 3)
        try reopened.write { try reopened.create("Person", ["id": .int(4), "name": .string("after")]) }
        _ = try reopened.checkIntegrity()
    }
}
