import Foundation
import Testing
@testable import RealmEngine

/// The commit's barrier failing (issue 11, defect 3): a commit reported as failed must not land,
/// and when it cannot be undone the instance refuses writes until it is reopened.
@Suite(.tags(.integrity)) struct CommitBarrierTests {
    /// Starts a one-object transaction on `realm` and commits it with the Nth grow/write/sync
    /// call failing, for n = 1, 2, … until the failing call is the commit's barrier (a small
    /// commit has one fdatasync, its last call). Returns the error of that commit.
    ///
    /// `fromThenOn`: the barrier fails and so does every call after it. Only the barrier's own
    /// index is run that way (found first by failing each call once, which leaves the file as
    /// it was): a sticky failure of an earlier write would leave its rollback unable to write
    /// back, an ERROR state of its own (`FailedRollbackTests`).
    static func failTheBarrier(_ realm: Realm, id: Int64, fromThenOn: Bool = false) throws -> RealmError? {
        var first = 1
        if fromThenOn {
            guard let barrier = try barrierIndex(realm, id: id) else { return nil }
            first = barrier
        }
        for n in first...64 {
            try realm.beginWrite()
            try realm.create("Person", ["id": .int(id), "name": .string("lost")])
            realm.shared.file.failsFromThenOn = fromThenOn
            realm.shared.file.failAfter = n
            defer { if !fromThenOn { realm.shared.file.failAfter = nil } }
            do {
                try realm.commitWrite()
                return nil
            } catch let error as RealmError {
                if case .io(_, "sync", _, _) = error { return error }
                realm.shared.file.failAfter = nil
                realm.shared.file.failsFromThenOn = false
            }
        }
        return nil
    }

    /// The index of the commit's barrier among its grow/write/sync calls (each earlier failure
    /// once, rolled back).
    static func barrierIndex(_ realm: Realm, id: Int64) throws -> Int? {
        for n in 1...64 {
            try realm.beginWrite()
            try realm.create("Person", ["id": .int(id), "name": .string("lost")])
            realm.shared.file.failAfter = n
            defer { realm.shared.file.failAfter = nil }
            do {
                try realm.commitWrite()
                return nil
            } catch let error as RealmError {
                if case .io(_, "sync", _, _) = error { return n }
            }
        }
        return nil
    }

    @Test func aFailedBarrierLeavesTheDatabaseAsItWas() throws {
        let dir = TempDir()
        let path = dir.path("barrier.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("kept")]) }
        let before = realm.version
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try Self.failTheBarrier(realm, id: 2)
        #expect(error != nil)
        #expect(!realm.isInWriteTransaction)
        #expect(realm.version == before)
        // Byte for byte as before the commit: the slot was put back.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        // The next commit builds on the version before the failed one.
        try realm.write { try realm.create("Person", ["id": .int(3), "name": .string("next")]) }
        #expect(realm.version == before + 1)
        #expect(try realm.objects("Person").count == 2)
        #expect(try realm.objects("Person").filter("id == 2").count == 0)
        _ = try realm.checkIntegrity()
    }

    @Test func aBarrierThatCannotBeUndoneRefusesWritesUntilReopened() throws {
        let dir = TempDir()
        let path = dir.path("error-state.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            let other = try Realm(path: path)
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("kept")]) }
            let error = try Self.failTheBarrier(realm, id: 2, fromThenOn: true)
            #expect(error != nil)
            realm.shared.file.failAfter = nil
            realm.shared.file.failsFromThenOn = false
            // Even with the device back, this instance and every other one of the process refuse
            // to build on a version whose fate is unknown.
            for r in [realm, other] {
                #expect {
                    try r.beginWrite()
                } throws: { error in
                    guard case RealmError.io(_, _, _, let message) = error else { return false }
                    return message.contains("reopen")
                }
                #expect(!r.isInWriteTransaction)
                if r.isInWriteTransaction { r.cancelWrite() }
            }
            // Reading goes on.
            #expect(try realm.objects("Person").filter("id == 1").count == 1)
        }
        // Reopened, the file is sound and takes writes again.
        let reopened = try Realm(path: path)
        _ = try reopened.checkIntegrity()
        try reopened.write { try reopened.create("Person", ["id": .int(3), "name": .string("after")]) }
        _ = try reopened.checkIntegrity()
    }
}
