import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// Two files syncing through one server (issue 27): they converge, a retried batch changes
/// nothing, deletes win, and what was committed offline is uploaded on the next run.
@Suite("Sync through PostgreSQL (needs PGHOST: run under pg_virtualenv)", .enabled(if: hasServer, noServerReason))
struct SyncConvergenceTests {
    @Test func twoFilesConvergeThroughOneServer() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let server = files.server
        let a = files.a
        let b = files.b
        let born = Timestamp(seconds: -86_400 * 365 * 300, nanoseconds: 123_456_789)  // before Int64 nanoseconds reach
        try SyncFixture.write(a) { r in
            let urgent = try r.create("Tag", ["name": .string("urgent \"x\""), "weight": .float(0.5)])
            let ann = try r.create(
                "Person",
                [
                    "id": .int(1), "name": .string("Ann"), "score": .double(.infinity), "born": .date(born),
                    "photo": .data(Data([0, 1, 254, 255])), "uuid": .uuid(UUID()),
                    "tags": .list([.string("a"), .string("b")]), "labels": .list([.link(urgent.key)]),
                ])
            let bo = try r.create("Person", ["id": .int(2), "name": .string("Bo"), "score": .double(-0.25)])
            try ann.setValue(.link(bo.key), forKey: "best")
        }
        try SyncFixture.write(b) { r in
            _ = try r.create(
                "Person", ["id": .int(3), "name": .string("Cy"), "score": .double(1e300), "age": .int(Int64.max)])
        }
        let first = try SyncAgent(path: a).runOnce()
        #expect(first.uploadedBatches == 1)
        try SyncAgent(path: b).runOnce()
        try SyncAgent(path: a).runOnce()
        let content = try SyncFixture.content(a)
        #expect(content.count == 4)
        #expect(try SyncFixture.content(b) == content)
        // The server's tables hold the same objects.
        let db = try server.connect()
        #expect(try SyncFixture.count(db, "Person") == 3)
        #expect(try SyncFixture.count(db, "Tag") == 1)
        // Nothing is pending, and both files read the whole feed.
        #expect(try SyncAgent(path: a).pendingChanges() == 0)
        #expect(try SyncAgent(path: a).cursor() == SyncAgent(path: b).cursor())
    }

    @Test func aRetriedBatchChangesNothing() throws {
        let server = try ServerNamespace()
        let dir = TempDir()
        let a = dir.path("a.realm")
        try SyncFixture.makeSynced(a, url: server.url)
        try SyncFixture.write(a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        // A copy from before the upload: the same client with the same batch still queued, as
        // when the server committed but its reply never arrived.
        let retry = dir.path("retry.realm")
        try FileManager.default.copyItem(atPath: a, toPath: retry)
        try SyncAgent(path: a).runOnce()
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Ann 2"), forKey: "name")
        }
        try SyncAgent(path: a).runOnce()
        let db = try server.connect()
        let feed = try SyncFixture.count(db, "realmtui_feed")
        let report = try SyncAgent(path: retry).runOnce()
        #expect(report.uploadedBatches == 1)
        #expect(report.duplicateBatches == 1)
        #expect(try SyncFixture.count(db, "realmtui_feed") == feed)
        // The retried batch did not put the old name back on the server, and the copy caught up.
        #expect(try db.execute("SELECT name FROM \"Person\" WHERE id = 1").rows == [["Ann 2"]])
        #expect(try SyncFixture.content(retry) == SyncFixture.content(a))
    }

    @Test func aDeleteWinsOverAConcurrentUpdate() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let server = files.server
        let a = files.a
        let b = files.b
        try SyncFixture.write(a) { r in
            _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")])
            _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")])
        }
        try SyncAgent(path: a).runOnce()
        try SyncAgent(path: b).runOnce()
        // Both offline: A deletes Ann, B renames her (and Bo, which nobody deleted).
        try SyncFixture.write(a) { r in
            if let ann = try r.object(ofType: "Person", forPrimaryKey: .int(1)) { try r.delete(ann) }
        }
        try SyncFixture.write(b) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Ann renamed"), forKey: "name")
            try r.object(ofType: "Person", forPrimaryKey: .int(2))?.setValue(.string("Bo renamed"), forKey: "name")
        }
        try SyncAgent(path: a).runOnce()
        try SyncAgent(path: b).runOnce()
        try SyncAgent(path: a).runOnce()
        let expected = try SyncFixture.content(a)
        #expect(expected.count == 1)
        #expect(expected.first?.contains("Bo renamed") == true)
        #expect(try SyncFixture.content(b) == expected)
        let db = try server.connect()
        #expect(try db.execute("SELECT id, name FROM \"Person\"").rows == [["2", "Bo renamed"]])
    }

    /// B renames Ann and uploads; A deletes her offline, then syncs: its download replays B's
    /// update (a few properties) before A's own delete, over a file where Ann is gone already.
    /// Found by 10,000 random operations: the replay tried to create Ann from the update's
    /// properties alone and failed ('Person.name is required'), stopping the agent for good.
    @Test func anUpdateOfAnObjectThisFileDeletedIsReplayedOverItsAbsence() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let a = files.a
        let b = files.b
        try SyncFixture.write(a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try SyncAgent(path: a).runOnce()
        try SyncAgent(path: b).runOnce()
        try SyncFixture.write(b) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.int(41), forKey: "age")
        }
        try SyncAgent(path: b).runOnce()
        try SyncFixture.write(a) { r in
            if let ann = try r.object(ofType: "Person", forPrimaryKey: .int(1)) { try r.delete(ann) }
        }
        let report = try SyncAgent(path: a).runOnce()
        #expect(report.downloadedChanges == 2)
        try SyncAgent(path: b).runOnce()
        #expect(try SyncFixture.content(a).isEmpty)
        #expect(try SyncFixture.content(b).isEmpty)
    }

    @Test func aChangeMadeOfflineIsUploadedOnTheNextRun() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let a = files.a
        let b = files.b
        try SyncFixture.write(a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        // The server is out of reach: the run fails naming it, and the change stays queued.
        let password = "pw-\(UUID().uuidString)"
        #expect {
            try SyncAgent(path: a, url: "postgresql://nobody:\(password)@127.0.0.1:1/none?connect_timeout=2").runOnce()
        } throws: { error in
            let text = "\(error)"
            return text.contains("127.0.0.1") && !text.contains(password)
        }
        #expect(try SyncAgent.status(path: a).pending == 1)
        #expect(try SyncIndicator.read(Realm(configuration: .file(a)))?.lastSync == nil)
        let before = try Timestamp(Date())
        try SyncAgent(path: a).runOnce()
        #expect(try SyncAgent.status(path: a).pending == 0)
        // The upload's commit stamped the time the explorer's sync indicator shows.
        let stamped = try #require(try SyncIndicator.read(Realm(configuration: .file(a)))?.lastSync)
        #expect(stamped >= before)
        try SyncAgent(path: b).runOnce()
        #expect(try SyncFixture.content(b) == SyncFixture.content(a))
        #expect(try SyncFixture.content(b).count == 1)
    }

    @Test func objectsInTheFileBeforeInitAreUploaded() throws {
        let server = try ServerNamespace()
        let dir = TempDir()
        let a = dir.path("a.realm")
        let b = dir.path("b.realm")
        let mixedSchema = Schema([
            ObjectSchema(
                name: "Cell",
                properties: [
                    Property(name: "id", type: .string, isPrimaryKey: true),
                    Property(name: "value", type: .mixed),
                    Property(name: "weights", type: .double, isMap: true),
                ])
        ])
        let realm = try Realm(configuration: .file(a, schema: mixedSchema))
        try realm.write {
            _ = try realm.create(
                "Cell", ["id": .string("a1"), "value": .double(.nan), "weights": .map(["x": .double(1.5)])])
            _ = try realm.create("Cell", ["id": .string("a2"), "value": .list([.string("s"), .int(2)])])
        }
        try SyncAgent.initialize(path: a, url: server.url)
        #expect(try SyncAgent.status(path: a).pending == 2)
        try SyncFixture.makeSynced(b, url: server.url, schema: mixedSchema)
        try SyncAgent(path: a).runOnce()
        try SyncAgent(path: b).runOnce()
        let (contentA, contentB) = (try SyncFixture.content(a), try SyncFixture.content(b))
        #expect(contentB == contentA)
        #expect(contentB.count == 2)
    }

    @Test func downloadsWaitWhileUploadsArePending() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let a = files.a
        let b = files.b
        try SyncFixture.write(a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try SyncAgent(path: a).runOnce()
        // B holds a local change: a download-only step must not apply A's change over it.
        try SyncFixture.write(b) { r in _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")]) }
        let agent = try SyncAgent(path: b)
        var report = SyncAgent.Report()
        try agent.download(&report)
        #expect(report.downloadedChanges == 0)
        #expect(try agent.cursor() == 0)
        try agent.runOnce()
        #expect(try SyncFixture.content(b).count == 2)
        try SyncAgent(path: a).runOnce()
        #expect(try SyncFixture.content(b) == SyncFixture.content(a))
    }

    @Test func aClassWithoutAPrimaryKeyIsRefused() throws {
        let server = try ServerNamespace()
        let dir = TempDir()
        let path = dir.path("nokey.realm")
        let schema = Schema([ObjectSchema(name: "Note", properties: [Property(name: "text", type: .string)])])
        _ = try Realm(configuration: .file(path, schema: schema))
        #expect {
            try SyncAgent.initialize(path: path, url: server.url)
        } throws: { error in
            guard case RealmError.notSyncable(let message) = error else { return false }
            return message.contains("Note has no primary key")
        }
        // Nothing was recorded in the file, nor created on the server.
        #expect(throws: RealmError.self) { try SyncAgent.status(path: path) }
        let db = try server.connect()
        #expect(try db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = $1", [server.name]).rows == [["0"]])
    }

    @Test func theRecordedServerHasNoPassword() throws {
        let server = try ServerNamespace()
        let dir = TempDir()
        let path = dir.path("a.realm")
        _ = try Realm(configuration: .file(path, schema: SyncFixture.schema))
        let user = ProcessInfo.processInfo.environment["PGUSER"] ?? "postgres"
        let password = ProcessInfo.processInfo.environment["PGPASSWORD"] ?? ""
        let withPassword =
            "postgresql://\(user):\(password)@\(ProcessInfo.processInfo.environment["PGHOST"] ?? "localhost")"
            + ":\(ProcessInfo.processInfo.environment["PGPORT"] ?? "5432")/\(ProcessInfo.processInfo.environment["PGDATABASE"] ?? "postgres")"
            + "?options=-csearch_path%3D\(server.name)"
        try SyncAgent.initialize(path: path, url: withPassword)
        let status = try SyncAgent.status(path: path)
        #expect(status.server.contains(user))
        if !password.isEmpty {
            #expect(!status.server.contains(password))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data(password.utf8)) == nil)
        }
    }
}
