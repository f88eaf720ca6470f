import Foundation
import RealmSync

/// Sync of a Realm's file through a PostgreSQL server (realmtui's sync: an outbox in the file,
/// an ordered change feed on the server). Set `Realm.Configuration.sync` and opening the Realm
/// sets the file up (`realmtui sync init`) if it is not yet, and starts the file's agent on a
/// thread of its own: the same agent as `realmtui sync FILE`, one per file in a process.
public struct SyncConfiguration: Sendable, Equatable {
    /// The server, `postgres://user@host:port/database`. A password here is used to connect but
    /// never written into the file; `PGPASSWORD` or `~/.pgpass` keep it out of code.
    public var url: String

    /// Sync with the server at `url`.
    public init(url: String) {
        self.url = url
    }
}

/// The agent syncing one file in this process (`Realm.syncSession`), as Realm's `SyncSession`:
/// `suspend()` stops it after the batch it is on, `resume()` starts it again. What is committed
/// meanwhile waits in the file's outbox.
public final class SyncSession: @unchecked Sendable {
    /// Whether the agent runs.
    public enum State: Sendable, Equatable {
        case active
        case inactive
    }

    /// Whether the running agent is connected to the server.
    public enum ConnectionState: Sendable, Equatable {
        case disconnected
        case connecting
        case connected
    }

    /// The file the session syncs.
    public let path: String
    private let url: String
    // Guarded by `condition`; changed by the agent's thread and by suspend/resume.
    private let condition = NSCondition()
    private var stateValue = State.inactive
    private var connection = ConnectionState.disconnected
    private var error: (any Error)?
    private var control: SyncControl?

    init(path: String, url: String) {
        self.path = path
        self.url = url
    }

    /// Whether the agent runs (`.inactive` after `suspend()` or an error that ended it).
    public var state: State { condition.withLock { stateValue } }
    /// Whether the running agent is connected to its server.
    public var connectionState: ConnectionState { condition.withLock { connection } }
    /// The error that ended the agent last (a wrong password, a schema the server's tables do not
    /// match), nil while it runs or when it was suspended.
    public var lastError: (any Error)? { condition.withLock { error } }

    /// Stops the agent after the batch it is on; returns once it has stopped.
    public func suspend() {
        condition.withLock {
            control?.stop()
            while stateValue == .active { condition.wait() }
        }
    }

    /// Starts the agent again (nothing when it runs).
    public func resume() throws {
        try condition.withLock {
            guard stateValue == .inactive else { return }
            error = nil
            connection = .connecting
            control = try SyncAgent.startInBackground(
                path: path, url: url,
                report: { [weak self] event in
                    self?.note(event)
                },
                ended: { [weak self] error in
                    self?.end(error)
                })
            stateValue = .active
        }
    }

    private func note(_ event: SyncAgent.Event) {
        condition.withLock {
            switch event {
            case .connected: connection = .connected
            case .disconnected: connection = .connecting
            case .progress, .transfer: break
            }
        }
    }

    private func end(_ error: (any Error)?) {
        condition.withLock {
            self.error = error
            stateValue = .inactive
            connection = .disconnected
            control = nil
            condition.broadcast()
        }
    }
}

/// The sessions of this process, one per file.
enum SyncSessions {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var sessions: [String: SyncSession] = [:]

    /// The session of `path`, if sync was started for it in this process.
    static func session(for path: String) -> SyncSession? {
        lock.withLock { sessions[path] }
    }

    /// Sets the file up for sync with `sync.url` if it is not yet, then starts its agent unless
    /// it runs (a session suspended by the app stays suspended). Before the Realm opens:
    /// setting up adds the outbox to the file.
    static func start(_ configuration: Realm.Configuration, _ sync: SyncConfiguration) throws {
        guard let path = configuration.fileURL?.standardizedFileURL.path else {
            throw RealmError.notSyncable("an in-memory Realm cannot sync: give the configuration a fileURL")
        }
        try lock.withLock {
            if sessions[path] != nil { return }
            // The file with its classes first (created if missing), then its sync set-up.
            let isSynced = try configuration.openNew().isSyncConfigured
            if !isSynced { try SyncAgent.initialize(path: path, url: sync.url) }
            let session = SyncSession(path: path, url: sync.url)
            try session.resume()
            sessions[path] = session
        }
    }
}

extension RealmEngine.Realm {
    /// Whether the file has been set up for sync.
    var isSyncConfigured: Bool { (try? SyncIndicator.read(self)) != nil }
}

extension Realm {
    /// The sync agent of this Realm's file (nil when the configuration has no `sync`).
    public var syncSession: SyncSession? {
        guard configuration.sync != nil, let path = configuration.fileURL?.standardizedFileURL.path else { return nil }
        return SyncSessions.session(for: path)
    }
}
