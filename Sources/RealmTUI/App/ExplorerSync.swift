import Foundation
import RealmEngine

/// What the sync agent running inside the explorer (`:sync`) reports, from its own thread.
public enum ExplorerSyncReport: Equatable, Sendable {
    /// Connected (again) to the server, named without its password.
    case connected(server: String)
    /// The server is out of reach; the agent retries. `message` says why and when.
    case retrying(String)
    /// A batch of a first sync (or of a long catch-up) went up or down: its progress line
    /// (`downloaded 1,000 of 50,000 changes · 96.4 KiB`).
    case transfer(String)
    /// A round of uploads and downloads ended: the agent waits for work.
    case caughtUp
    /// The agent ended with this error (a wrong password, a file without sync…).
    case failed(String)
    /// The agent ended because `:sync` (or quitting) stopped it.
    case stopped
}

/// Starts the sync agent of the file at `path` on a thread of its own and returns what stops it
/// (after the batch it is on). The agent's reports go to `report`, from its thread. The
/// explorer has no server code: `realmtui explore` hands it one that runs the same agent as
/// `realmtui sync FILE` (RealmSync); tests hand it a scripted one.
public typealias ExplorerSyncStarter =
    @Sendable (_ path: String, _ report: @escaping @Sendable (ExplorerSyncReport) -> Void) throws
    -> @Sendable () -> Void

/// How the agent the explorer started is, for the status line.
enum SyncAgentStatus: Equatable {
    case connecting
    case on
    case retrying
    /// A first sync's batches, with the last progress line.
    case transferring(String)
    case stopping

    var text: String {
        switch self {
        case .connecting: "sync agent: connecting"
        case .on: "sync agent: on"
        case .retrying: "sync agent: offline, retrying"
        case .transferring(let progress): "sync agent: \(progress)"
        case .stopping: "sync agent: stopping"
        }
    }
}

/// The agent thread's reports until the driver takes them.
final class SyncInbox: @unchecked Sendable {
    // `reports` is guarded by `lock`.
    private let lock = NSLock()
    private var reports: [ExplorerSyncReport] = []

    func post(_ report: ExplorerSyncReport) { lock.withLock { reports.append(report) } }

    func take() -> [ExplorerSyncReport] {
        lock.withLock {
            defer { reports.removeAll() }
            return reports
        }
    }
}

extension ExplorerDriver {
    /// `:sync`: starts the agent of the file shown, or stops the one running.
    mutating func toggleSync() {
        if let stop = syncStop {
            stop()
            state.syncAgent = .stopping
            return
        }
        guard let syncStarter else {
            state.message = .init(
                text: ":sync: this explorer has no sync agent to run (realmtui explore has one)", isError: true)
            return
        }
        guard (try? SyncIndicator.read(state.realm)) != nil else {
            state.message = .init(
                text:
                    ":sync: \(state.fileName) has no sync configured: run 'realmtui sync init FILE postgres://…' first",
                isError: true)
            return
        }
        let inbox = syncInbox
        let wake = wakeOnWrite
        do {
            syncStop = try syncStarter(state.realm.path) { report in
                inbox.post(report)
                wake()
            }
            state.syncAgent = .connecting
        } catch {
            state.message = .init(text: ":sync: \(ExplorerText.describe(error))", isError: true)
        }
    }

    /// Hands the agent's reports to `update`; an agent that ended is forgotten (`:sync` starts
    /// a new one).
    mutating func deliverSyncReports() {
        for report in syncInbox.take() {
            switch report {
            case .failed, .stopped: syncStop = nil
            case .connected, .retrying, .transfer, .caughtUp: break
            }
            perform(update(&state, .sync(report)))
        }
    }

    /// Stops the agent, if one runs (the session ends): it ends after the batch it is on.
    public mutating func stopSync() {
        syncStop?()
        syncStop = nil
    }
}

extension ExplorerState {
    mutating func handleSyncReport(_ report: ExplorerSyncReport) {
        switch report {
        case .connected:
            if syncAgent != .stopping { syncAgent = .on }
        case .retrying:
            if syncAgent != .stopping { syncAgent = .retrying }
        case .transfer(let progress):
            if syncAgent != .stopping { syncAgent = .transferring(progress) }
        case .caughtUp:
            if case .transferring = syncAgent { syncAgent = .on }
        case .failed(let reason):
            syncAgent = nil
            message = Message(text: "sync agent ended: \(reason)", isError: true)
        case .stopped:
            syncAgent = nil
            message = Message(text: "sync agent stopped", isError: false)
        }
    }
}
