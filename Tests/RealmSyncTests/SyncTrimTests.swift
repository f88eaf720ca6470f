import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// A trimmed feed (issue 27): the server's operator deletes old feed entries
/// (`DELETE FROM realmtui_feed WHERE seq <= N`) to bound its size. A client whose cursor is
/// below what is left cannot replay the feed; it uploads what it has first, then copies every
/// table from the server (one snapshot) into one local commit with the server's cursor:
/// nothing of its own lost, nothing duplicated, objects the server deleted gone.
@Suite(
    "a trimmed feed and re-bootstrap (needs PGHOST: run under pg_virtualenv)", .enabled(if: hasServer, noServerReason))
struct SyncTrimTests {
    /// Deletes every feed entry the server has so far.
    func trimFeed(_ db: PostgresConnection) throws {
        try db.execute("DELETE FROM realmtui_feed WHERE seq <= (SELECT last FROM realmtui_counter WHERE id = 1)")
    }

    @Test func aClientBehindATrimmedFeedCopiesTheTablesAndKeepsItsOwnChanges() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let a = files.a
        let b = files.b
        let db = try files.server.connect()
        try SyncFixture.write(a) { r in
            for id in 1...3 { _ = try r.create("Person", ["id": .int(Int64(id)), "name": .string("P\(id)")]) }
            _ = try r.create("Tag", ["name": .string("red"), "weight": .float(1.5)])
        }
        try SyncAgent(path: a).runOnce()
        try SyncAgent(path: b).runOnce()
        // While B is offline: A renames 1, links 1 to 3 and to the tag, deletes 2, creates 4.
        try SyncFixture.write(a) { r in
            guard let one = try r.object(ofType: "Person", forPrimaryKey: .int(1)),
                let three = try r.object(ofType: "Person", forPrimaryKey: .int(3)),
                let red = try r.object(ofType: "Tag", forPrimaryKey: .string("red"))
            else { return }
            try one.setValue(.string("P1 renamed"), forKey: "name")
            try one.setValue(.link(three.key), forKey: "best")
            try one.setValue(.list([.link(red.key)]), forKey: "labels")
            if let two = try r.object(ofType: "Person", forPrimaryKey: .int(2)) { try r.delete(two) }
            _ = try r.create("Person", ["id": .int(4), "name": .string("P4")])
        }
        try SyncAgent(path: a).runOnce()
        // B's own offline edit, then the server trims everything B has not seen.
        try SyncFixture.write(b) { r in _ = try r.create("Person", ["id": .int(5), "name": .string("B's own")]) }
        try trimFeed(db)

        let agent = try SyncAgent(path: b)
        var transfers: [SyncAgent.Transfer] = []
        agent.batchSize = 2
        agent.onTransfer = { transfers.append($0) }
        let report = try agent.runOnce()
        #expect(report.uploadedBatches == 1)
        #expect(report.bootstraps == 1)
        #expect(transfers.last?.direction == .copy, "\(transfers)")
        #expect(transfers.last?.objects == SyncBatchTests.Objects(done: 5, total: 5), "\(transfers)")
        SyncBatchTests.expectGrowing(transfers.filter { $0.direction == .copy }.map(\.bytes), atLeast: 5 * 20)
        // B's cursor is the server's last entry, which B's own upload was.
        let last = try db.execute("SELECT last FROM realmtui_counter").rows.first?.first.flatMap { $0 }.flatMap {
            Int64($0)
        }
        #expect(try SyncAgent.status(path: b).cursor == last)
        try SyncAgent(path: a).runOnce()
        let content = try SyncFixture.content(a)
        #expect(try SyncFixture.content(b) == content)
        #expect(content.count == 5)  // people 1, 3, 4, 5 and the tag
        #expect(!content.contains { $0.contains("\"id\":2") }, "\(content)")
        #expect(
            content.contains {
                $0.contains("P1 renamed") && $0.contains("\"best\":3") && $0.contains("\"labels\":[\"red\"]")
            }, "\(content)")
        #expect(content.contains { $0.contains("B's own") }, "\(content)")
        // And syncing goes on through the feed from there.
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(4))?.setValue(.int(44), forKey: "age")
        }
        try SyncAgent(path: a).runOnce()
        let again = try SyncAgent(path: b).runOnce()
        #expect(again.bootstraps == 0 && again.downloadedChanges == 1)
        #expect(try SyncFixture.content(b) == SyncFixture.content(a))
    }

    @Test func aNewClientJoiningAfterATrimCopiesTheTables() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let db = try files.server.connect()
        try SyncFixture.write(files.a) { r in
            for id in 1...3 {
                _ = try r.create(
                    "Person", ["id": .int(Int64(id)), "name": .string("P\(id)"), "tags": .list([.string("t\(id)")])])
            }
        }
        try SyncAgent(path: files.a).runOnce()
        try trimFeed(db)
        let report = try SyncAgent(path: files.b).runOnce()
        #expect(report.bootstraps == 1)
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
        #expect(try SyncFixture.content(files.b).count == 3)
    }

    @Test func aCopyKilledBeforeItsCommitAppliesNothingAndIsMadeAgain() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let db = try files.server.connect()
        try SyncFixture.write(files.a) { r in
            for id in 1...3 { _ = try r.create("Person", ["id": .int(Int64(id)), "name": .string("P\(id)")]) }
        }
        try SyncAgent(path: files.a).runOnce()
        try trimFeed(db)
        let realmtui = try #require(BuiltExecutable.url("realmtui"), "realmtui was not built next to the tests")
        var environment = ProcessInfo.processInfo.environment
        environment["REALMTUI_SYNC_KILL_AT"] = "before-bootstrap-commit"
        let output = try runChild(realmtui, ["sync", files.b, "--once"], environment: environment)
        #expect(output.status == SIGKILL, "not killed: status \(output.status); stderr: \(output.stderr)")
        #expect(try SyncFixture.content(files.b).isEmpty)
        #expect(try SyncAgent.status(path: files.b).cursor == 0)
        let (status, stdout, stderr) = try BuiltExecutable.run("realmtui", ["sync", files.b, "--once"])
        #expect(
            status == 0 && stdout.contains("copied 3 object(s) from the server"), "stdout: \(stdout) stderr: \(stderr)")
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
    }

    /// `realmtui sync trim FILE --keep N`: the feed keeps its newest N entries; a client at most N
    /// behind goes on through the feed, one further behind copies the tables, and both end with
    /// the server's content.
    @Test func theTrimCommandKeepsTheNewestEntriesAndAClientBehindCopiesTheTables() throws {
        let server = try ServerNamespace()
        let dir = TempDir()
        let files = ["a", "near", "far"].map { dir.path("\($0).realm") }
        for file in files { try SyncFixture.makeSynced(file, url: server.url) }
        let (a, near, far) = (files[0], files[1], files[2])
        try SyncFixture.write(a) { r in
            for id in 1...4 { _ = try r.create("Person", ["id": .int(Int64(id)), "name": .string("P\(id)")]) }
        }
        try SyncAgent(path: a).runOnce()
        try SyncAgent(path: near).runOnce()
        // Two more changes: `near` is 2 behind, `far` 6.
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("P1 renamed"), forKey: "name")
            if let four = try r.object(ofType: "Person", forPrimaryKey: .int(4)) { try r.delete(four) }
        }
        try SyncAgent(path: a).runOnce()
        let (status, stdout, stderr) = try BuiltExecutable.run("realmtui", ["sync", "trim", a, "--keep", "3"])
        #expect(
            status == 0 && stdout.contains("deleted 3 entries")
                && stdout.contains("kept those after 3 (the last is 6)"),
            "stdout: \(stdout) stderr: \(stderr)")
        let db = try server.connect()
        #expect(try db.execute("SELECT min(seq), max(seq), count(*) FROM realmtui_feed").rows == [["4", "6", "3"]])
        let nearReport = try SyncAgent(path: near).runOnce()
        #expect(nearReport.bootstraps == 0 && nearReport.downloadedChanges == 2)
        let farReport = try SyncAgent(path: far).runOnce()
        #expect(farReport.bootstraps == 1 && farReport.copiedObjects == 3)
        let content = try SyncFixture.content(a)
        #expect(content.count == 3 && content.contains { $0.contains("P1 renamed") }, "\(content)")
        #expect(try SyncFixture.content(near) == content)
        #expect(try SyncFixture.content(far) == content)
        // A negative count is a usage error, and nothing is deleted.
        let bad = try BuiltExecutable.run("realmtui", ["sync", "trim", a, "--keep", "-1"])
        #expect(bad.0 != 0 && bad.2.contains("--keep"), "stdout: \(bad.1) stderr: \(bad.2)")
        #expect(try SyncFixture.count(db, "realmtui_feed") == 3)
    }
}
