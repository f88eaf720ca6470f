import Foundation
import RealmEngine
#if canImport(Glibc)
    import Glibc
#endif

/// Stops a running foreground agent (`SyncAgent.runForeground`) from another thread — a signal
/// handler's dispatch source, say — and wakes it when the file has a new commit. Both go through
/// one pipe the agent waits on beside the server's socket, so it sleeps on both at once.
public final class SyncControl: @unchecked Sendable {
    // `stopped` is guarded by `lock`; the pipe's descriptors never change.
    private let lock = NSLock()
    private var stopped = false
    private let readEnd: Int32
    private let writeEnd: Int32

    /// - Throws: `RealmError.resourceLimit` when no pipe can be made (no descriptors left).
    public init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw RealmError.resourceLimit("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Ends the agent after the batch or page it is on (what was done stays done).
    public func stop() {
        lock.withLock { stopped = true }
        wake()
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { lock.withLock { stopped } }

    /// Wakes the agent's wait (a byte in the pipe; a full pipe is already a wake-up).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe, so the next wait sleeps until the next wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    /// Waits until the pipe or `socket` (if not -1) can be read, or `milliseconds` pass.
    /// Returns whether the socket is readable (or failed: the caller reads it and learns which).
    func wait(socket: Int32, milliseconds: Int32) -> Bool {
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        if socket >= 0 { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        let n = poll(&fds, nfds_t(fds.count), milliseconds)
        return n > 0 && fds.count > 1 && fds[1].revents != 0
    }
}

extension SyncAgent {
    /// What the foreground agent reports while it runs.
    public enum Event: Sendable {
        /// Connected and listening (`again`: after a lost connection).
        case connected(server: String, again: Bool)
        /// The totals after a round that uploaded or downloaded something (and once at the start).
        case progress(Progress)
        /// A batch or page of an upload or download longer than one (a first sync).
        case transfer(Transfer)
        /// The server cannot be reached or dropped the connection; the agent retries after
        /// `retryIn` seconds. `message` names the server (never the password).
        case disconnected(message: String, retryIn: Double)
    }

    /// The foreground agent's running totals.
    public struct Progress: Equatable, Sendable {
        /// Local commits uploaded since the agent started.
        public var uploadedBatches = 0
        /// Feed entries downloaded since the agent started.
        public var downloadedChanges = 0
        /// Local commits waiting for upload now.
        public var pending = 0
        /// The last feed entry applied.
        public var cursor: Int64 = 0
    }

    /// How the foreground agent waits.
    public struct Timing: Sendable {
        /// The fallback poll of the feed when no notification came (NOTIFY is only a wake-up:
        /// a notification sent while the agent was reconnecting is lost).
        public var pollSeconds: Double = 30
        /// The first wait before reconnecting; it doubles up to `maxBackoffSeconds`.
        public var firstBackoffSeconds: Double = 0.1
        /// The longest wait between two connection attempts.
        public var maxBackoffSeconds: Double = 10
        /// Objects per upload batch and feed entries per download page (`SyncAgent.batchSize`).
        public var batchSize = 1000

        public init() {}
    }

    /// Runs the agent for the file at `path` until `control.stop()`: it uploads whenever a local
    /// commit (of any process) queued something — it sleeps on the file's commit counter — and
    /// downloads when the server NOTIFYs the feed's channel, on connecting and every
    /// `timing.pollSeconds` as a fallback. A lost or refused connection is reported through
    /// `report` and retried with a doubling backoff; nothing queued is lost meanwhile (the
    /// outbox is in the file). Returns when stopped, after the batch or page it was on.
    ///
    /// - Throws: what cannot be cured by reconnecting: no sync configured in the file, the
    ///   server refusing the client (a wrong password, no such database, no permission), the
    ///   server's tables not matching the file's classes, a damaged file.
    public static func runForeground(
        path: String, url: String? = nil, timing: Timing = Timing(), control: SyncControl,
        report: (Event) -> Void
    ) throws {
        // The file first, so a file without sync fails at once rather than being retried.
        let local = try Realm(
            configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
        guard try state(of: local) != nil else {
            throw RealmError.invalidState(
                "\(path) has no sync configured: run 'realmtui sync init \(path) postgres://…' first")
        }
        let commits = CommitWatcher(local)
        // Local commits of any process wake the agent through the control's pipe. The thread
        // ends within its wait's timeout once the agent stopped.
        Thread.detachNewThread {
            var seen = commits.counter
            while !control.isStopped {
                let now = commits.wait(since: seen, timeoutMilliseconds: 500)
                if now != seen {
                    seen = now
                    control.wake()
                }
            }
        }
        var agent: SyncAgent?
        var connectedBefore = false
        var backoff = timing.firstBackoffSeconds
        var totals = Progress()
        var needsDownload = true
        var nextPoll = Date().addingTimeInterval(timing.pollSeconds)
        while !control.isStopped {
            do {
                let current: SyncAgent
                if let agent, agent.db.isConnected {
                    current = agent
                } else {
                    if let agent { try agent.reconnect() } else { agent = try SyncAgent(path: path, url: url) }
                    guard let agent else { continue }
                    agent.shouldStop = { control.isStopped }
                    agent.batchSize = timing.batchSize
                    try agent.db.listen(agent.channel)
                    report(.connected(server: agent.db.server, again: connectedBefore))
                    // The poll on connect: what was committed while nobody listened.
                    needsDownload = true
                    if !connectedBefore {
                        totals.pending = try agent.pendingChanges()
                        totals.cursor = try agent.cursor()
                        report(.progress(totals))
                    }
                    connectedBefore = true
                    backoff = timing.firstBackoffSeconds
                    current = agent
                }
                // Notifications that came in with the replies of the last round, or now.
                if try current.db.notifications().contains(where: { $0.payload != current.client }) {
                    needsDownload = true
                }
                if try needsDownload || current.pendingChanges() > 0 {
                    needsDownload = false
                    let round = try withoutActuallyEscaping(report) { report in
                        current.onTransfer = { report(.transfer($0)) }
                        defer { current.onTransfer = nil }
                        return try current.runOnce()
                    }
                    totals.pending = try current.pendingChanges()
                    if round.uploadedBatches > 0 || round.downloadedChanges > 0 || round.cursor != totals.cursor {
                        totals.uploadedBatches += round.uploadedBatches
                        totals.downloadedChanges += round.downloadedChanges
                        totals.cursor = round.cursor
                        report(.progress(totals))
                    }
                    // Round again at once: a commit or notification may have come meanwhile.
                    continue
                }
                let untilPoll = max(0, nextPoll.timeIntervalSinceNow)
                _ = control.wait(socket: current.db.socket, milliseconds: Int32(min(untilPoll, 3600) * 1000))
                control.drain()
                if Date() >= nextPoll {
                    needsDownload = true
                    nextPoll = Date().addingTimeInterval(timing.pollSeconds)
                }
            } catch let error as RealmError where isConnectionProblem(error, agent: agent) {
                report(.disconnected(message: error.description, retryIn: backoff))
                _ = control.wait(socket: -1, milliseconds: Int32(backoff * 1000))
                control.drain()
                backoff = min(backoff * 2, timing.maxBackoffSeconds)
            }
        }
    }

    /// Runs the foreground agent (`runForeground`) on a thread of its own until the returned
    /// control's `stop()`: for the explorer's `:sync` and `Realm.Configuration.sync`. `report`
    /// gets its events and `ended` its end — nil when stopped, else the error that ended it —
    /// both on the agent's thread.
    public static func startInBackground(
        path: String, url: String? = nil, timing: Timing = Timing(),
        report: @escaping @Sendable (Event) -> Void,
        ended: @escaping @Sendable ((any Error)?) -> Void
    ) throws -> SyncControl {
        let control = try SyncControl()
        let thread = Thread {
            do {
                try runForeground(path: path, url: url, timing: timing, control: control, report: report)
                ended(nil)
            } catch {
                ended(error)
            }
        }
        thread.name = "realmtui-sync"
        thread.start()
        return control
    }

    /// Whether `error` is the server out of reach (retried) rather than something reconnecting
    /// cannot cure (thrown). Retried: a server not reached at all (no SQLSTATE), a dropped
    /// connection, the server short of resources (class 53: too many clients), shutting down or
    /// starting (class 08, 57P01-57P03), or a transaction it aborted to be retried (40001,
    /// 40P01). Thrown: the server refusing this client — a wrong or missing password (class 28),
    /// no such database (3D000), no permission (42501) — and every other error, which the same
    /// request would only meet again.
    static func isConnectionProblem(_ error: RealmError, agent: SyncAgent?) -> Bool {
        guard case .server(_, let operation, let state, _) = error else { return false }
        if operation == "connect" { return state.isEmpty || isTransient(state) }
        if operation == "authenticate" || operation == "configure" { return false }
        if agent?.db.isConnected == false { return true }
        return isTransient(state)
    }

    /// SQLSTATEs that another attempt may not meet.
    static func isTransient(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("53") || ["57P01", "57P02", "57P03", "40001", "40P01"].contains(state)
    }
}
