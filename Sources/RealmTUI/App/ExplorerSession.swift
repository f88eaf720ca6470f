import Foundation
import RealmEngine

/// Runs the explorer on one open Realm and one terminal: draws the state, reads an event,
/// updates the state, performs the effects, until an effect says to quit.
///
/// The Realm is opened (and a bad file refused) by the caller before the terminal is taken, so
/// an error never leaves the terminal in curses mode. `run(on:)` stays on the calling thread,
/// which the Realm is confined to.
public final class ExplorerSession {
    /// The Realm until the first driver takes it: the session keeps no reference of its own,
    /// so once `:copy` moved the explorer to the copy, nothing holds the original open.
    private var realm: Realm?
    private let configuration: Realm.Configuration
    let path: String
    let readOnly: Bool
    let readOnlyReason: String?
    let copyLeavesOut: String?
    let environment: [String: String]
    /// Runs inside each write transaction before its commit (`ExplorerDriver.beforeCommit`):
    /// a Realm file open for editing is written whole there.
    public var beforeCommit: (@Sendable (Realm) throws -> Void)?
    /// Starts the sync agent for `:sync` (`ExplorerDriver.syncStarter`).
    public var syncStarter: ExplorerSyncStarter?
    /// What the status line keeps saying of the file (`ExplorerState.fileNote`).
    public var fileNote: String?
    /// The note of a Realm file open for editing: realmtui holds its lock, so a Realm app
    /// opening it waits. Short, so that at 80 columns the file's name and "writable" stay beside it.
    public static let realmFileLockNote = "locked: apps wait"
    /// The first message of a writable session (a Realm file: how its edits are written).
    public var openingMessage: String?

    /// A session over an open Realm. `path` is shown in the status line; `readOnlyReason` (why
    /// a read-only file is read-only) is its first message. `copyLeavesOut` names what a
    /// `:copy` of the file would not hold (`ExplorerState.copyLeavesOut`).
    public init(
        realm: Realm, path: String, readOnly: Bool, readOnlyReason: String? = nil, copyLeavesOut: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.realm = realm
        configuration = realm.configuration
        self.path = path
        self.readOnly = readOnly
        self.readOnlyReason = readOnlyReason
        self.copyLeavesOut = copyLeavesOut
        self.environment = environment
    }

    /// The driver a session starts with for a terminal of `width` × `height` cells. The first
    /// driver takes the session's Realm; a later one opens the file again.
    public func makeDriver(width: Int, height: Int, hasColor: Bool) throws -> ExplorerDriver {
        let realm = try self.realm ?? Realm(configuration: configuration)
        self.realm = nil
        let historyURL = QueryHistory.defaultURL(environment: environment)
        var history = QueryHistory()
        var historyProblem: String?
        do {
            history = try QueryHistory.load(from: historyURL)
        } catch {
            // Set aside, not overwritten (the user may want to look at it); a new one is started.
            let reason = ExplorerText.describe(error)
            do {
                let aside = try QueryHistory.setAside(historyURL)
                historyProblem =
                    "query history damaged, set aside as \(aside.lastPathComponent), a new one started: \(reason)"
            } catch {
                historyProblem = "query history not read: \(reason); and not set aside: \(ExplorerText.describe(error))"
            }
        }
        let state = ExplorerState(
            realm: realm, fileName: URL(fileURLWithPath: path).lastPathComponent, readOnly: readOnly,
            width: width, height: height,
            theme: Theme.forTerminal(hasColor: hasColor, environment: environment),
            history: history)
        var driver = ExplorerDriver(state: state, historyURL: historyURL)
        driver.state.copyLeavesOut = copyLeavesOut
        driver.state.fileNote = fileNote
        driver.beforeCommit = beforeCommit
        driver.syncStarter = syncStarter
        if let historyProblem, driver.state.message == nil {
            driver.state.message = .init(text: historyProblem, isError: true)
        }
        if let readOnlyReason, driver.state.message == nil {
            driver.state.message = .init(text: "read-only: \(readOnlyReason) (:copy PATH edits a copy)", isError: false)
        }
        if let openingMessage, driver.state.message == nil {
            driver.state.message = .init(text: openingMessage, isError: false)
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
        var driver = try makeDriver(width: size.width, height: size.height, hasColor: terminal.hasColor)
        let watched = WatchedFile(CommitWatcher(driver.state.realm))
        var watchedGeneration = driver.fileGeneration
        let wakeUp = WakeUp(terminal)
        // Writes run on the driver's writer thread: a key is answered after a few milliseconds
        // at most, whatever the write waits for; the thread's reports wake the event wait.
        driver.writeWaitLimit = Self.writeWaitLimit
        driver.wakeOnWrite = { wakeUp.wake() }
        let watching = Thread {
            var (watcher, generation) = watched.current
            var seen = watcher.counter
            while !wakeUp.isStopped {
                let now = watcher.wait(since: seen, timeoutMilliseconds: 500)
                if now != seen { wakeUp.wake() }
                seen = now
                if watched.generation != generation {
                    // Another file (`:copy`): the old watcher is let go before the switch is
                    // acknowledged, so the session knows the original is no longer held here.
                    (watcher, generation) = watched.current
                    seen = watcher.counter
                    watched.acknowledge(generation)
                }
            }
        }
        watching.name = "realmtui-commits"
        watching.start()
        defer {
            wakeUp.stop()
            watched.stop()
            driver.stopSync()
        }

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
            if driver.fileGeneration != watchedGeneration {
                watchedGeneration = driver.fileGeneration
                watched.switchTo(CommitWatcher(driver.state.realm))
            }
            for text in driver.copied.dropFirst(copiedCount) { terminal.copyToClipboard(text) }
            copiedCount = driver.copied.count
            if !driver.didQuit {
                frame = driver.screen
                terminal.draw(frame)
            }
        }
    }
}

/// The commit watcher of the file the explorer shows, which the watching thread takes; after
/// `:copy` the session hands it the copy's and waits until the thread let go of the original's
/// (the thread is woken from its wait on the old file's counter to take it).
private final class WatchedFile: @unchecked Sendable {
    // `watcher`, `generation`, `acknowledged` and `stopped` are guarded by `condition`.
    private let condition = NSCondition()
    private var watcher: CommitWatcher
    private var generationValue = 0
    private var acknowledged = 0
    private var stopped = false

    init(_ watcher: CommitWatcher) { self.watcher = watcher }

    /// The watcher to wait on, and its generation.
    var current: (CommitWatcher, Int) {
        condition.withLock { (watcher, generationValue) }
    }

    var generation: Int { condition.withLock { generationValue } }

    /// The thread took generation `taken` (and released the watcher before it).
    func acknowledge(_ taken: Int) {
        condition.withLock {
            acknowledged = taken
            condition.broadcast()
        }
    }

    /// Hands the thread `next` and returns once it no longer holds the previous watcher.
    func switchTo(_ next: CommitWatcher) {
        do {
            let previous = condition.withLock {
                let previous = watcher
                watcher = next
                generationValue += 1
                return previous
            }
            // Ends the thread's wait on the old file's counter at once (the counter moves; its
            // other waiters see a change with no commit: they look and find nothing new).
            previous.wakeAll()
        }
        condition.withLock {
            while acknowledged != generationValue && !stopped { condition.wait() }
        }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
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
