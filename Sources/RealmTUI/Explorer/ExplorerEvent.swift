/// What `update` reacts to.
public enum ExplorerEvent: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(width: Int, height: Int)
    /// The data under a screen changed (a commit here or in another process).
    case changes
    /// Time passed (messages expire, marks fade).
    case tick
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
    /// Write the current table's objects to a file (`:export json|csv PATH`).
    case export(format: ExportFormat, path: String)
    /// Write a change in one write transaction (the driver calls `commit`).
    case write(EditWrite)
    /// Write the staged edits of the batch in one write transaction (`:commit`, ctrl-s).
    case commitBatch
    /// `:copy PATH`: write a compacted copy and open it writable.
    case copyFile(path: String)
    /// Save the query history.
    case saveHistory
}

/// The formats of `:export`.
public enum ExportFormat: String, Sendable, Equatable {
    case json, csv
}
