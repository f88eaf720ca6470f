import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// Trimming by acknowledgement (issue 27): every client records on the server how far it has
/// downloaded (`realmtui_clients`), and `realmtui sync trim FILE --acknowledged` deletes only
/// the feed entries every client known to the server has downloaded, so nobody pays a copy of
/// the tables for it. A client that stopped coming is dropped from that count by
/// `--forget-after DAYS`; should it come back, it copies the tables (nothing lost).
@Suite(
    "trimming the feed by acknowledgement (needs PGHOST: run under pg_virtualenv)",
    .enabled(if: hasServer, noServerReason), .tags(.multiProcess))
struct SyncAcknowledgedTrimTests {
    /// The feed numbers left on the server.
    func feed(_ db: PostgresConnection) throws -> [Int64] {
        try db.execute("SELECT seq FROM realmtui_feed ORDER BY seq").rows.compactMap { $0.first.flatMap { $0 } }
            .compactMap { Int64($0) }
    }

    func person(_ id: Int64) -> (Realm) throws -> Void {
        { r in _ = try r.create("Person", ["id": .int(id), "name": .string("P\(id)")]) }
    }

    @Test func onlyEntriesEveryClientDownloadedAreTrimmed() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let c = files.dir.path("c.realm")
        try SyncFixture.makeSynced(c, url: files.server.url)
        let db = try files.server.connect()
        // Every client is known from its `sync init`, at cursor 0: nothing may go yet.
        #expect(try SyncFixture.count(db, "realmtui_clients") == 3)
        for id in 1...3 { try SyncFixture.write(files.a, person(Int64(id))) }
        try SyncAgent(path: files.a).runOnce()
        #expect(try SyncAgent(path: files.a).trimAcknowledged().deleted == 0)
        try SyncAgent(path: files.b).runOnce()
        try SyncAgent(path: c).runOnce()
        // All three have 1–3; then A adds 4 and 5, which only B downloads.
        for id in 4...5 { try SyncFixture.write(files.a, person(Int64(id))) }
        try SyncAgent(path: files.a).runOnce()
        try SyncAgent(path: files.b).runOnce()
        let trim = try SyncAgent(path: files.b).trimAcknowledged()
        #expect(trim.deleted == 3)
        #expect(trim.through == 3)
        #expect(trim.forgotten == 0)
        #expect(try feed(db) == [4, 5])
        // C catches up through the feed: no copy of the tables.
        let report = try SyncAgent(path: c).runOnce()
        #expect(report.bootstraps == 0 && report.downloadedChanges == 2, "\(report)")
        #expect(try SyncFixture.content(c) == SyncFixture.content(files.a))
        #expect(try SyncFixture.content(c).count == 5)
    }

    @Test func aClientNotSeenForLongerThanForgetAfterNoLongerHoldsTheFeed() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let db = try files.server.connect()
        for id in 1...2 { try SyncFixture.write(files.a, person(Int64(id))) }
        try SyncAgent(path: files.a).runOnce()
        // B never downloaded; it was last seen 40 days ago.
        let client = try SyncAgent.status(path: files.b).client
        try db.execute(
            "UPDATE realmtui_clients SET seen = now() - interval '40 days' WHERE client = $1", [client])
        let kept = try SyncAgent(path: files.a).trimAcknowledged(forgettingDays: 41)
        #expect(kept.deleted == 0 && kept.forgotten == 0)
        let trim = try SyncAgent(path: files.a).trimAcknowledged(forgettingDays: 30)
        #expect(trim.forgotten == 1)
        #expect(trim.deleted == 2)
        #expect(try feed(db).isEmpty)
        // B comes back: the feed it needs is gone, so it copies the tables, and is known again.
        try SyncFixture.write(files.b) { r in _ = try r.create("Person", ["id": .int(9), "name": .string("B's own")]) }
        let report = try SyncAgent(path: files.b).runOnce()
        #expect(report.bootstraps == 1, "\(report)")
        try SyncAgent(path: files.a).runOnce()
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
        #expect(try SyncFixture.content(files.b).count == 3)
        #expect(try SyncFixture.count(db, "realmtui_clients") == 2)
    }

    @Test func theCommandSaysWhatItTrimmed() throws {
        let files = try SyncFixture.twoSyncedFiles()
        try SyncFixture.write(files.a, person(1))
        try SyncAgent(path: files.a).runOnce()
        try SyncAgent(path: files.b).runOnce()
        let (status, out, err) = try BuiltExecutable.run("realmtui", ["sync", "trim", files.a, "--acknowledged"])
        #expect(status == 0, "\(err)")
        #expect(out.contains("deleted 1 entry"), "\(out)")
        #expect(out.contains("through 1, which all 2 known clients have downloaded"), "\(out)")
        // --keep and --acknowledged are two ways to trim: exactly one of them.
        let (both, _, bothErr) = try BuiltExecutable.run(
            "realmtui", ["sync", "trim", files.a, "--acknowledged", "--keep", "3"])
        #expect(both != 0 && bothErr.contains("--acknowledged"), "\(bothErr)")
        let (neither, _, neitherErr) = try BuiltExecutable.run("realmtui", ["sync", "trim", files.a])
        #expect(neither != 0 && neitherErr.contains("--acknowledged"), "\(neitherErr)")
    }

    @Test func aServerWithoutTheClientsTableNamesSyncInitAndInitKnowsTheUploaders() throws {
        let files = try SyncFixture.twoSyncedFiles()
        try SyncFixture.write(files.a, person(1))
        try SyncAgent(path: files.a).runOnce()
        let db = try files.server.connect()
        try db.execute("DROP TABLE realmtui_clients")
        let error = #expect(throws: RealmError.self) { try SyncAgent(path: files.a) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("realmtui_clients.cursor"), "\(message)")
        #expect(message.contains("run 'realmtui sync init \(files.a) \(files.server.url)' again"), "\(message)")
        try SyncAgent.initialize(path: files.b, url: files.server.url)
        // A uploaded before the table existed: known again, at cursor 0 until it downloads.
        let a = try SyncAgent.status(path: files.a).client
        #expect(
            try db.execute("SELECT cursor FROM realmtui_clients WHERE client = $1", [a]).rows == [["0"]])
    }
}
