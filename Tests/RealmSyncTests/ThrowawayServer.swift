import Foundation
import RealmSync
import Testing

/// Whether `pg_virtualenv` (Debian's `postgresql-common`) can start a server of a test's own.
let hasPgVirtualenv = FileManager.default.isExecutableFile(atPath: ThrowawayServer.pgVirtualenv)
let noPgVirtualenvReason: Comment =
    "no \(ThrowawayServer.pgVirtualenv) (Debian's postgresql-common): cannot start a server of the test's own to restart"

/// A PostgreSQL server of one test's own, which the test may stop, start and restart for real:
/// `pg_virtualenv -t` (nested inside the suite's, on a port of its own) running a small script
/// that prints the server's `PG*` settings, then waits on its stdin for `restart`, `stop` or
/// `start`, runs `pg_ctlcluster` and answers `… done` (or `… failed`). Closing its stdin ends the
/// script, and `pg_virtualenv` drops the cluster. Every wait is for a line on its stdout, never
/// a deadline; every error carries what the server's side printed on stderr.
final class ThrowawayServer: @unchecked Sendable {
    static let pgVirtualenv = "/usr/bin/pg_virtualenv"

    private static let script = """
        env | grep -E '^PG(HOST|PORT|USER|PASSWORD|DATABASE)='
        echo ready
        while read -r command; do
            case "$command" in
                restart|stop|start)
                    if pg_ctlcluster "$PGVERSION" regress "$command" >&2; then echo "$command done"; else echo "$command failed"; fi ;;
                *) echo "$command failed" ;;
            esac
        done
        """

    /// `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD` and `PGDATABASE` of the server (for a child
    /// process's environment).
    private(set) var environment: [String: String] = [:]
    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    // Read from `output` but not yet taken as lines; only the test's thread reads it.
    private var unread = Data()
    // Guarded by `lock`; appended by the thread reading stderr.
    private let lock = NSLock()
    private var err = Data()

    /// Starts the server and waits until it accepts connections (`pg_virtualenv` starts the
    /// script once the cluster is up).
    init() throws {
        process.executableURL = URL(fileURLWithPath: ThrowawayServer.pgVirtualenv)
        process.arguments = ["-t", "--", "sh", "-c", ThrowawayServer.script]
        // None of the suite's server's settings: the nested one sets its own. A port of its own,
        // away from the 5432 onwards that other pg_virtualenvs of this machine try.
        var childEnvironment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        childEnvironment["PGPORT"] = String(try SyncAgentErrorTests.freePort())
        process.environment = childEnvironment
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        input = inPipe.fileHandleForWriting
        output = outPipe.fileHandleForReading
        try process.run()
        let errors = errPipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = errors.availableData
                if chunk.isEmpty { return }
                lock.withLock { err.append(chunk) }
            }
        }
        var settings: [String: String] = [:]
        while true {
            let line = try readLine(waitingFor: "the server to start")
            if line == "ready" { break }
            // pg_virtualenv's own lines ("Creating new PostgreSQL cluster …") have no '='.
            guard line.hasPrefix("PG"), let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.environment = settings
        guard ["PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE"].allSatisfy({ settings[$0] != nil }) else {
            throw ServerScriptFailed(description: "the server's settings are incomplete: \(settings.keys.sorted())")
        }
    }

    deinit { close() }

    /// What the server's side printed on stderr so far (pg_ctlcluster, pg_virtualenv).
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    /// A URL of the server with its password (for the test's own connections and `sync init`,
    /// which records it without the password).
    var url: String {
        let e = environment
        let password = e["PGPASSWORD"]?.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? ""
        return "postgresql://\(e["PGUSER"] ?? ""):\(password)@\(e["PGHOST"] ?? ""):\(e["PGPORT"] ?? "")/"
            + (e["PGDATABASE"] ?? "")
    }

    /// A new connection to the server.
    func connect() throws -> PostgresConnection { try PostgresConnection(url: url) }

    /// Asks the script to `restart`, `stop` or `start` the cluster (`pg_ctlcluster`).
    func send(_ command: String) throws {
        try input.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Waits for the script's answer to `command`: returns on `… done`, throws on `… failed` or
    /// when the script ended.
    func waitUntilDone(_ command: String) throws {
        while true {
            let line = try readLine(waitingFor: "\(command) to be done")
            if line == "\(command) done" { return }
            if line == "\(command) failed" {
                throw ServerScriptFailed(description: "pg_ctlcluster \(command) failed; stderr:\n\(stderr)")
            }
        }
    }

    /// `send` then `waitUntilDone`.
    func run(_ command: String) throws {
        try send(command)
        try waitUntilDone(command)
    }

    /// Ends the script (its stdin closed) and waits until `pg_virtualenv` dropped the cluster.
    func close() {
        try? input.close()
        process.waitUntilExit()
    }

    /// The next line of the script's stdout; blocks until it comes.
    private func readLine(waitingFor what: String) throws -> String {
        while true {
            if let newline = unread.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: unread[unread.startIndex..<newline], as: UTF8.self)
                unread = Data(unread[unread.index(after: newline)...])
                return line
            }
            let chunk = output.availableData
            if chunk.isEmpty {
                process.waitUntilExit()
                throw ServerScriptFailed(
                    description:
                        "pg_virtualenv ended (status \(process.terminationStatus)) while the test waited for \(what); "
                        + "stdout:\n\(String(decoding: unread, as: UTF8.self))\nstderr:\n\(stderr)")
            }
            unread.append(chunk)
        }
    }
}

/// The throwaway server's script failed or ended early.
struct ServerScriptFailed: Error, CustomStringConvertible {
    var description: String
}
