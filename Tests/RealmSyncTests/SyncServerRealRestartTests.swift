import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// The server really restarted, and stopped and started, under two running agents (issue 27),
/// on a server of the test's own (`ThrowawayServer`: the suite's shared server cannot be
/// restarted without cutting every other test). Commits are made before, during and after a
/// restart and while the server is down; each must arrive on the server exactly once and reach
/// the other client, with no help from the test: the agents notice the lost connection, retry
/// and reconnect by themselves.
@Suite(
    "the sync server really restarted under running agents (needs pg_virtualenv)",
    .enabled(if: hasPgVirtualenv, noPgVirtualenvReason), .tags(.multiProcess, .slow))
struct SyncServerRealRestartTests {
    @Test func commitsBeforeDuringAndAfterARestartArriveOnceAndConverge() throws {
        let server = try ThrowawayServer()
        defer { server.close() }
        let dir = TempDir()
        let a = dir.path("a.realm")
        let b = dir.path("b.realm")
        try SyncFixture.makeSynced(a, url: server.url)
        try SyncFixture.makeSynced(b, url: server.url)
        let agentA = try RunningAgent(a, environment: server.environment)
        let agentB = try RunningAgent(b, environment: server.environment)
        let agents = [agentA, agentB]
        defer { for agent in agents { #expect(agent.stop() == 0, "\(agent.description)") } }
        func failure() -> String { "\(agents.map(\.description))\nserver's stderr:\n\(server.stderr)" }
        func person(_ id: Int64, _ name: String) -> (Realm) throws -> Void {
            { r in _ = try r.create("Person", ["id": .int(id), "name": .string(name)]) }
        }
        func count(_ agent: RunningAgent, _ text: String) -> Int {
            agent.stderr.components(separatedBy: text).count - 1
        }

        // Before.
        try SyncFixture.write(a, person(1, "before"))
        try RunningAgent.waitUntilConverged(agents, [a, b], server: try server.connect())

        // A restart (pg_ctlcluster's fast mode: every backend ends), with a commit made while it
        // runs and one after it.
        try server.send("restart")
        try SyncFixture.write(a, person(2, "during restart"))
        try server.waitUntilDone("restart")
        try SyncFixture.write(b, person(3, "after restart"))
        try RunningAgent.waitUntil(agents, "both agents reconnected after the restart") {
            count(agentA, "sync: reconnected to") >= 1 && count(agentB, "sync: reconnected to") >= 1
        }
        try RunningAgent.waitUntilConverged(agents, [a, b], server: try server.connect())

        // Down for a while: commits on both sides wait in the outboxes while the agents retry.
        let retriedA = count(agentA, "retrying in")
        let retriedB = count(agentB, "retrying in")
        try server.run("stop")
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(
                .string("renamed while down"), forKey: "name")
        }
        try SyncFixture.write(b, person(4, "made while down"))
        // The lost connection and at least two refused attempts each.
        try RunningAgent.waitUntil(agents, "both agents retried while the server was down") {
            count(agentA, "retrying in") >= retriedA + 3 && count(agentB, "retrying in") >= retriedB + 3
        }
        #expect(try SyncAgent.status(path: a).pending == 1, "\(failure())")
        #expect(try SyncAgent.status(path: b).pending == 1, "\(failure())")
        try server.run("start")
        let db = try server.connect()
        try RunningAgent.waitUntilConverged(agents, [a, b], server: db)
        try RunningAgent.waitUntil(agents, "both agents reconnected after the start") {
            count(agentA, "sync: reconnected to") >= 2 && count(agentB, "sync: reconnected to") >= 2
        }

        let content = try SyncFixture.content(a)
        #expect(try SyncFixture.content(b) == content, "\(failure())")
        for name in ["renamed while down", "during restart", "after restart", "made while down"] {
            #expect(content.contains { $0.contains("\"name\":\"\(name)\"") }, "\(name): \(content) \(failure())")
        }
        #expect(content.count == 4, "\(content)")
        // Each of the five commits once on the server, whatever was retried.
        #expect(try SyncFixture.count(db, "Person") == 4, "\(failure())")
        #expect(try SyncFixture.count(db, "realmtui_feed") == 5, "\(failure())")
        #expect(try SyncFixture.count(db, "realmtui_batches") == 5, "\(failure())")
    }
}
