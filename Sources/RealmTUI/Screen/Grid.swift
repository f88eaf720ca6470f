/// One terminal cell: the grapheme cluster drawn there and its style.
///
/// A character two columns wide fills its cell and makes the next one a continuation
/// (`text == ""`), which a backend skips, as ratatui's buffer does.
public struct Cell: Sendable, Hashable {
    /// The cluster's bytes, kept inline (see `Glyph`).
    var glyph: Glyph
    /// How it is drawn.
    public var style: CellStyle

    /// A cell showing `text` in `style`.
    public init(_ text: String = " ", style: CellStyle = .plain) {
        glyph = Glyph(text)
        self.style = style
    }

    /// A cell showing `glyph` in `style`.
    init(_ glyph: Glyph, style: CellStyle) {
        self.glyph = glyph
        self.style = style
    }

    /// A blank cell in `style`.
    static func blank(_ style: CellStyle = .plain) -> Cell { Cell(.blank, style: style) }

    /// The grapheme cluster shown (already sanitized), " " for blank, "" for the second half of
    /// a wide character. A cluster of more than 23 bytes of UTF-8 keeps its first scalars that
    /// fit, which hold all a terminal cell shows (see `Glyph`).
    public var text: String {
        get { glyph.text }
        set { glyph = Glyph(newValue) }
    }

    /// Whether this cell is the right half of a wide character.
    public var isContinuation: Bool { glyph.isEmpty }
}

/// A rectangle of cells: what the explorer's view produces and a backend draws.
///
/// Pure data, so a screen can be compared with a golden text file, diffed against the previous
/// frame, or drawn by any backend.
public struct Grid: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Row-major cells, `width * height` of them.
    public private(set) var cells: [Cell]

    /// A blank grid of the given size (negative sizes count as 0).
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank(), count: self.width * self.height)
    }

    /// The cell at a column and row (a blank cell outside the grid).
    public subscript(column: Int, row: Int) -> Cell {
        get {
            guard contains(column: column, row: row) else { return .blank() }
            return cells[row * width + column]
        }
        set {
            guard contains(column: column, row: row) else { return }
            cells[row * width + column] = newValue
        }
    }

    /// Whether a position lies inside the grid.
    public func contains(column: Int, row: Int) -> Bool {
        column >= 0 && column < width && row >= 0 && row < height
    }

    /// Writes `text` (sanitized: controls never reach a terminal) from `column` on `row`, in at
    /// most `limit` columns (to the right edge when nil), without cutting a wide character in
    /// half: one that would straddle the limit leaves a blank instead. Returns the columns used.
    @discardableResult
    public mutating func write(_ text: String, column: Int, row: Int, style: CellStyle = .plain, limit: Int? = nil)
        -> Int
    {
        guard row >= 0, row < height, column < width else { return 0 }
        let end = min(width, limit.map { column + max(0, $0) } ?? width)
        if let used = writePrintableASCII(text, column: column, row: row, style: style, end: end) { return used }
        let clean = sanitizeForTerminal(text)
        var x = column
        if isStandaloneText(clean) {
            // A cell per scalar, with no cluster breaking.
            for scalar in clean.unicodeScalars {
                guard put(Glyph(scalar), columns: scalarWidth(scalar), at: &x, row: row, style: style, end: end) else {
                    break
                }
            }
        } else {
            for character in clean {
                guard
                    put(
                        Glyph(String(character)), columns: displayWidth(of: character), at: &x, row: row, style: style,
                        end: end)
                else { break }
            }
        }
        return x - column
    }

    /// Writes one cluster of `columns` columns at `x` (zero-width ones are skipped) and moves `x`
    /// past it; false, leaving a blank, when it would cross `end`.
    private mutating func put(_ glyph: Glyph, columns: Int, at x: inout Int, row: Int, style: CellStyle, end: Int)
        -> Bool
    {
        if columns == 0 { return true }
        if x + columns > end {
            if x < end {
                self[x, row] = .blank(style)
                x += 1
            }
            return false
        }
        if x >= 0 {
            self[x, row] = Cell(glyph, style: style)
            if columns == 2 { self[x + 1, row] = Cell(.continuation, style: style) }
        }
        x += columns
        return true
    }

    /// `write` for text made only of printable ASCII (most of it), one cell per byte with no
    /// cluster or width to work out; nil, writing nothing, for any other text.
    private mutating func writePrintableASCII(_ text: String, column: Int, row: Int, style: CellStyle, end: Int) -> Int?
    {
        let written = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let stop = min(end, column + bytes.count)
            var x = max(column, 0)
            while x < stop {
                cells[row * width + x] = Cell(Glyph(ascii: bytes[x - column]), style: style)
                x += 1
            }
            return max(column, stop) - column
        }
        return written ?? nil
    }

    /// Writes what `pad(text, toWidth: width, alignment: alignment)` would give, from `column`
    /// on `row` (cut with an ellipsis, aligned, blanks around), without building that text.
    public mutating func write(
        _ text: String, column: Int, row: Int, style: CellStyle = .plain, width: Int,
        alignment: TextAlignment = .left
    ) {
        guard width > 0 else { return }
        let (shown, used) = cut(text, toWidth: width, ellipsis: "…")
        let gap = width - used
        let left =
            switch alignment {
            case .left: 0
            case .right: gap
            case .center: gap / 2
            }
        fill(row: row, column: column, count: width, style: style)
        write(shown, column: column + left, row: row, style: style, limit: used)
    }

    /// Fills `count` cells of `row` from `column` with blanks in `style`.
    public mutating func fill(row: Int, column: Int = 0, count: Int? = nil, style: CellStyle) {
        let end = min(width, column + (count ?? width))
        for x in max(0, column)..<max(max(0, column), end) { self[x, row] = .blank(style) }
    }

    /// Applies `change` to the style of every cell of `row` from `column` for `count` cells.
    public mutating func restyle(row: Int, column: Int = 0, count: Int? = nil, _ change: (inout CellStyle) -> Void) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (count ?? width))
        for x in max(0, column)..<max(max(0, column), end) { change(&cells[row * width + x].style) }
    }

    /// The rows as plain text, trailing blanks trimmed (golden screens, tests, `capture-pane`).
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for x in 0..<width {
                let cell = cells[row * width + x]
                if !cell.isContinuation { line += cell.text }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
