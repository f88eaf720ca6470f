/// The eight colours every colour terminal has, plus the terminal's own default.
public enum TerminalColor: UInt8, Sendable, Hashable {
    case black, red, green, yellow, blue, magenta, cyan, white
    /// The terminal's default foreground or background.
    case standard
}

/// How a cell is drawn: colours and attributes. A backend without colour draws only the
/// attributes, so every role of a `Theme` also differs by an attribute where it matters.
public struct CellStyle: Sendable, Hashable {
    /// The text colour.
    public var foreground: TerminalColor
    /// The background colour.
    public var background: TerminalColor
    /// Bold (or bright) text.
    public var bold: Bool
    /// Dim text.
    public var dim: Bool
    /// Foreground and background swapped.
    public var reverse: Bool
    /// Underlined text.
    public var underline: Bool

    /// A style; every part defaults to the terminal's plain text.
    public init(
        foreground: TerminalColor = .standard, background: TerminalColor = .standard,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's plain text.
    public static let plain = CellStyle()

    /// This style without its colours (for terminals without colour, and `NO_COLOR`).
    public var withoutColor: CellStyle {
        var copy = self
        copy.foreground = .standard
        copy.background = .standard
        return copy
    }
}
