import Foundation
import RealmEngine

/// What the explorer shows and where the user is: a value that `update` changes and `render`
/// draws. It holds the Realm and live `Results` (read lazily, a window at a time) but no copy of
/// any class.
public struct ExplorerState {
    /// The input bar currently taking text, or an overlay.
    enum Mode {
        case browse
        case query(QueryBar)
        case classFilter(LineEditor)
        case command(LineEditor)
        case help(top: Int)
        case schema(top: Int)
        /// The changes pane (`c`); where it is in `changesPane`.
        case changes
        /// Editing a value or confirming a write (Update+Edit.swift).
        case edit(EditFlow)
    }

    /// The query bar: text, where the last attempt failed, history position, completions.
    struct QueryBar {
        var editor: LineEditor
        var error: (message: String, column: Int)?
        /// Position in this class's history while Up/Down walk it (nil: editing new text).
        var historyIndex: Int?
        /// The text typed before walking the history, restored by Down past the newest entry.
        var draft = ""
        /// Candidates of the last Tab, shown above the bar.
        var completions: [String] = []
    }

    /// A message in the status line.
    struct Message {
        var text: String
        var isError: Bool
        /// The version a message about the data was true of (a count): it leaves the status
        /// line when another version is shown. Nil for messages about what the user did.
        var version: UInt64? = nil
    }

    let realm: Realm
    /// The file's name as shown.
    public let fileName: String
    /// Whether the file is open read-only.
    public let readOnly: Bool
    /// Terminal size in cells.
    public internal(set) var width: Int
    /// Terminal size in cells.
    public internal(set) var height: Int
    var theme: Theme
    let keyMap: KeyMap
    /// The navigation stack; the first is always the class list.
    var stack: [Screen] = [.classes(ClassesScreen())]
    var mode: Mode = .browse
    var message: Message?
    /// Set-aside commits kept beside the file (`Realm.setAsideCopies`), read when the explorer
    /// opens and after `:recover`.
    var setAsideCopies: [SetAsideCopy] = []
    /// What a copy of this file would not hold (a Realm file's properties this version cannot
    /// show yet, as one line), nil when a copy holds everything: `:copy` then asks first, as
    /// `realmtui copy` refuses without `--leave-out-unsupported`.
    public var copyLeavesOut: String?
    /// A note the status line keeps for the file (a Realm file open for editing: its lock is
    /// held, so Realm apps opening it wait).
    public var fileNote: String?
    /// The sync agent `:sync` started, as it last reported (nil: none runs).
    var syncAgent: SyncAgentStatus?
    /// Seconds on a monotonic clock, from the last tick (marks fade by it).
    var now: Double = 0
    /// The other processes that have the file open, as last counted (`countOtherProcesses`).
    var otherProcesses = 0
    /// When they were last counted (on `now`'s clock).
    var otherProcessesCountedAt: Double?
    /// `p`: live updates paused; the screen stays on the version it shows.
    var isPaused = false
    /// Every commit seen since the explorer opened, oldest first (the changes pane, `c`).
    var commitLog: [(summary: CommitSummary, seenAt: Date)] = []
    /// Commits the change log no longer held when the explorer moved past them.
    var commitsNotShown = 0
    /// The changes pane's cursor and opened commit, kept while it is closed.
    var changesPane = ChangesPane()
    var history: QueryHistory
    /// What the changes this explorer committed replaced, for `u`, and what `u` took back, for ctrl-r.
    var undoHistory = UndoHistory()
    /// The editor or form whose Enter asked for the write being handed to the writer: given
    /// back, with the reason, when the write is refused (nothing typed is lost to a failed
    /// commit). Set with the `.write` effect, taken by `beginWriting`.
    var editAwaitingWrite: ReopenableEdit?
    /// The link being picked in a pushed table (`e` on a link, `a`/`i` in a list of objects).
    var pick: LinkPick?
    /// The open batch of staged edits (`:begin`), if any.
    var batch: Batch?

    /// A new explorer on the class list.
    public init(
        realm: Realm, fileName: String, readOnly: Bool, width: Int, height: Int,
        theme: Theme = .plain, keyMap: KeyMap = .standard, history: QueryHistory = QueryHistory()
    ) {
        self.realm = realm
        self.fileName = fileName
        self.readOnly = readOnly
        self.width = width
        self.height = height
        self.theme = theme
        self.keyMap = keyMap
        self.history = history
        // A newest commit that could not be verified was set aside: never silently.
        setAsideCopies = realm.setAsideCopies
        if let warning = realm.recoveryWarning { message = Message(text: "⚠ " + warning, isError: true) }
        countOtherProcesses()
    }

    /// Counts the other processes that have the file open, at most once a second of the tick
    /// clock: the status line shows the count, and counting reads every reader slot of the lock
    /// file and asks the kernel whether each process found is alive.
    mutating func countOtherProcesses() {
        if let last = otherProcessesCountedAt, now - last < 1, now >= last { return }
        otherProcesses = realm.otherProcessIDs.count
        otherProcessesCountedAt = now
    }

    /// The screen on top of the stack.
    var current: Screen {
        get { stack[stack.count - 1] }
        set { stack[stack.count - 1] = newValue }
    }

    /// The classes the class list shows, filtered by its filter text, in schema order.
    var visibleClasses: [ObjectSchema] {
        guard case .classes(let screen) = stack[0] else { return [] }
        let all = realm.schema.objectSchemas
        guard !screen.filter.isEmpty else { return all }
        return all.filter { $0.name.localizedCaseInsensitiveContains(screen.filter) }
    }

    /// Whether the terminal is too small to draw anything but a note.
    var isTooSmall: Bool { width < 40 || height < 10 }

    /// The status message when it is too long for the status line: its rows (at most three),
    /// drawn just above the status line. Empty when it fits beside the status fields.
    var messageRows: [String] {
        guard let message, displayWidth(message.text) > width - StatusLineView.fieldsRoom else { return [] }
        return Array(DetailLayout.wrap(message.text, width: width - 1).prefix(3))
    }

    /// Rows between the title bar and the status line, less the input bar, its error line and
    /// a long message's rows.
    var contentRows: Range<Int> {
        var bottom = height - 1 - messageRows.count
        switch mode {
        case .query(let bar):
            bottom -= 1
            if let error = bar.error {
                let caret = InputBarView.caretColumn(error, bar.editor, width: width)
                bottom -= InputBarView.errorRows(message: error.message, caretColumn: caret, width: width).count
            }
            if !bar.completions.isEmpty { bottom -= 1 }
        case .classFilter, .command: bottom -= 1
        case .edit(let flow): bottom -= EditorView.rows(flow, width: width)
        default: break
        }
        return 1..<max(1, bottom)
    }
}
