import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// `realmtui sync FILE` running in the foreground (issue 27): agents started with a poll of an
/// hour, so what syncs here was carried by the file's commit counter (uploads) and the server's
/// NOTIFY (downloads) alone. Every wait is for an event (a commit, the server's state, a line),
/// never a fixed sleep; every failure prints the agents' output.
@Suite(
    "realmtui sync FILE, the foreground agent (needs PGHOST: run under pg_virtualenv)",
    .enabled(if: hasServer, noServerReason), .tags(.multiProcess))
struct SyncForegroundTests {
    /// Stops the agents, the first with SIGINT (Ctrl-C) and the others with SIGTERM, and expects
    /// a clean exit (status 0) from each.
    func stopAll(_ agents: [RunningAgent]) {
        for (i, agent) in agents.enumerated() {
            let status = agent.stop(i == 0 ? SIGINT : SIGTERM)
            #expect(status == 0, "\(agent.description)")
        }
    }

    @Test func twoRunningAgentsConvergeAfterEditsOnBothSides() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let server = files.server
        let a = files.a
        let b = files.b
        let agents = [try RunningAgent(a), try RunningAgent(b)]
        defer { stopAll(agents) }
        let db = try server.connect()
        try SyncFixture.write(a) { r in
            _ = try r.create("Person", ["id": .int(1), "name": .string("Ann"), "tags": .list([.string("x")])])
            _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")])
        }
        try SyncFixture.write(b) { r in _ = try r.create("Person", ["id": .int(3), "name": .string("Cy")]) }
        try RunningAgent.waitUntilConverged(agents, [a, b], server: db)
        #expect(try SyncFixture.content(a).count == 3, "\(agents.map(\.description))")
        #expect(try SyncFixture.content(b) == SyncFixture.content(a), "\(agents.map(\.description))")
        // Then each side edits what the other made.
        try SyncFixture.write(b) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.int(40), forKey: "age")
            if let bo = try r.object(ofType: "Person", forPrimaryKey: .int(2)) { try r.delete(bo) }
        }
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(3))?.setValue(.string("Cy II"), forKey: "name")
        }
        try RunningAgent.waitUntilConverged(agents, [a, b], server: db)
        let content = try SyncFixture.content(a)
        #expect(try SyncFixture.content(b) == content, "\(agents.map(\.description))")
        #expect(content.count == 2)
        #expect(content.contains { $0.contains("\"id\":1") && $0.contains("\"age\":40") }, "\(content)")
        #expect(content.contains { $0.contains("Cy II") }, "\(content)")
        // The progress lines said what was done.
        #expect(agents[0].stdout.contains("syncing \(a) with"), "\(agents[0].description)")
        #expect(agents[0].stdout.contains("pending 0"), "\(agents[0].description)")
    }

    @Test func aChangeSyncedIntoAFileReachesWatchInAnotherProcess() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let a = files.a
        let b = files.b
        let agents = [try RunningAgent(a), try RunningAgent(b)]
        defer { stopAll(agents) }
        // `realmtui watch` on B, in a process of its own, for two change sets.
        let watch = try RunningWatch(b, ["Person", "--sort", "id", "--count-events", "2"])
        try RunningAgent.waitUntil(agents, "watch printed its initial line") {
            guard watch.isRunning || watch.lines.count >= 1 else {
                throw AgentEnded(description: "watch ended: \(watch.stderr)")
            }
            return watch.lines.count >= 1
        }
        try SyncFixture.write(a) { r in
            _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")])
            _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")])
        }
        try RunningAgent.waitUntil(agents, "watch printed the first change set") {
            guard watch.isRunning || watch.lines.count >= 2 else {
                throw AgentEnded(description: "watch ended: \(watch.stderr)")
            }
            return watch.lines.count >= 2
        }
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Ann II"), forKey: "name")
            if let bo = try r.object(ofType: "Person", forPrimaryKey: .int(2)) { try r.delete(bo) }
        }
        try RunningAgent.waitUntil(agents, "watch printed the second change set and ended") { !watch.isRunning }
        let status = watch.wait()
        #expect(status == 0, "watch: \(watch.stderr) \(agents.map(\.description))")
        let lines = watch.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(lines.count == 3, "\(watch.lines) \(agents.map(\.description))")
        #expect(lines[0]["event"] as? String == "initial")
        // The download of A's first commit is one commit in B: both objects in one change set.
        #expect(lines[1]["insertions"] as? [Int] == [0, 1], "\(watch.lines)")
        #expect(lines[1]["inserted"] as? [Int] == [1, 2], "\(watch.lines)")
        #expect(lines[1]["deletions"] as? [Int] == [], "\(watch.lines)")
        // The second: Ann renamed, Bo deleted, positions in the result before it.
        #expect(lines[2]["deletions"] as? [Int] == [1], "\(watch.lines)")
        #expect(lines[2]["deleted"] as? [Int] == [2], "\(watch.lines)")
        #expect(lines[2]["modifications"] as? [Int] == [0], "\(watch.lines)")
        #expect(lines[2]["modified"] as? [Int] == [1], "\(watch.lines)")
        #expect(lines[2]["insertions"] as? [Int] == [], "\(watch.lines)")
    }

    @Test func aChangeMadeAfterTheServerDroppedTheAgentStillSyncs() throws {
        let files = try SyncFixture.twoSyncedFiles()
        let server = files.server
        let a = files.a
        let b = files.b
        // A's connection carries a name of its own, so the test can find its backend.
        let name = "realmtui-test-\(UUID().uuidString)"
        let agentA = try RunningAgent(a, environment: ["PGAPPNAME": name])
        let agents = [agentA, try RunningAgent(b)]
        defer { stopAll(agents) }
        let db = try server.connect()
        try SyncFixture.write(a) { r in _ = try r.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        try RunningAgent.waitUntilConverged(agents, [a, b], server: db)
        // As a server restart does to a client: its backend ends under it.
        let admin = try PostgresConnection(url: "")
        // The filter in a subquery of its own: a WHERE of both conditions may call
        // pg_terminate_backend on every backend before it compares the name.
        let ended = try admin.execute(
            """
            SELECT pg_terminate_backend(pid) FROM (SELECT pid FROM pg_stat_activity WHERE application_name = $1 OFFSET 0) AS agent
            """, [name])
        #expect(ended.rows == [["t"]], "\(agentA.description)")
        try SyncFixture.write(a) { r in
            try r.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Ann after"), forKey: "name")
        }
        try SyncFixture.write(b) { r in _ = try r.create("Person", ["id": .int(2), "name": .string("Bo")]) }
        try RunningAgent.waitUntilConverged(agents, [a, b], server: db)
        let content = try SyncFixture.content(b)
        #expect(try SyncFixture.content(a) == content, "\(agents.map(\.description))")
        #expect(content.contains { $0.contains("Ann after") }, "\(content) \(agents.map(\.description))")
        #expect(content.count == 2)
        // A said so on stderr, naming the server, and reconnected.
        try RunningAgent.waitUntil(agents, "A said it reconnected") { agentA.stderr.contains("sync: reconnected to") }
        let stderr = agentA.stderr
        #expect(stderr.contains("retrying in"), "\(agentA.description)")
        #expect(stderr.contains(admin.server), "\(agentA.description)")
        if let password = ProcessInfo.processInfo.environment["PGPASSWORD"], !password.isEmpty {
            #expect(!stderr.contains(password) && !agentA.stdout.contains(password))
        }
    }

    @Test func threeClientsConvergeOnTheServersContentAfterRandomOperations() throws {
        let operations = TestSize.rounds("REALMTUI_SYNC_RANDOM_OPS", ci: 300)
        let seed = UInt64(
            ProcessInfo.processInfo.environment["REALMTUI_SYNC_SEED"].flatMap { UInt64($0) }
                ?? UInt64.random(in: 0...UInt64(UInt32.max)))
        var random = SeededGenerator(seed: seed)
        let server = try ServerNamespace()
        let dir = TempDir()
        let schema = Schema([
            ObjectSchema(
                name: "Item",
                properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true),
                    Property(name: "name", type: .string),
                    Property(name: "n", type: .int, isOptional: true),
                    Property(name: "tags", type: .string, isList: true),
                ])
        ])
        let files = (0..<3).map { dir.path("c\($0).realm") }
        for file in files { try SyncFixture.makeSynced(file, url: server.url, schema: schema) }
        let agents = try files.map { try RunningAgent($0) }
        defer { stopAll(agents) }
        // Commits of up to ten operations each, on a random client, over 40 shared keys.
        var done = 0
        while done < operations {
            let file = files[Int.random(in: 0..<files.count, using: &random)]
            let size = min(operations - done, Int.random(in: 1...10, using: &random))
            try SyncFixture.write(file) { r in
                for _ in 0..<size {
                    let key = Value.int(Int64.random(in: 0..<40, using: &random))
                    let existing = try r.object(ofType: "Item", forPrimaryKey: key)
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<4:
                        _ = try r.create(
                            "Item",
                            [
                                "id": key, "name": .string("c\(file.suffix(7).prefix(1)) \(done)"),
                                "n": Bool.random(using: &random) ? .null : .int(Int64(done)),
                                "tags": .list((0..<Int.random(in: 0...2, using: &random)).map { .string("t\($0)") }),
                            ],
                            update: .modified)
                    case 4..<7:
                        try existing?.setValue(.int(Int64.random(in: -5...5, using: &random)), forKey: "n")
                    default:
                        if let existing { try r.delete(existing) }
                    }
                }
            }
            done += size
        }
        let db = try server.connect()
        try RunningAgent.waitUntilConverged(agents, files, server: db)
        // Every file holds exactly the server's rows.
        let serverRows = try db.execute("SELECT to_jsonb(t)::text FROM \"Item\" t").rows.compactMap {
            $0.first.flatMap { $0 }
        }
        // JSON written again with sorted keys: the server's jsonb orders keys its own way.
        func objects(_ texts: [String]) -> [String] {
            texts.compactMap { text in
                (try? JSONSerialization.jsonObject(with: Data(text.utf8))).flatMap {
                    try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])
                }
                .map { String(decoding: $0, as: UTF8.self) }
            }.sorted()
        }
        let expected = objects(serverRows)
        #expect(expected.count == serverRows.count)
        for file in files {
            let content = try SyncFixture.content(file).map { String($0.dropFirst("Item ".count)) }
            #expect(
                objects(content) == expected,
                "seed \(seed): \(file) differs from the server; \(agents.map(\.description))")
        }
    }

    @Test func aFileWithoutSyncIsAnErrorNotARetry() throws {
        let dir = TempDir()
        let path = dir.path("plain.realm")
        _ = try Realm(configuration: .file(path, schema: SyncFixture.schema))
        let (status, _, err) = try BuiltExecutable.run("realmtui", ["sync", path])
        #expect(status == 1, "\(err)")
        #expect(err.contains("no sync configured"), "\(err)")
    }
}

/// `realmtui watch FILE …` running in the background, its lines collected.
final class RunningWatch: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    init(_ file: String, _ arguments: [String]) throws {
        guard let realmtui = BuiltExecutable.url("realmtui") else {
            throw AgentEnded(description: "realmtui was not built next to the tests (swift build builds it)")
        }
        process.executableURL = realmtui
        process.arguments = ["watch", file] + arguments
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        for (handle, isOut) in [(outPipe.fileHandleForReading, true), (errPipe.fileHandleForReading, false)] {
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return }
                    lock.withLock { if isOut { out.append(chunk) } else { err.append(chunk) } }
                }
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var isRunning: Bool { process.isRunning }
    /// The complete lines printed so far.
    var lines: [String] {
        let text = lock.withLock { String(decoding: out, as: UTF8.self) }
        // A line still being written (no newline yet) is left for later.
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n").map(String.init)
    }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    /// Waits for the watch to end (it ends by itself after --count-events); its status.
    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}
