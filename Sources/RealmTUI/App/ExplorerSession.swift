import Foundation
import RealmEngine

/// Runs the explorer on one open Realm and one terminal: draws the state, reads an event,
/// updates the state, performs the effects, until an effect says to quit.
///
/// The Realm is opened (and a bad file refused) by the caller before the terminal is taken, so
/// an error never leaves the terminal in curses mode. `run(on:)` stays on the calling thread,
/// which the Realm is confined to.
public final class ExplorerSession {
    let realm: Realm
    let path: String
    let readOnly: Bool
    let readOnlyReason: String?
    let environment: [String: String]

    /// A session over an open Realm. `path` is shown in the status line; `readOnlyReason` (why
    /// a read-only file is read-only) is its first message.
    public init(realm: Realm, path: String, readOnly: Bool, readOnlyReason: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.realm = realm
        self.path = path
        self.readOnly = readOnly
        self.readOnlyReason = readOnlyReason
        self.environment = environment
    }

    /// The driver a session starts with for a terminal of `width` × `height` cells.
    public func makeDriver(width: Int, height: Int, hasColor: Bool) -> ExplorerDriver {
        let savedHistory = QueryHistory.defaultURL(environment: environment)
        var historyURL: URL? = savedHistory
        var history = QueryHistory()
        var historyProblem: String?
        do {
            history = try QueryHistory.load(from: savedHistory)
        } catch {
            // Not replaced by this session's queries: the file stays for the user to look at.
            historyProblem = "query history not read, and not saved this session: \(ExplorerText.describe(error))"
            historyURL = nil
        }
        let state = ExplorerState(realm: realm, fileName: URL(fileURLWithPath: path).lastPathComponent, readOnly: readOnly,
                                  width: width, height: height,
                                  theme: Theme.forTerminal(hasColor: hasColor, environment: environment),
                                  history: history)
        var driver = ExplorerDriver(state: state, historyURL: historyURL)
        if let historyProblem, driver.state.message == nil {
            driver.state.message = .init(text: historyProblem, isError: true)
        }
        if let readOnlyReason, driver.state.message == nil {
            driver.state.message = .init(text: "read-only: \(readOnlyReason) (:copy PATH edits a copy)", isError: false)
        }
        return driver
    }

    /// Frames a second at most while commits flood in (key presses are answered at once).
    static let framesPerSecond = 30.0

    /// How long a key that starts a write waits for the writer thread before the frame is drawn
    /// (a short write then shows its outcome at once, a long one "writing…" and its progress).
    static let writeWaitLimit: Duration = .milliseconds(30)

    /// Runs until the user quits. Throws only for a failure the explorer cannot show on screen.
    ///
    /// Live updates: a thread sleeps on the file's commit counter (`CommitWatcher`, a futex: no
    /// polling) and wakes the terminal's event wait; this thread then refreshes the Realm, which
    /// delivers each table's change set. Refreshes are coalesced to `framesPerSecond`. Writes
    /// run on the driver's writer thread, which wakes the same wait with its reports.
    public func run(on terminal: TerminalBackend) throws {
        let size = terminal.size
        var driver = makeDriver(width: size.width, height: size.height, hasColor: terminal.hasColor)
        let watcher = CommitWatcher(realm)
        let wakeUp = WakeUp(terminal)
        // Writes run on the driver's writer thread: a key is answered after a few milliseconds
        // at most, whatever the write waits for; the thread's reports wake the event wait.
        driver.writeWaitLimit = Self.writeWaitLimit
        driver.wakeOnWrite = { wakeUp.wake() }
        let watching = Thread {
            var seen = watcher.counter
            while !wakeUp.isStopped {
                let now = watcher.wait(since: seen, timeoutMilliseconds: 500)
                if now != seen { wakeUp.wake() }
                seen = now
            }
        }
        watching.name = "realmtui-commits"
        watching.start()
        defer { wakeUp.stop() }

        let clock = ContinuousClock()
        let start = clock.now
        func seconds() -> Double {
            let elapsed = start.duration(to: clock.now)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        var copiedCount = 0
        var lastRefresh = -1.0
        // Long reads a key causes show a progress line and can be cancelled (Esc, ctrl-c).
        let progress = ProgressLine(terminal: terminal, style: driver.state.theme.status)
        driver.send(.tick(seconds: seconds()))
        var frame = driver.screen
        terminal.draw(frame)
        // The event, then the keys typed during its work, in order (each may start work of its own).
        func send(_ event: TerminalEvent) {
            var queue = [event]
            progress.frame = frame
            while !queue.isEmpty {
                driver.send(ExplorerEvent(queue.removeFirst()), monitor: progress.monitor())
                queue += progress.takePending()
                if !queue.isEmpty { progress.frame = driver.screen }
            }
        }
        while !driver.didQuit {
            let behind = driver.isBehind && !driver.state.isPaused
            let untilRefresh = max(0, lastRefresh + 1 / Self.framesPerSecond - seconds())
            var timeout = behind ? Int(untilRefresh * 1000) : 1000
            // A running write's progress is drawn ten times a second.
            if driver.isWriting { timeout = min(timeout, 100) }
            if let event = terminal.nextEvent(timeoutMilliseconds: timeout) { send(event) }
            let now = seconds()
            if driver.isBehind && now - lastRefresh >= 1 / Self.framesPerSecond {
                driver.refresh()
                lastRefresh = now
            }
            driver.send(.tick(seconds: now))
            for text in driver.copied.dropFirst(copiedCount) { terminal.copyToClipboard(text) }
            copiedCount = driver.copied.count
            if !driver.didQuit {
                frame = driver.screen
                terminal.draw(frame)
            }
        }
    }
}

/// Lets the commit-watching thread wake the terminal's event wait, and the session stop it.
private final class WakeUp: @unchecked Sendable {
    // The terminal's `wake()` is safe from any thread (a write to its self-pipe); `stopped` is
    // guarded by `lock`.
    private let terminal: TerminalBackend
    private let lock = NSLock()
    private var stopped = false

    init(_ terminal: TerminalBackend) { self.terminal = terminal }

    var isStopped: Bool { lock.withLock { stopped } }

    func wake() {
        // Under the lock, so no wake reaches a terminal the session has closed.
        lock.withLock { if !stopped { terminal.wake() } }
    }

    func stop() { lock.withLock { stopped = true } }
}
