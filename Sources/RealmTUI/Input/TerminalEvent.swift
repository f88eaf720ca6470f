/// A key as the explorer sees it, independent of the terminal library.
public enum Key: Sendable, Hashable {
    /// A printable character (including CJK and a shifted letter: `"S"`).
    case character(Character)
    /// Ctrl with a letter: `.control("u")` is ctrl-u.
    case control(Character)
    case enter, escape, backspace, delete, tab, backTab
    case up, down, left, right, home, end, pageUp, pageDown
    /// A function key, F1 = 1.
    case function(Int)
}

/// A mouse event at a cell (0-based column and row).
public struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    public enum Kind: Sendable, Hashable {
        /// A button pressed or clicked (1 left, 2 middle, 3 right).
        case press(button: Int)
        case wheelUp, wheelDown
    }
    /// What the mouse did.
    public var kind: Kind
    /// The cell's column.
    public var column: Int
    /// The cell's row.
    public var row: Int

    /// A mouse event.
    public init(_ kind: Kind, column: Int, row: Int) {
        self.kind = kind
        self.column = column
        self.row = row
    }
}

/// What a terminal backend reports.
public enum TerminalEvent: Sendable, Hashable {
    case key(Key)
    case mouse(MouseEvent)
    /// The terminal's new size in cells.
    case resize(width: Int, height: Int)
}
