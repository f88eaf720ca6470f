import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// A `realmtui sync FILE` agent running in the background while a test edits files, its output
/// collected as it comes. Stopped (SIGTERM) when the test is done with it, or at the latest when
/// it is released.
final class RunningAgent: @unchecked Sendable {
    let file: String
    private let process = Process()
    // Guarded by `lock`; appended by the two reading threads.
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    /// Starts `realmtui sync FILE` with `arguments` added and `environment` over the test's own.
    init(_ file: String, _ arguments: [String] = ["--poll", "3600"], environment: [String: String] = [:]) throws {
        guard let realmtui = BuiltExecutable.url("realmtui") else {
            throw AgentEnded(description: "realmtui was not built next to the tests (swift build builds it)")
        }
        self.file = file
        process.executableURL = realmtui
        process.arguments = ["sync", file] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        collect(outPipe.fileHandleForReading) { [self] data in lock.withLock { out.append(data) } }
        collect(errPipe.fileHandleForReading) { [self] data in lock.withLock { err.append(data) } }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    private func collect(_ handle: FileHandle, _ append: @escaping @Sendable (Data) -> Void) {
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                append(chunk)
            }
        }
    }

    /// What the agent printed on stdout so far.
    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    /// What the agent printed on stderr so far: part of every failure message.
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
    /// Whether the agent still runs.
    var isRunning: Bool { process.isRunning }
    /// The agent and everything it printed, for failure messages.
    var description: String {
        "agent for \((file as NSString).lastPathComponent): stdout:\n\(stdout)\nstderr:\n\(stderr)"
    }

    /// Waits until the agent ends by itself and returns its exit status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Stops the agent as Ctrl-C would (SIGINT, or SIGTERM) and returns its exit status.
    func stop(_ sig: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, sig) }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// An agent ended while a test waited for it.
struct AgentEnded: Error, CustomStringConvertible {
    var description: String
}

extension RunningAgent {
    /// Waits until `condition` holds, checking again after every commit to `file` (and every
    /// 50 ms, for what is not a commit: output, the server's state). There is no deadline: the
    /// wait ends when the condition holds or one of `agents` exited, which throws with its
    /// output (a hung agent is the test runner's timeout to catch).
    static func waitUntil(
        _ agents: [RunningAgent], watching file: String? = nil, _ what: String,
        _ condition: () throws -> Bool
    ) throws {
        let watcher = try file.map { CommitWatcher(try Realm(configuration: .file($0))) }
        while true {
            let seen = watcher?.counter ?? 0
            if try condition() { return }
            if let ended = agents.first(where: { !$0.isRunning }) {
                throw AgentEnded(description: "while waiting until \(what), the \(ended.description)")
            }
            if let watcher {
                _ = watcher.wait(since: seen, timeoutMilliseconds: 50)
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// Whether every file in `files` has uploaded everything and applied the server's whole feed.
    static func converged(_ files: [String], server db: PostgresConnection) throws -> Bool {
        let last = try db.execute("SELECT last FROM realmtui_counter WHERE id = 1").rows.first?.first.flatMap { $0 }
            .flatMap { Int64($0) }
        for file in files {
            let status = try SyncAgent.status(path: file)
            guard status.pending == 0, status.cursor == last else { return false }
        }
        return true
    }

    /// Waits until every file in `files` caught up with the server (and so with each other).
    static func waitUntilConverged(_ agents: [RunningAgent], _ files: [String], server db: PostgresConnection) throws {
        try waitUntil(agents, "\(files.count) files converged") { try converged(files, server: db) }
    }
}
