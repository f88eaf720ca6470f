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
    /// What an opener may see of a file another process is creating (under its write lock).
    enum Unfinished: CaseIterable, Sendable {
        /// The start of the header, the commit slots not yet written.
        case slotsMissing
        /// Only the first bytes of the signature (seen: "not a realmtui database (unknown file signature)").
        case signaturePartial
        /// Encrypted: the header page's copy being rewritten, failing its check (seen: "page 0
        /// failed its integrity check").
        case encryptedHeaderPageMidWrite
    }

    @Test(arguments: Unfinished.allCases) func anOpenerWaitsForAHeaderBeingWritten(_ unfinished: Unfinished) throws {
        let dir = TempDir()
        let key = unfinished == .encryptedHeaderPageMidWrite ? EncryptionTests.key : nil
        let donor = dir.path("donor.realm")
        do {
            _ = try Realm(
                configuration: .init(fileURL: URL(fileURLWithPath: donor), schema: Fixtures.people, encryptionKey: key))
        }
        let real = try [UInt8](Data(contentsOf: URL(fileURLWithPath: donor)))
        var torn = [UInt8](repeating: 0, count: real.count)
        switch unfinished {
        case .slotsMissing: torn.replaceSubrange(0..<24, with: real[0..<24])
        case .signaturePartial: torn.replaceSubrange(0..<3, with: real[0..<3])
        case .encryptedHeaderPageMidWrite:
            // Neither copy of logical page 0 verifies: their entries name counters whose data
            // is not (yet) what was written.
            torn = real
            let entries = Int(EncryptedFile.metaOffset(0))
            torn[entries] ^= 0x01
            torn[entries + PageEntry.size] ^= 0x01
        }
        let path = dir.path("new.realm")
        try Data(torn).write(to: URL(fileURLWithPath: path))
        // The creating process: its lock file open and the write lock held.
        let creator = try LockFile(path: LockFile.path(forRealmAt: URL(fileURLWithPath: path).standardizedFileURL.path))
        try creator.lockWriter()
        // It finishes its creation when the opener first takes a lock of the lock file — after
        // the opener read the unfinished header.
        let finished = Mutex(false)
        let plan = FaultPlan(folder: dir.url.path, calls: [.lock], failure: .error(EIO), nth: .max)
        plan.beforeCall = { _, _, _ in
            guard
                finished.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            try? Data(real).write(to: URL(fileURLWithPath: path))
            creator.unlockWriter()
        }
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people, encryptionKey: key))
        FaultPlan.remove(plan)
        #expect(finished.withLock { $0 }, "the creator must have finished during the open")
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("first")]) }
        #expect(try realm.objects("Person").count == 1)
        withExtendedLifetime(creator) {}
    }

    /// Two openers creating one encrypted file: each found it empty and wrote an encryption
    /// header of its own (two salts, or halves of both), and one read the other's half-written
    /// header ("not a realmtui database (unknown file signature)"). The header is read and
    /// written under a `flock` of the data file now.
    @Test func anOpenerWaitsForAnEncryptionHeaderBeingWritten() throws {
        let dir = TempDir()
        let donor = dir.path("donor.realm")
        do {
            _ = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: donor), schema: Fixtures.people, encryptionKey: EncryptionTests.key))
        }
        let header = try [UInt8](Data(contentsOf: URL(fileURLWithPath: donor)).prefix(EncryptedFile.pageSize))
        let path = dir.path("new.realm")
        var partial = [UInt8](repeating: 0, count: header.count)
        partial.replaceSubrange(0..<20, with: header[0..<20])
        try Data(partial).write(to: URL(fileURLWithPath: path))
        // The creating process: the data file open, its header half written, under the flock.
        let creator = open(path, O_RDWR | O_CLOEXEC)
        #expect(creator >= 0)
        defer { close(creator) }
        #expect(flock(creator, LOCK_EX) == 0)
        let finished = Mutex(false)
        let plan = FaultPlan(folder: dir.url.path, calls: [.fileLock], failure: .error(EIO), nth: .max)
        plan.beforeCall = { _, _, _ in
            guard
                finished.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            _ = header.withUnsafeBytes { pwrite(creator, $0.baseAddress, $0.count, 0) }
            flock(creator, LOCK_UN)
        }
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: Fixtures.people, encryptionKey: EncryptionTests.key))
        FaultPlan.remove(plan)
        #expect(finished.withLock { $0 }, "the opener must have waited for the header's lock")
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("first")]) }
        #expect(try realm.objects("Person").count == 1)
    }

    /// A foreign file is still refused before a lock file is written beside it (the waiting
    /// above is only for a file another opener has its lock file for).
    @Test func aForeignFileLeavesNoLockFile() throws {
        let dir = TempDir()
        let path = dir.path("foreign.realm")
        try Data("just some text, long enough to be judged as a header of a database file".utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(throws: RealmError.self) {
            try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people))
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }

    /// A lock of the encryption header that fails is an error naming the file, not a guess.
    @Test func aFailedHeaderLockIsAnError() throws {
        let dir = TempDir()
        let path = dir.path("new.realm")
        let plan = FaultPlan(folder: dir.url.path, calls: [.fileLock], failure: .error(EIO), nth: 1)
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        #expect {
            try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: path), schema: Fixtures.people, encryptionKey: EncryptionTests.key))
        } throws: { error in
            guard case .io(let failed, let operation, let code, _) = error as? RealmError else { return false }
            return failed.hasSuffix("new.realm") && operation == "lock the encryption header" && code == EIO
        }
    }
}
