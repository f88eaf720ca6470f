import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// An agent against a server whose tables an older realmtui set up (issue 27): the error names
/// the fix — `sync init` again, which upgrades the tables — instead of PostgreSQL's "column …
/// does not exist", and after that fix the agent syncs.
@Suite(
    "an agent against a server set up by an older realmtui (needs PGHOST: run under pg_virtualenv)",
    .enabled(if: hasServer, noServerReason), .tags(.multiProcess))
struct SyncOlderServerTests {
    /// Runs `realmtui ARGUMENTS` to completion.
    func realmtui(_ arguments: [String]) throws -> ChildOutput {
        guard let url = BuiltExecutable.url("realmtui") else {
            throw AgentEnded(description: "realmtui was not built next to the tests (swift build builds it)")
        }
        return try runChild(url, arguments)
    }

    /// Expects the agent for `file`, run once and in the foreground, to end with status 1 and an
    /// error that names `sync init` for this file and server.
    func expectTheFixIsNamed(_ file: String, server: String, missing: String) throws {
        for arguments in [["sync", file, "--once"], ["sync", file, "--poll", "3600"]] {
            let run = try realmtui(arguments)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("error: "), "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.contains("run 'realmtui sync init \(file) \(server)' again"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(missing), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("does not exist"), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("retrying"), "\(arguments): \(run.stderr)")
        }
    }

    @Test func aFeedWithoutTheBaseColumnNamesSyncInit() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let db = try files.server.connect()
        try db.execute("ALTER TABLE realmtui_feed DROP COLUMN base")
        try SyncFixture.write(files.a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try expectTheFixIsNamed(files.a, server: files.server.url, missing: "realmtui_feed.base")
        #expect(try SyncAgent.status(path: files.a).pending == 1)

        // The fix the message names.
        let initAgain = try realmtui(["sync", "init", files.a, files.server.url])
        #expect(initAgain.status == 0, "\(initAgain.stderr)")
        for file in [files.a, files.b] {
            let run = try realmtui(["sync", file, "--once"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
        #expect(try SyncFixture.content(files.b).count == 1)
    }

    @Test func batchesWithoutThePartColumnNameSyncInit() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let db = try files.server.connect()
        // The table as servers set up before commits went up in parts had it.
        try db.execute("DROP TABLE realmtui_batches")
        try db.execute(
            "CREATE TABLE realmtui_batches (client text NOT NULL, version bigint NOT NULL, PRIMARY KEY (client, version))"
        )
        try SyncFixture.write(files.a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try expectTheFixIsNamed(files.a, server: files.server.url, missing: "realmtui_batches.part")

        try SyncAgent.initialize(path: files.b, url: files.server.url)
        for file in [files.a, files.b] {
            let run = try realmtui(["sync", file, "--once"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
        #expect(try SyncFixture.content(files.b).count == 1)
    }
}
