import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
@testable import realmtui
import Testing

/// The first sync of a large file (issue 27): what a file held before `sync init` goes up in
/// batches of a bounded number of objects, one SQL transaction each, and a new client downloads a
/// long feed in pages, each one local commit, both with progress ("uploaded 200 of 250 objects").
/// A kill between batches or pages loses and duplicates nothing: the next run goes on from there.
@Suite("sync in batches with progress (needs PGHOST: run under pg_virtualenv)", .enabled(if: hasServer, noServerReason))
struct SyncBatchTests {
    static let objects = 250
    static let batch = 100

    /// A server namespace, `a.realm` holding `objects` people before it was set up for sync, and
    /// an empty `b.realm` set up with the same server.
    static func largeFileAndNewClient() throws -> SyncFixture.SyncedFiles {
        let server = try ServerNamespace()
        let dir = TempDir()
        let files = SyncFixture.SyncedFiles(server: server, dir: dir, a: dir.path("a.realm"), b: dir.path("b.realm"))
        let realm = try Realm(configuration: .file(files.a, schema: SyncFixture.schema))
        try realm.write {
            for id in 0..<objects {
                _ = try realm.create("Person", ["id": .int(Int64(id)), "name": .string("P\(id)")])
            }
        }
        try SyncAgent.initialize(path: files.a, url: server.url)
        try SyncFixture.makeSynced(files.b, url: server.url)
        return files
    }

    /// Runs `realmtui sync FILE --once --batch N` killed at `point`; expects death by SIGKILL.
    func syncKilled(_ file: String, at point: String) throws -> ChildOutput {
        let realmtui = try #require(BuiltExecutable.url("realmtui"), "realmtui was not built next to the tests")
        var environment = ProcessInfo.processInfo.environment
        environment["REALMTUI_SYNC_KILL_AT"] = point
        let output = try runChild(
            realmtui, ["sync", file, "--once", "--batch", String(SyncBatchTests.batch)], environment: environment)
        #expect(output.status == SIGKILL, "not killed at \(point): status \(output.status); stderr: \(output.stderr)")
        return output
    }

    @Test func aLargeFileUploadsAndANewClientDownloadsInBatchesWithProgress() throws {
        let files = try SyncBatchTests.largeFileAndNewClient()
        let db = try files.server.connect()
        let uploader = try SyncAgent(path: files.a)
        uploader.batchSize = SyncBatchTests.batch
        var uploads: [SyncAgent.Transfer] = []
        uploader.onTransfer = { uploads.append($0) }
        let up = try uploader.runOnce()
        #expect(up.uploadedObjects == SyncBatchTests.objects)
        // Then it reads the feed its batches made, passing over its own entries.
        #expect(up.downloadedChanges == 0 && up.ownChanges == SyncBatchTests.objects)
        #expect(
            uploads.filter { $0.direction == .upload }.map(\.objects)
                == [100, 200, 250].map { SyncBatchTests.Objects(done: $0, total: 250) })
        // The bytes sent so far grow with every batch: at least each object's JSON went out.
        SyncBatchTests.expectGrowing(uploads.filter { $0.direction == .upload }.map(\.bytes), atLeast: 250 * 20)
        // One SQL transaction per batch: three batches on the server, each object once in the feed.
        #expect(try SyncFixture.count(db, "realmtui_batches") == 3)
        #expect(try SyncFixture.count(db, "realmtui_feed") == SyncBatchTests.objects)
        #expect(try SyncFixture.count(db, "Person") == SyncBatchTests.objects)

        let downloader = try SyncAgent(path: files.b)
        downloader.batchSize = SyncBatchTests.batch
        var downloads: [SyncAgent.Transfer] = []
        downloader.onTransfer = { downloads.append($0) }
        let down = try downloader.runOnce()
        #expect(down.downloadedChanges == SyncBatchTests.objects)
        #expect(downloads.map(\.objects) == [100, 200, 250].map { SyncBatchTests.Objects(done: $0, total: 250) })
        SyncBatchTests.expectGrowing(downloads.map(\.bytes), atLeast: 250 * 20)
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
        #expect(
            SyncAgent.Transfer(direction: .upload, done: 12000, total: 50000, bytes: 3_456_789).description
                == "uploaded 12,000 of 50,000 objects · 3.3 MiB")
        #expect(
            SyncAgent.Transfer(direction: .download, done: 3, total: 9, bytes: 700).description
                == "downloaded 3 of 9 changes · 700 B")
    }

    /// Killed before the second batch's SQL commit (the server keeps the first batch) or after it
    /// (the second batch is on the server, still in the outbox: the retry finds it there).
    @Test(arguments: ["before-commit#2", "after-commit#2"])
    func aKilledFirstUploadGoesOnWithoutDuplicates(point: String) throws {
        let files = try SyncBatchTests.largeFileAndNewClient()
        let output = try syncKilled(files.a, at: point)
        #expect(
            output.stdout.contains("uploaded 100 of 250 objects · "),
            "stdout: \(output.stdout) stderr: \(output.stderr)")
        let db = try files.server.connect()
        let committed = point.hasPrefix("before") ? 100 : 200
        #expect(try SyncFixture.count(db, "realmtui_feed") == committed)
        // Only the first batch left the outbox.
        #expect(try SyncAgent.status(path: files.a).pending == 150)
        let agent = try SyncAgent(path: files.a)
        agent.batchSize = SyncBatchTests.batch
        let report = try agent.runOnce()
        #expect(report.duplicateBatches == (point.hasPrefix("before") ? 0 : 1))
        #expect(try SyncAgent.status(path: files.a).pending == 0)
        #expect(try SyncFixture.count(db, "realmtui_feed") == SyncBatchTests.objects)
        #expect(try SyncFixture.count(db, "Person") == SyncBatchTests.objects)
        try SyncAgent(path: files.b).runOnce()
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
    }

    @Test func aKilledFirstDownloadKeepsItsPagesAndGoesOn() throws {
        let files = try SyncBatchTests.largeFileAndNewClient()
        try SyncAgent(path: files.a).runOnce()
        let output = try syncKilled(files.b, at: "before-download-commit#2")
        #expect(
            output.stdout.contains("downloaded 100 of 250 changes · "),
            "stdout: \(output.stdout) stderr: \(output.stderr)"
        )
        // The first page is committed with its cursor; the second died with the process.
        #expect(try SyncAgent.status(path: files.b).cursor == 100)
        #expect(try SyncFixture.content(files.b).count == 100)
        let agent = try SyncAgent(path: files.b)
        agent.batchSize = SyncBatchTests.batch
        var downloads: [SyncAgent.Transfer] = []
        agent.onTransfer = { downloads.append($0) }
        let report = try agent.runOnce()
        #expect(report.downloadedChanges == 150)
        #expect(downloads.last?.objects == SyncBatchTests.Objects(done: 150, total: 150))
        #expect(try SyncFixture.content(files.b) == SyncFixture.content(files.a))
    }

    /// A terminal's progress line starts with a bar of 20 cells.
    @Test func theTerminalProgressBarFillsWithWhatIsDone() {
        #expect(TransferLine.bar(done: 0, total: 250) == "[--------------------]")
        #expect(TransferLine.bar(done: 100, total: 250) == "[########------------]")
        #expect(TransferLine.bar(done: 250, total: 250) == "[####################]")
        #expect(TransferLine.bar(done: 300, total: 250) == "[####################]")
        #expect(TransferLine.bar(done: 5, total: 0) == "[--------------------]")
    }

    /// A transfer's object counts alone (its bytes depend on the encoding).
    struct Objects: Equatable {
        var done: Int
        var total: Int
    }

    /// Byte counts reported batch after batch: each larger than the one before, the last at least
    /// `atLeast`.
    static func expectGrowing(
        _ bytes: [Int], atLeast: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(zip(bytes, bytes.dropFirst()).allSatisfy { $0 < $1 }, "\(bytes)", sourceLocation: sourceLocation)
        #expect((bytes.last ?? 0) >= atLeast, "\(bytes)", sourceLocation: sourceLocation)
    }
}

extension SyncAgent.Transfer {
    /// The object counts of this report, for comparing without its bytes.
    var objects: SyncBatchTests.Objects { SyncBatchTests.Objects(done: done, total: total) }
}
