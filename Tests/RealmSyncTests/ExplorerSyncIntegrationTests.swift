import Foundation
import RealmEngine
@testable import RealmSync
@testable import RealmTUI
@testable import realmtui
import TestSupport
import Testing

/// `:sync` in the explorer with a real server (issue 27): the explorer starts the same agent as
/// `realmtui sync FILE` (`ExplorerSyncAgent.starter`), which uploads the file's commits and
/// downloads another client's, until `:sync` stops it.
@Suite(
    "the explorer's :sync with a server (needs PGHOST: run under pg_virtualenv)",
    .enabled(if: hasServer, noServerReason))
struct ExplorerSyncIntegrationTests {
    /// Delivers the agent's reports to the driver until `condition` holds. No deadline: the wait
    /// ends when it holds, or throws when the agent of `other` ended.
    func pump(
        _ driver: inout ExplorerDriver, _ other: RunningAgent, _ what: String, until condition: (ExplorerDriver) -> Bool
    ) throws {
        var tick = 0.0
        while true {
            tick += 1
            driver.send(.tick(seconds: tick))
            if condition(driver) { return }
            if !other.isRunning {
                throw AgentEnded(
                    description: "while waiting until \(what), the \(other.description); explorer: \(driver.statusText)"
                )
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func command(_ driver: inout ExplorerDriver, _ text: String) {
        driver.press(.character(":"))
        driver.type(text)
        driver.press(.enter)
    }

    @Test func syncInTheExplorerUploadsAndDownloadsUntilStopped() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let agentB = try RunningAgent(files.b)
        defer { _ = agentB.stop() }
        let db = try files.server.connect()
        let realm = try Realm(configuration: .file(files.a))
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "a.realm", readOnly: false, width: 140, height: 10))
        driver.syncStarter = ExplorerSyncAgent.starter
        defer { driver.stopSync() }
        command(&driver, "sync")
        try pump(&driver, agentB, "the explorer's agent connected") { $0.statusText.contains("sync agent: on") }

        // A commit to A (another connection to the file, as the explorer's own writes are) goes
        // up through the explorer's agent and reaches B.
        try SyncFixture.write(files.a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try RunningAgent.waitUntilConverged([agentB], [files.a, files.b], server: db)
        #expect(try SyncFixture.content(files.b).count == 1, "\(agentB.description)")
        // And B's commit comes down into A, where the explorer's status line counts it.
        try SyncFixture.write(files.b) { r in _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")]) }
        try RunningAgent.waitUntilConverged([agentB], [files.a, files.b], server: db)
        #expect(try SyncFixture.content(files.a) == SyncFixture.content(files.b), "\(agentB.description)")
        driver.refresh()
        #expect(try driver.state.realm.objects("Person").checkedCount() == 2, "\(driver.statusText)")

        command(&driver, "sync")
        try pump(&driver, agentB, "the explorer's agent stopped") { $0.statusText.contains("sync agent stopped") }
        // Stopped: a new commit stays pending.
        try SyncFixture.write(files.a) { r in _ = try r.create("Person", ["id": .int(3), "name": .string("Cy")]) }
        driver.refresh()
        #expect(driver.statusText.contains("⇅ 1 pending"), "\(driver.statusText)")
        #expect(!driver.statusText.contains("sync agent:"), "\(driver.statusText)")
    }
}
