import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// The server going away under a running agent and coming back (issue 27). The test server is
/// shared by every test running in parallel, so it is not really restarted: the agent connects
/// as a role of its own, and "down" is that role's backend terminated (as a restart ends every
/// backend) while the role may not connect (`CONNECTION LIMIT 0`: the server answers 53300,
/// "too many connections", a refusal the agent retries, as it retries 57P03 while a restarted
/// server starts). Commits made meanwhile wait in the outbox and arrive once it is back, each once.
/// `SyncServerRealRestartTests` restarts a server of its own for real.
@Suite(
    "the server restarted under a running agent (needs PGHOST: run under pg_virtualenv)",
    .enabled(if: hasServer, noServerReason), .tags(.multiProcess))
struct SyncServerRestartTests {
    @Test func pendingChangesArriveOnceAfterTheServerComesBack() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let admin = try PostgresConnection(url: "")
        let role = "r_" + files.server.name
        let password = UUID().uuidString
        try admin.execute("CREATE ROLE \(role) LOGIN PASSWORD '\(password)'")
        defer {
            _ = try? admin.execute("DROP OWNED BY \(role)")
            _ = try? admin.execute("DROP ROLE \(role)")
        }
        try admin.execute("GRANT USAGE ON SCHEMA \(files.server.name) TO \(role)")
        try admin.execute("GRANT ALL ON ALL TABLES IN SCHEMA \(files.server.name) TO \(role)")
        let name = "realmtui-restart-\(UUID().uuidString)"
        let agentA = try RunningAgent(
            files.a, environment: ["PGUSER": role, "PGPASSWORD": password, "PGAPPNAME": name])
        let agentB = try RunningAgent(files.b)
        let agents = [agentA, agentB]
        defer { for agent in agents { #expect(agent.stop() == 0, "\(agent.description)") } }
        let db = try files.server.connect()
        try SyncFixture.write(files.a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try RunningAgent.waitUntilConverged(agents, [files.a, files.b], server: db)

        // Down: A's backend ends, and A may not connect again.
        try admin.execute("ALTER ROLE \(role) CONNECTION LIMIT 0")
        let ended = try admin.execute(
            """
            SELECT pg_terminate_backend(pid) FROM (SELECT pid FROM pg_stat_activity WHERE application_name = $1 OFFSET 0) AS agent
            """, [name])
        #expect(ended.rows == [["t"]], "\(agentA.description)")
        try SyncFixture.write(files.a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Ann offline"), forKey: "name")
        }
        try SyncFixture.write(files.a) { r in
            _ = try r.create("Person", ["id": .int(2), "name": .string("Bo offline")])
        }
        // The lost connection and two refused attempts, each after a longer wait.
        try RunningAgent.waitUntil(agents, "A retried twice") {
            agentA.stderr.components(separatedBy: "retrying in").count > 3
        }
        #expect(try SyncAgent.status(path: files.a).pending == 2, "\(agentA.description)")
        #expect(try SyncFixture.count(db, "realmtui_feed") == 1)

        // Up again: A reconnects by itself and uploads what waited; B gets it.
        try admin.execute("ALTER ROLE \(role) CONNECTION LIMIT -1")
        try RunningAgent.waitUntilConverged(agents, [files.a, files.b], server: db)
        try RunningAgent.waitUntil(agents, "A said it reconnected") { agentA.stderr.contains("sync: reconnected to") }
        let content = try SyncFixture.content(files.b)
        #expect(try SyncFixture.content(files.a) == content, "\(agents.map(\.description))")
        #expect(
            content.count == 2 && content.contains { $0.contains("Ann offline") }
                && content.contains { $0.contains("Bo offline") },
            "\(content) \(agents.map(\.description))")
        // Nothing twice: the creation of Ann and the two offline commits, one feed entry each.
        #expect(try SyncFixture.count(db, "realmtui_feed") == 3, "\(agents.map(\.description))")
        #expect(try SyncFixture.count(db, "realmtui_batches") == 3)
        #expect(agentA.stderr.contains("too many connections"), "\(agentA.description)")
    }
}
