import Foundation
import RealmEngine

/// The explorer without a terminal: the state, `update`, and the effects performed (queries run,
/// files written, clipboard texts kept). The session drives one with a terminal's events; tests
/// and the headless benchmark drive one with scripted events and look at `render(state)`.
public struct ExplorerDriver {
    /// The explorer's state.
    public var state: ExplorerState
    /// Where the query history is saved (nil: not saved).
    public var historyURL: URL?
    /// Texts the explorer asked to copy, oldest first.
    public private(set) var copied: [String] = []
    /// How many times the explorer moved to another file (`:copy`): the session watches the
    /// commits of the file the state shows, and follows when this changes.
    public internal(set) var fileGeneration = 0
    /// Whether an effect asked to quit.
    public private(set) var didQuit = false
    /// The collection notifications of the tables on the stack, by their rows' identity.
    var observers: [ObjectIdentifier: NotificationToken] = [:]
    let inbox = LiveInbox()
    /// The thread that runs writes (started by the first write).
    var writer: EditWriter?
    /// How long a write effect waits for the writer before the driver returns (nil: until the
    /// write ends or waits for another writer's lock, so tests see its outcome at once). The
    /// session waits a few milliseconds only: a long write then reports progress while keys
    /// are answered.
    public var writeWaitLimit: Duration?
    /// Called on the writer thread when it has a report (the session wakes its event wait).
    var wakeOnWrite: @Sendable () -> Void = {}
    /// Runs on the writer thread inside each write transaction, before its commit, with the
    /// writer's Realm: a Realm file (Realm Core's format) open for editing is written whole
    /// here, and what it throws cancels the transaction (nothing written, the reason shown).
    /// Dropped when `:copy` moves the explorer to a realmtui copy.
    public var beforeCommit: (@Sendable (Realm) throws -> Void)?
    /// Starts the sync agent for `:sync` (nil: `:sync` says there is none to run).
    public var syncStarter: ExplorerSyncStarter?
    /// Stops the agent `:sync` started; nil when none runs.
    var syncStop: (@Sendable () -> Void)?
    /// The running agent's reports, until `deliverSyncReports` takes them.
    let syncInbox = SyncInbox()

    /// A driver over `state`, saving history to `historyURL`.
    public init(state: ExplorerState, historyURL: URL? = nil) {
        self.state = state
        self.historyURL = historyURL
        observeTables()
    }

    /// Updates the state with `event` and performs the effects (and those they lead to).
    public mutating func send(_ event: ExplorerEvent) {
        complete(update(&state, event))
    }

    /// Performs an update's effects, delivers the writer's reports, observes the tables shown.
    mutating func complete(_ effects: [ExplorerEffect]) {
        perform(effects)
        deliverWriteReports()
        deliverSyncReports()
        observeTables()
    }

    /// Sends each key in turn.
    public mutating func press(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    /// Types `text` one character at a time.
    public mutating func type(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    /// The current screen.
    public var screen: Grid { render(state) }

    /// What the bottom of the screen says: a long message's rows (wrapped above the status
    /// line) and the status line, joined by spaces.
    public var statusText: String {
        screen.lines.suffix(state.messageRows.count + 1).joined(separator: " ")
    }

    mutating func perform(_ effects: [ExplorerEffect]) {
        for effect in effects {
            switch effect {
            case .quit: didQuit = true
            case .copy(let text): copied.append(text)
            case .runQuery(let text): perform(state.keepingCursorInView { $0.applyQuery(text) })
            case .saveHistory:
                guard let historyURL else { continue }
                do {
                    try state.history.save(to: historyURL)
                } catch {
                    state.message = .init(
                        text: "query history not saved: \(ExplorerText.describe(error))", isError: true)
                }
            case .catchUp: refresh()
            case .toggleSync: toggleSync()
            case .write(let write): startWrite(write)
            case .cancelWrite: cancelWrite()
            case .copyFile(let path): copyAndReopen(path: path)
            case .commitBatch: startBatchCommit()
            case .export(let format, let path, let overwrite):
                state.exportCurrentTable(format: format, path: path, overwrite: overwrite)
            case .exportRealm(let path, let key, let overwrite):
                state.exportRealmFile(path: path, key: key, overwrite: overwrite)
            case .recoverSetAside(let path):
                state.recoverSetAside(to: path)
            }
        }
    }
}
