import Foundation
import RealmEngine
import RealmTUI
import TestSupport
import Testing

/// The explorer on a synced file (issue 27) lists the user's classes only: the sync outbox and
/// state are the engine's. Its status line shows the sync indicator (pending uploads, last
/// sync), read from the file alone: these tests have no server.
@Suite struct ExplorerSyncedFileTests {
    static let dog = ObjectSchema(
        name: "Dog",
        properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
        ])

    /// A file set up for sync as `realmtui sync init` leaves it (the server is never asked),
    /// its last sync at `lastSync`, then two dogs committed (two uploads pending); the writer.
    static func syncedFile(_ path: String, lastSync: Timestamp?) throws -> Realm {
        let realm = try Realm(
            configuration: .file(path, schema: Schema([dog, SyncClasses.outboxSchema, SyncClasses.stateSchema])))
        try realm.write {
            _ = try realm.create(
                SyncClasses.state,
                [
                    "server": .string("postgres://me@db.example/app"), "client": .string("c1"),
                    "cursor": .int(7), "lastSync": lastSync.map(Value.date) ?? .null,
                ])
        }
        try realm.write {
            _ = try realm.create("Dog", ["id": .int(1), "name": .string("Rex")])
            _ = try realm.create("Dog", ["id": .int(2), "name": .string("Fido")])
        }
        return realm
    }

    @Test func theStatusLineShowsPendingUploadsAndTheLastSync() throws {
        let dir = TempDir()
        let writer = try Self.syncedFile(dir.path("synced.realm"), lastSync: Timestamp(seconds: 1_795_000_000))
        let realm = try Realm(configuration: .file(dir.path("synced.realm")))
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "synced.realm", readOnly: false, width: 100, height: 10))
        try expectGolden("classes-synced", driver.screen)
        // Another process's commit queues one more upload: the indicator follows live.
        try writer.write {
            try writer.object(ofType: "Dog", forPrimaryKey: .int(1))?.setValue(.string("Rex II"), forKey: "name")
        }
        driver.refresh()
        #expect(driver.statusText.contains("⇅ 3 pending · synced 2026-11-18 11:06 UTC"), "\(driver.statusText)")
        // The agent uploaded everything (outbox emptied, time stamped in the same commit).
        try writer.write {
            for entry in try writer.objects(SyncClasses.outbox) { try writer.delete(entry) }
            try writer.objects(SyncClasses.state).checkedFirst()?.setValue(
                .date(Timestamp(seconds: 1_795_000_600)), forKey: "lastSync")
        }
        driver.refresh()
        #expect(driver.statusText.contains("⇅ 0 pending · synced 2026-11-18 11:16 UTC"), "\(driver.statusText)")
    }

    @Test func aFileNeverSyncedSaysSo() throws {
        let dir = TempDir()
        _ = try Self.syncedFile(dir.path("new.realm"), lastSync: nil)
        let realm = try Realm(configuration: .file(dir.path("new.realm")))
        let driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "new.realm", readOnly: true, width: 100, height: 10))
        #expect(driver.statusText.contains("⇅ 2 pending · never synced"), "\(driver.statusText)")
    }

    @Test func aFileWithoutSyncHasNoIndicator() throws {
        let dir = TempDir()
        let realm = try Realm(configuration: .file(dir.path("plain.realm"), schema: Schema([Self.dog])))
        let driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "plain.realm", readOnly: false, width: 100, height: 10))
        #expect(!driver.statusText.contains("⇅") && !driver.statusText.contains("pending"), "\(driver.statusText)")
    }

    @Test func theClassListLeavesTheSyncClassesOut() throws {
        let dir = TempDir()
        let dog = ObjectSchema(
            name: "Dog",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string),
            ])
        let realm = try Realm(
            configuration: .file(
                dir.path("synced.realm"),
                schema: Schema([dog, SyncClasses.outboxSchema, SyncClasses.stateSchema])))
        try realm.write { _ = try realm.create("Dog", ["id": .int(1), "name": .string("Rex")]) }
        let state = ExplorerState(realm: realm, fileName: "synced.realm", readOnly: false, width: 80, height: 20)
        let driver = ExplorerDriver(state: state)
        let screen = driver.screen.lines.joined(separator: "\n")
        #expect(screen.contains("Dog"))
        #expect(!screen.contains("__realmtui"))
    }
}
