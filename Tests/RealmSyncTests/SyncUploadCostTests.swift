import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// What an upload costs (issue 27): a batch goes up in a constant number of SQL statements
/// whatever its size, and the uploader does not apply its own feed entries again on the way
/// down — unless another client's change to the same object came in between, where applying it
/// again is what keeps the server's order (per property, the last writer wins).
@Suite(
    "upload cost and own feed entries (needs PGHOST: run under pg_virtualenv)", .enabled(if: hasServer, noServerReason))
struct SyncUploadCostTests {
    /// The statements one upload of the file's outbox sent.
    func statementsOfUpload(_ path: String) throws -> Int {
        let agent = try SyncAgent(path: path)
        let before = agent.db.statements
        var report = SyncAgent.Report()
        try agent.upload(&report)
        #expect(report.uploadedBatches == 1)
        return agent.db.statements - before
    }

    @Test func aBatchCostsTheSameStatementsForOneObjectAsForMany() throws {
        let files = try SyncFixture.twoSyncedFiles()
        try SyncFixture.write(files.a) { r in _ = try r.create("Person", ["id": .int(0), "name": .string("P0")]) }
        let one = try statementsOfUpload(files.a)
        try SyncFixture.write(files.a) { r in
            for id in 1...60 { _ = try r.create("Person", ["id": .int(Int64(id)), "name": .string("P\(id)")]) }
        }
        #expect(try statementsOfUpload(files.a) == one)
        // Updates of different properties per object, and deletions, one statement each per class.
        try SyncFixture.write(files.a) { r in
            for id in 1...20 {
                try r.object(ofType: "Person", forPrimaryKey: .int(Int64(id)))?.setValue(.int(Int64(id)), forKey: "age")
            }
            for id in 21...40 {
                try r.object(ofType: "Person", forPrimaryKey: .int(Int64(id)))?.setValue(
                    .string("R\(id)"), forKey: "name")
            }
        }
        let updates = try statementsOfUpload(files.a)
        try SyncFixture.write(files.a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.int(7), forKey: "age")
        }
        #expect(try statementsOfUpload(files.a) == updates)
        try SyncFixture.write(files.a) { r in
            for id in 41...60 {
                if let p = try r.object(ofType: "Person", forPrimaryKey: .int(Int64(id))) { try r.delete(p) }
            }
        }
        #expect(try statementsOfUpload(files.a) == one)
        // The server has what the file has, and another client gets it.
        try SyncAgent(path: files.a).runOnce()
        try SyncAgent(path: files.b).runOnce()
        let content = try SyncFixture.content(files.a)
        #expect(content.count == 41)
        #expect(try SyncFixture.content(files.b) == content)
        #expect(content.contains { $0.contains("\"id\":1,") && $0.contains("\"age\":7") }, "\(content)")
        #expect(
            content.contains { $0.contains("\"id\":30,") && $0.contains("R30") && $0.contains("\"age\":null") },
            "\(content)")
        let db = try files.server.connect()
        #expect(
            try db.execute("SELECT name, age FROM \"Person\" WHERE id IN (1, 30) ORDER BY id").rows == [
                ["P1", "7"], ["R30", nil],
            ])
    }

    @Test func theUploaderPassesOverItsOwnEntriesOnTheWayDown() throws {
        let files = try SyncFixture.twoSyncedFiles()
        try SyncFixture.write(files.a) { r in
            for id in 1...3 { _ = try r.create("Person", ["id": .int(Int64(id)), "name": .string("P\(id)")]) }
        }
        let report = try SyncAgent(path: files.a).runOnce()
        #expect(report.uploadedObjects == 3)
        #expect(report.downloadedChanges == 0)
        #expect(report.ownChanges == 3)
        // The cursor went past them all the same, and the record of them is gone with it.
        #expect(report.cursor == 3)
        let state = try #require(try SyncAgent.state(of: Realm(configuration: .file(files.a))))
        #expect(try state.value(forKey: "uploaded") == .list([]))
        let b = try SyncAgent(path: files.b).runOnce()
        #expect(b.downloadedChanges == 3 && b.ownChanges == 0)
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
    }

    /// B renames Ann and uploads; A renames her too, offline, and uploads after B: the server's
    /// last writer is A. A's download applies B's rename over its own, so it must apply its own
    /// entry again, although it made it (here with one entry per page, so the two are apart).
    @Test func anOwnEntryAfterAnotherClientsChangeOfTheObjectIsAppliedAgain() throws {
        let files = try SyncFixture.twoSyncedFiles()
        try SyncFixture.write(files.a) { r in
            _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")])
            _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")])
        }
        try SyncAgent(path: files.a).runOnce()
        try SyncAgent(path: files.b).runOnce()
        try SyncFixture.write(files.b) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Ann by B"), forKey: "name")
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.int(20), forKey: "age")
        }
        try SyncAgent(path: files.b).runOnce()
        try SyncFixture.write(files.a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Ann by A"), forKey: "name")
            try r.object(ofType: "Person", forPrimaryKey: .int(2))?.setValue(.string("Bo by A"), forKey: "name")
        }
        let agent = try SyncAgent(path: files.a)
        agent.batchSize = 1
        let report = try agent.runOnce()
        // B's entry, and A's for Ann (after B's); A's for Bo is passed over.
        #expect(report.downloadedChanges == 2 && report.ownChanges == 1)
        try SyncAgent(path: files.b).runOnce()
        let content = try SyncFixture.content(files.a)
        #expect(try SyncFixture.content(files.b) == content)
        #expect(content.contains { $0.contains("Ann by A") && $0.contains("\"age\":20") }, "\(content)")
        #expect(content.contains { $0.contains("Bo by A") }, "\(content)")
        let db = try files.server.connect()
        #expect(
            try db.execute("SELECT name, age FROM \"Person\" ORDER BY id").rows == [
                ["Ann by A", "20"], ["Bo by A", nil],
            ])
    }

    /// One commit deletes Ann and creates a new object with her primary key: the engine queues
    /// the creation before the deletion, and sent so the server ended without her while the
    /// file kept her (found by 10,000 random operations once the uploader stopped applying its
    /// own entries again; before that the file applied its own deletion and lost her too).
    @Test func aDeleteAndACreateOfOnePrimaryKeyInOneCommitLeaveTheNewObject() throws {
        let files = try SyncFixture.twoSyncedFiles()
        try SyncFixture.write(files.a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try SyncAgent(path: files.a).runOnce()
        try SyncFixture.write(files.a) { r in
            if let ann = try r.object(ofType: "Person", forPrimaryKey: .int(1)) { try r.delete(ann) }
            _ = try r.create("Person", ["id": .int(1), "name": .string("Ann again")])
        }
        try SyncAgent(path: files.a).runOnce()
        try SyncAgent(path: files.b).runOnce()
        let db = try files.server.connect()
        #expect(try db.execute("SELECT name FROM \"Person\"").rows == [["Ann again"]])
        let content = try SyncFixture.content(files.a)
        #expect(content.count == 1 && content.first?.contains("Ann again") == true, "\(content)")
        #expect(try SyncFixture.content(files.b) == content)
    }
}
