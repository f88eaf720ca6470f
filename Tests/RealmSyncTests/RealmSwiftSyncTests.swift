import Foundation
import RealmSwift
import RealmSync
import TestSupport
import Testing

/// A note in a Realm opened through the typed API with `Realm.Configuration.sync`.
final class SyncedNote: RealmSwift.Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var text: String
}

/// `Realm.Configuration.sync` (issue 27): opening a Realm whose configuration names a server
/// sets its file up for sync and runs the agent of `realmtui sync FILE` on a thread of its own;
/// `syncSession.suspend()` / `resume()` stop and start it.
@Suite("Realm.Configuration.sync (needs PGHOST: run under pg_virtualenv)", .enabled(if: hasServer, noServerReason))
struct RealmSwiftSyncTests {
    /// Refreshes `realm` until `condition` holds. No deadline: it ends when the condition holds,
    /// or throws the error that ended one of `sessions`.
    func waitUntil(_ realm: RealmSwift.Realm, _ sessions: [SyncSession?], _ what: String, _ condition: () -> Bool)
        throws
    {
        while true {
            realm.refresh()
            if condition() { return }
            for session in sessions {
                if let error = session?.lastError {
                    throw AgentEnded(description: "while waiting until \(what), an agent ended: \(error)")
                }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    @Test func aConfigurationWithSyncRunsTheAgentUntilSuspended() throws {
        let server = try ServerNamespace()
        let dir = TempDir()
        func configuration(_ name: String) -> RealmSwift.Realm.Configuration {
            var configuration = RealmSwift.Realm.Configuration(
                fileURL: URL(fileURLWithPath: dir.path(name)), objectTypes: [SyncedNote.self])
            configuration.sync = SyncConfiguration(url: server.url)
            return configuration
        }
        let a = try RealmSwift.Realm(configuration: configuration("a.realm"))
        let b = try RealmSwift.Realm(configuration: configuration("b.realm"))
        let sessions = [a.syncSession, b.syncSession]
        defer { sessions.forEach { $0?.suspend() } }
        #expect(a.syncSession?.state == .active)

        try a.write {
            let note = SyncedNote()
            note.id = 1
            note.text = "from a"
            a.add(note)
        }
        try waitUntil(b, sessions, "B has A's note") {
            b.object(ofType: SyncedNote.self, forPrimaryKey: 1)?.text == "from a"
        }

        // Suspended, A's agent uploads nothing: the commit waits in the outbox.
        a.syncSession?.suspend()
        #expect(a.syncSession?.state == .inactive)
        try a.write {
            let note = SyncedNote()
            note.id = 2
            note.text = "while suspended"
            a.add(note)
        }
        #expect(try SyncAgent.status(path: dir.path("a.realm")).pending == 1)
        try a.syncSession?.resume()
        try waitUntil(b, sessions, "B has A's second note") {
            b.object(ofType: SyncedNote.self, forPrimaryKey: 2) != nil
        }
        // And B's commits come down into A.
        try b.write { b.object(ofType: SyncedNote.self, forPrimaryKey: 1)?.text = "edited in b" }
        try waitUntil(a, sessions, "A has B's edit") {
            a.object(ofType: SyncedNote.self, forPrimaryKey: 1)?.text == "edited in b"
        }
        #expect(a.objects(SyncedNote.self).count == 2)
    }

    @Test func anInMemoryRealmCannotSync() throws {
        var configuration = RealmSwift.Realm.Configuration(
            inMemoryIdentifier: "sync-\(UUID().uuidString)", objectTypes: [SyncedNote.self])
        configuration.sync = SyncConfiguration(url: "postgres://localhost/x")
        #expect(throws: RealmError.self) { _ = try RealmSwift.Realm(configuration: configuration) }
    }
}
