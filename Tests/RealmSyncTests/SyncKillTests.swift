import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// `kill -9` of the sync agent mid-upload and mid-download (issue 27): before the batch's SQL
/// transaction commits the server keeps nothing of it; after it commits, but before the outbox
/// is cleared, the next run finds the batch on the server and changes nothing; a download killed
/// before its local commit applied nothing. Either way the files converge and the feed holds
/// each change once. (The agent kills itself at the named point: no timing.)
@Suite(
    "sync killed mid-upload or mid-download (needs PGHOST: run under pg_virtualenv)",
    .enabled(if: hasServer, noServerReason), .tags(.multiProcess, .integrity))
struct SyncKillTests {
    /// Runs `realmtui sync FILE --once` killed at `point`; expects death by SIGKILL.
    func syncKilled(_ file: String, at point: String) throws {
        let realmtui = try #require(BuiltExecutable.url("realmtui"), "realmtui was not built next to the tests")
        var environment = ProcessInfo.processInfo.environment
        environment["REALMTUI_SYNC_KILL_AT"] = point
        let output = try runChild(realmtui, ["sync", file, "--once"], environment: environment)
        #expect(output.status == SIGKILL, "not killed at \(point): status \(output.status); stderr: \(output.stderr)")
    }

    @Test(arguments: ["before-commit", "after-commit"])
    func aKilledUploadLosesAndDuplicatesNothing(point: String) throws {
        let files = try SyncFixture.twoSyncedFiles()
        let server = files.server
        let a = files.a
        let b = files.b
        try SyncFixture.write(a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.int(30), forKey: "age")
        }
        try syncKilled(a, at: point)
        let db = try server.connect()
        // Killed before its commit, the first batch left nothing; after, it is on the server once.
        #expect(try SyncFixture.count(db, "realmtui_feed") == (point == "before-commit" ? 0 : 1))
        #expect(try SyncAgent.status(path: a).pending == 2)
        let report = try SyncAgent(path: a).runOnce()
        #expect(report.uploadedBatches == 2)
        #expect(report.duplicateBatches == (point == "before-commit" ? 0 : 1))
        #expect(try SyncFixture.count(db, "realmtui_feed") == 2)
        try SyncAgent(path: b).runOnce()
        #expect(try SyncFixture.content(b) == SyncFixture.content(a))
        #expect(try SyncFixture.content(b).first?.contains("\"age\":30") == true)
    }

    @Test func aKilledDownloadAppliesNothingAndResumes() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let a = files.a
        let b = files.b
        try SyncFixture.write(a) { r in
            _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")])
            _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")])
        }
        try SyncAgent(path: a).runOnce()
        try syncKilled(b, at: "before-download-commit")
        // The local transaction died with the process: nothing of the page, nor the cursor.
        #expect(try SyncFixture.content(b).isEmpty)
        #expect(try SyncAgent.status(path: b).cursor == 0)
        let report = try SyncAgent(path: b).runOnce()
        #expect(report.downloadedChanges == 2)
        #expect(try SyncFixture.content(b) == SyncFixture.content(a))
    }
}
