import Foundation
import RealmEngine
import RealmTUI
import TestSupport
import Testing

/// The explorer on a synced file (issue 27) lists the user's classes only: the sync outbox and
/// state are the engine's.
@Suite struct ExplorerSyncedFileTests {
    @Test func theClassListLeavesTheSyncClassesOut() throws {
        let dir = TempDir()
        let dog = ObjectSchema(name: "Dog", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
        ])
        let realm = try Realm(configuration: .file(dir.path("synced.realm"),
                                                   schema: Schema([dog, SyncClasses.outboxSchema, SyncClasses.stateSchema])))
        try realm.write { _ = try realm.create("Dog", ["id": .int(1), "name": .string("Rex")]) }
        let state = ExplorerState(realm: realm, fileName: "synced.realm", readOnly: false, width: 80, height: 20)
        let driver = ExplorerDriver(state: state)
        let screen = driver.screen.lines.joined(separator: "\n")
        #expect(screen.contains("Dog"))
        #expect(!screen.contains("__realmtui"))
    }
}
