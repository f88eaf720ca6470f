import Foundation
import RealmEngine
@testable import RealmTUI
import TestSupport
import Testing

/// `:sync` starts and stops the sync agent inside the explorer (issue 27), and the status line
/// says how it is. The agent here is scripted: the test says what it reports (the real agent,
/// with a server, is RealmSyncTests' ExplorerSyncIntegrationTests).
@Suite struct ExplorerSyncAgentTests {
    /// An agent that records being started and stopped and reports what the test tells it to.
    final class ScriptedAgent: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var paths: [String] = []
        private var stopCount = 0
        private var reportTo: (@Sendable (ExplorerSyncReport) -> Void)?

        var started: [String] { lock.withLock { paths } }
        var stops: Int { lock.withLock { stopCount } }

        var starter: ExplorerSyncStarter {
            { [self] path, report in
                lock.withLock {
                    paths.append(path)
                    reportTo = report
                }
                return { [self] in lock.withLock { stopCount += 1 } }
            }
        }

        /// Reports as the agent's thread would.
        func report(_ report: ExplorerSyncReport) {
            let send = lock.withLock { reportTo }
            send?(report)
        }
    }

    /// The explorer (120×10) on a file set up for sync, never synced yet, in `dir`.
    func syncedDriver(in dir: TempDir) throws -> ExplorerDriver {
        let path = dir.path("synced.realm")
        _ = try ExplorerSyncedFileTests.syncedFile(path, lastSync: nil)
        return ExplorerDriver(
            state: ExplorerState(
                realm: try Realm(configuration: .file(path)), fileName: "synced.realm",
                readOnly: false, width: 120, height: 10))
    }

    /// Types `:command` and Enter.
    func command(_ driver: inout ExplorerDriver, _ text: String) {
        driver.press(.character(":"))
        driver.type(text)
        driver.press(.enter)
    }

    @Test func syncStartsAndStopsTheAgentAndTheStatusLineFollowsIt() throws {
        let dir = TempDir()
        let path = dir.path("synced.realm")
        _ = try ExplorerSyncedFileTests.syncedFile(path, lastSync: nil)
        let realm = try Realm(configuration: .file(path))
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "synced.realm", readOnly: false, width: 120, height: 10))
        let agent = ScriptedAgent()
        driver.syncStarter = agent.starter
        #expect(!driver.statusText.contains("sync agent"), "\(driver.statusText)")

        command(&driver, "sync")
        #expect(agent.started == [realm.path])
        #expect(driver.statusText.contains("sync agent: connecting"), "\(driver.statusText)")
        agent.report(.connected(server: "postgres://me@db.example/app"))
        driver.send(.tick(seconds: 1))
        #expect(driver.statusText.contains("sync agent: on"), "\(driver.statusText)")
        agent.report(.retrying("postgres://me@db.example/app: connect failed: connection refused; retrying in 0.4 s"))
        driver.send(.tick(seconds: 2))
        #expect(driver.statusText.contains("sync agent: offline, retrying"), "\(driver.statusText)")
        agent.report(.connected(server: "postgres://me@db.example/app"))
        driver.send(.tick(seconds: 3))
        #expect(driver.statusText.contains("sync agent: on"), "\(driver.statusText)")

        command(&driver, "sync")
        #expect(agent.stops == 1)
        #expect(driver.statusText.contains("sync agent: stopping"), "\(driver.statusText)")
        agent.report(.stopped)
        driver.send(.tick(seconds: 4))
        #expect(!driver.statusText.contains("sync agent:"), "\(driver.statusText)")
        #expect(driver.statusText.contains("sync agent stopped"), "\(driver.statusText)")
        // The file's own indicator stays (it never depended on the agent).
        #expect(driver.statusText.contains("⇅ 2 pending"), "\(driver.statusText)")
    }

    /// A first sync inside the explorer shows its batches on the status line (objects and bytes),
    /// then the agent is simply on again.
    @Test func aFirstSyncShowsItsProgressOnTheStatusLine() throws {
        let dir = TempDir()
        var driver = try syncedDriver(in: dir)
        let agent = ScriptedAgent()
        driver.syncStarter = agent.starter
        command(&driver, "sync")
        agent.report(.connected(server: "postgres://me@db.example/app"))
        agent.report(.transfer("downloaded 1,000 of 50,000 changes · 96.4 KiB"))
        driver.send(.tick(seconds: 1))
        #expect(
            driver.statusText.contains("sync agent: downloaded 1,000 of 50,000 changes · 96.4 KiB"),
            "\(driver.statusText)")
        agent.report(.caughtUp)
        driver.send(.tick(seconds: 2))
        #expect(driver.statusText.contains("sync agent: on"), "\(driver.statusText)")
        #expect(!driver.statusText.contains("downloaded"), "\(driver.statusText)")
    }

    @Test func anAgentThatFailsSaysWhyAndCanBeStartedAgain() throws {
        let dir = TempDir()
        var driver = try syncedDriver(in: dir)
        let agent = ScriptedAgent()
        driver.syncStarter = agent.starter
        command(&driver, "sync")
        agent.report(
            .failed("postgres://me@db.example/app: connect failed: password authentication failed for user \"me\""))
        driver.send(.tick(seconds: 1))
        #expect(driver.state.message?.isError == true)
        #expect(
            driver.statusText.contains("sync agent ended: postgres://me@db.example/app: connect failed: password"),
            "\(driver.statusText)")
        #expect(!driver.statusText.contains("sync agent:"), "\(driver.statusText)")
        command(&driver, "sync")
        #expect(agent.started.count == 2)
        #expect(agent.stops == 0)
    }

    @Test func syncOnAFileWithoutSyncSaysHowToSetItUp() throws {
        let dir = TempDir()
        let realm = try Realm(
            configuration: .file(dir.path("plain.realm"), schema: Schema([ExplorerSyncedFileTests.dog])))
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "plain.realm", readOnly: false, width: 120, height: 10))
        let agent = ScriptedAgent()
        driver.syncStarter = agent.starter
        command(&driver, "sync")
        #expect(agent.started.isEmpty)
        #expect(driver.state.message?.isError == true)
        #expect(driver.statusText.contains("realmtui sync init"), "\(driver.statusText)")
    }

    @Test func syncWithoutAnAgentToRunSaysSo() throws {
        let dir = TempDir()
        var driver = try syncedDriver(in: dir)
        command(&driver, "sync")
        #expect(driver.state.message?.isError == true)
        #expect(driver.statusText.contains(":sync"), "\(driver.statusText)")
    }
}
