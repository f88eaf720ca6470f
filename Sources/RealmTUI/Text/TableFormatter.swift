/// Lays out rows of text cells as an aligned table that fits a terminal width, measuring every
/// cell in terminal columns (`displayWidth`), so CJK and emoji line up.
///
/// Fitting: each column wants its widest cell (header included). When the total is too wide,
/// the widest columns shrink first ("water filling": every column wider than a cap is cut to
/// the cap, the cap chosen as large as fits), never below `minimumColumnWidth` (or the column's
/// own natural width if smaller); cut cells end in `…`. If even the minimum widths do not fit,
/// columns are dropped from the right. Control characters in cells are shown as stand-ins
/// (`sanitizeForTerminal`), so a cell is always one line.
public struct TableFormatter: Sendable {
    /// Text between columns.
    public var columnSeparator: String
    /// Character repeated under the header, or nil for no rule line.
    public var headerRule: Character?
    /// The narrowest a column is shrunk to when space is short.
    public var minimumColumnWidth: Int
    /// The mark at the end of a cut cell.
    public var ellipsis: String

    /// Creates a formatter.
    public init(
        columnSeparator: String = "  ", headerRule: Character? = "-", minimumColumnWidth: Int = 3,
        ellipsis: String = "…"
    ) {
        self.columnSeparator = columnSeparator
        self.headerRule = headerRule
        self.minimumColumnWidth = max(1, minimumColumnWidth)
        self.ellipsis = ellipsis
    }

    /// Formats a table. `alignments` per column; nil right-aligns columns whose non-empty body
    /// cells are all numbers and left-aligns the rest. `maxWidth` nil means no limit. Returns the
    /// lines without newlines; no line is wider than `maxWidth` and none ends in padding.
    ///
    /// Columns in `keepWhole` (dates, say) are not cut while cutting the others to their
    /// minimum makes room for them.
    public func format(
        header: [String]?, rows: [[String]], maxWidth: Int?, alignments: [TextAlignment]? = nil,
        keepWhole: Set<Int> = []
    ) -> [String] {
        let columnCount = max(header?.count ?? 0, rows.map(\.count).max() ?? 0)
        guard columnCount > 0 else { return [] }
        func cell(_ row: [String], _ c: Int) -> String { c < row.count ? sanitizeForTerminal(row[c]) : "" }
        var natural = [Int](repeating: 0, count: columnCount)
        for row in (header.map { [$0] } ?? []) + rows {
            for c in 0..<columnCount { natural[c] = max(natural[c], displayWidth(cell(row, c))) }
        }
        let widths = columnWidths(natural: natural, maxWidth: maxWidth, keepWhole: keepWhole)
        let align = alignments ?? TableFormatter.automaticAlignments(rows: rows, columnCount: columnCount)
        let visible = (0..<columnCount).filter { widths[$0] > 0 }

        func render(_ row: [String], header isHeader: Bool) -> String {
            var parts: [String] = []
            for (k, c) in visible.enumerated() {
                let a = c < align.count ? align[c] : .left
                var text = pad(
                    cell(row, c), toWidth: widths[c], alignment: isHeader && a == .right ? .right : a,
                    ellipsis: ellipsis)
                if k == visible.count - 1 { text = trimTrailingSpaces(text) }
                parts.append(text)
            }
            return trimTrailingSpaces(parts.joined(separator: columnSeparator))
        }
        var lines: [String] = []
        if let header {
            lines.append(render(header, header: true))
            if let rule = headerRule {
                // " | " becomes "-+-" (psql's look); a separator of spaces stays spaces.
                let ruleSeparator =
                    columnSeparator.contains("|")
                    ? String(columnSeparator.map { $0 == " " ? rule : ($0 == "|" ? "+" : $0) })
                    : columnSeparator
                lines.append(
                    visible.map { String(repeating: rule, count: widths[$0]) }.joined(separator: ruleSeparator))
            }
        }
        for row in rows { lines.append(render(row, header: false)) }
        return lines
    }

    /// The width of each column (0 for a dropped column) so that the columns and separators fit
    /// `maxWidth`; see the type's comment for the rule.
    public func columnWidths(natural: [Int], maxWidth: Int?, keepWhole: Set<Int> = []) -> [Int] {
        guard let maxWidth, !natural.isEmpty else { return natural }
        let separatorWidth = displayWidth(columnSeparator)
        func total(_ ws: ArraySlice<Int>) -> Int { ws.reduce(0, +) + separatorWidth * max(0, ws.count - 1) }
        if total(natural[...]) <= maxWidth { return natural }

        var minimums = natural.map { min($0, minimumColumnWidth) }
        if !keepWhole.isEmpty {
            let whole = natural.indices.map { keepWhole.contains($0) ? natural[$0] : minimums[$0] }
            if total(whole[...]) <= maxWidth { minimums = whole }
        }
        var shown = natural.count
        while shown > 1 && total(minimums[0..<shown]) > maxWidth { shown -= 1 }
        var widths = [Int](repeating: 0, count: natural.count)
        if total(minimums[0..<shown]) > maxWidth {
            widths[0] = max(0, maxWidth)  // one column, cut to the screen
            return widths
        }
        let available = maxWidth - separatorWidth * (shown - 1)
        func used(cap: Int) -> Int {
            (0..<shown).reduce(0) { $0 + max(minimums[$1], min(natural[$1], cap)) }
        }
        // Largest cap that fits (used(cap) grows with cap; used(0) = sum of minimums fits).
        var lo = 0
        var hi = natural[0..<shown].max() ?? 0
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if used(cap: mid) <= available { lo = mid } else { hi = mid - 1 }
        }
        for c in 0..<shown { widths[c] = max(minimums[c], min(natural[c], lo)) }
        // Hand the columns left over to capped columns, left to right.
        var spare = available - widths[0..<shown].reduce(0, +)
        for c in 0..<shown where spare > 0 && widths[c] < natural[c] {
            widths[c] += 1
            spare -= 1
        }
        return widths
    }

    /// Right for columns whose non-empty cells all read as numbers, left otherwise.
    public static func automaticAlignments(rows: [[String]], columnCount: Int) -> [TextAlignment] {
        (0..<columnCount).map { c in
            var sawNumber = false
            for row in rows where c < row.count && !row[c].isEmpty {
                guard Double(row[c]) != nil else { return .left }
                sawNumber = true
            }
            return sawNumber ? .right : .left
        }
    }
}

private func trimTrailingSpaces(_ s: String) -> String {
    var end = s.endIndex
    while end > s.startIndex, s[s.index(before: end)] == " " { end = s.index(before: end) }
    return String(s[..<end])
}
