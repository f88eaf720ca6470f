/// Which cells of a new frame must be sent to the terminal, given the frame drawn before.
///
/// A cell is sent when it differs from the previous frame, and also when the cell to its right
/// used to be the second half of a wide character that changes: a terminal blanks the left half
/// of a wide character whose right half is overwritten, so the left cell must be drawn again.
/// A continuation cell (`text == ""`) is never sent: its wide character covers it.
enum GridDiff {
    /// The positions to draw, row by row, left to right, inside `width` × `height` (the part of
    /// `next` the terminal shows). Every visible cell when there is no previous frame or its
    /// size differs.
    static func changes(from previous: Grid?, to next: Grid, width: Int, height: Int) -> [(column: Int, row: Int)] {
        let columns = min(width, next.width)
        let rows = min(height, next.height)
        guard columns > 0, rows > 0 else { return [] }
        var positions: [(column: Int, row: Int)] = []
        let full = previous.map { $0.width != next.width || $0.height != next.height } ?? true
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = next[column, row]
                if cell.isContinuation { continue }
                if full {
                    positions.append((column, row))
                    continue
                }
                guard let previous else { continue }
                let old = previous[column, row]
                var changed = old != cell
                if !changed, column + 1 < columns {
                    let right = previous[column + 1, row]
                    changed = right.isContinuation && right != next[column + 1, row]
                }
                if changed { positions.append((column, row)) }
            }
        }
        return positions
    }
}
