import Foundation

/// The explorer's styles by role. `Theme.colored` for colour terminals; `Theme.plain` keeps only
/// attributes (bold, reverse, underline, dim), for terminals without colour and for `NO_COLOR`.
public struct Theme: Sendable {
    /// The title bar with the breadcrumb.
    public var title: CellStyle
    /// Column headers and property names.
    public var header: CellStyle
    /// The row or line under the cursor.
    public var selection: CellStyle
    /// The cell under the cursor inside the selected row.
    public var selectedCell: CellStyle
    /// A null value (never confused with an empty string).
    public var null: CellStyle
    /// Links, lists and backlinks: things Enter opens.
    public var link: CellStyle
    /// Secondary text: types, counts, hints.
    public var muted: CellStyle
    /// The status line.
    public var status: CellStyle
    /// Errors and warnings.
    public var error: CellStyle
    /// The input bar (query, filter, command line).
    public var input: CellStyle
    /// A row a live update inserted (`+` in the gutter).
    public var inserted: CellStyle
    /// A row a live update modified (`~` in the gutter).
    public var modified: CellStyle

    /// The colour theme.
    public static let colored = Theme(
        title: CellStyle(foreground: .black, background: .cyan, bold: true),
        header: CellStyle(foreground: .yellow, bold: true, underline: true),
        selection: CellStyle(reverse: true),
        selectedCell: CellStyle(foreground: .black, background: .yellow, bold: true),
        null: CellStyle(foreground: .magenta, dim: true),
        link: CellStyle(foreground: .cyan),
        muted: CellStyle(foreground: .blue),
        status: CellStyle(foreground: .black, background: .white),
        error: CellStyle(foreground: .red, bold: true),
        input: CellStyle(bold: true),
        inserted: CellStyle(foreground: .green, bold: true),
        modified: CellStyle(foreground: .yellow, bold: true)
    )

    /// Attributes only.
    public static let plain = Theme(
        title: CellStyle(bold: true, reverse: true),
        header: CellStyle(bold: true, underline: true),
        selection: CellStyle(reverse: true),
        selectedCell: CellStyle(bold: true, reverse: true, underline: true),
        null: CellStyle(dim: true),
        link: CellStyle(underline: true),
        muted: CellStyle(dim: true),
        status: CellStyle(reverse: true),
        error: CellStyle(bold: true),
        input: CellStyle(bold: true),
        inserted: CellStyle(bold: true),
        // Bold as well: underline alone is a link's style, and a changed cell is not one.
        modified: CellStyle(bold: true, underline: true)
    )

    /// The theme for a terminal: plain when it has no colour or `NO_COLOR` is set (any value).
    public static func forTerminal(hasColor: Bool, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Theme
    {
        hasColor && environment["NO_COLOR"] == nil ? .colored : .plain
    }
}
