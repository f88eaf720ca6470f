import Foundation
import RealmEngine

/// What `update` reacts to.
public enum ExplorerEvent: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(width: Int, height: Int)
    /// A table's objects changed (a commit here or in another process): the change set of its
    /// results, from the collection notification.
    case tableChanged(TableChange)
    /// The Realm moved to a newer version (after all `tableChanged` of that move).
    case refreshed
    /// The commits of that move, for the changes pane (`c`), and when they were seen.
    case commits([CommitSummary], seenAt: Date)
    /// Time passed: `seconds` on a monotonic clock (marks fade, messages expire).
    case tick(seconds: Double)
    /// The writer thread's report on the write it runs (waiting, progress, the outcome).
    case write(WriteEvent)
    /// The sync agent `:sync` started reported (connected, retrying, ended).
    case sync(ExplorerSyncReport)
}

/// What `update` asks the session to do: work with effects outside the state (the terminal,
/// files), as data, so tests can assert them without a terminal or a disk.
public enum ExplorerEffect: Sendable, Equatable {
    /// Leave the explorer.
    case quit
    /// Put text on the clipboard (OSC 52).
    case copy(String)
    /// Run this query on the current table (the session calls `applyQuery`).
    case runQuery(String)
    /// Write the current table's objects to a file (`:export json|csv PATH`); a file already
    /// at PATH is replaced only with `overwrite` (after the user said `y`).
    case export(format: ExportFormat, path: String, overwrite: Bool = false)
    /// Write the whole Realm as a Realm file, Realm Core format 24 (`:export realm PATH`),
    /// encrypted with `key` (64 bytes: `--key HEX`, `--key-file PATH`) when given; a file
    /// already at PATH is replaced only with `overwrite`.
    case exportRealm(path: String, key: Data? = nil, overwrite: Bool = false)
    /// Write a change in one write transaction (on the driver's writer thread).
    case write(EditWrite)
    /// Cancel the write the writer thread runs (Esc while it waits or writes).
    case cancelWrite
    /// Write the staged edits of the batch in one write transaction (`:commit`, ctrl-s).
    case commitBatch
    /// `:recover [PATH]`: salvage the newest set-aside commit into a new file.
    case recoverSetAside(path: String?)
    /// `:copy PATH`: write a compacted copy and open it writable.
    case copyFile(path: String)
    /// Save the query history.
    case saveHistory
    /// Move to the newest version now (live updates resumed).
    case catchUp
    /// `:sync`: start the sync agent, or stop the one running.
    case toggleSync
}

/// A change set of one table's results, in the indices of `RealmCollectionChange.update`:
/// deletions and modifications in the old order, insertions in the new one.
public struct TableChange: Sendable, Equatable {
    /// Which table (its `TableRows`' identity; a table whose query changed meanwhile ignores it).
    public var table: ObjectIdentifier
    public var deletions: [Int]
    public var insertions: [Int]
    public var modifications: [Int]

    /// A change set for `table`.
    public init(table: ObjectIdentifier, deletions: [Int], insertions: [Int], modifications: [Int]) {
        self.table = table
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }
}

/// The formats of `:export`.
public enum ExportFormat: String, Sendable, Equatable {
    case json, csv
}

extension ExplorerEvent {
    /// The explorer's event for what the terminal reported.
    init(_ event: TerminalEvent) {
        switch event {
        case .key(let key): self = .key(key)
        case .mouse(let mouse): self = .mouse(mouse)
        case .resize(let width, let height): self = .resize(width: width, height: height)
        }
    }
}
