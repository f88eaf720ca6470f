import Foundation
import RealmEngine

/// `c`: one line per commit since the explorer opened, newest first: version, time, and per
/// class `+inserted −deleted ~modified`.
enum ChangesView {
    static func lines(_ state: ExplorerState) -> [String] {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        var lines = state.commitLog.reversed().map { entry -> String in
            let classes = entry.summary.classes.map { "\($0.className) +\($0.inserted) −\($0.deleted) ~\($0.modified)" }
            let what = entry.summary.changedSchema ? "schema changed" : (classes.isEmpty ? "no objects changed" : classes.joined(separator: "  "))
            return "v\(entry.summary.version)  \(formatter.string(from: entry.seenAt))  \(what)"
        }
        if state.commitsNotShown > 0 {
            lines.append("(\(state.commitsNotShown) earlier commits were no longer in the file's change log)")
        }
        return lines
    }

    static func draw(_ state: ExplorerState, top: Int, into grid: inout Grid) {
        let rows = state.contentRows
        grid.write("Commits since the explorer opened, newest first (UTC) — any other key closes", column: 2, row: rows.lowerBound,
                   style: state.theme.header)
        let lines = lines(state)
        if lines.isEmpty {
            grid.write("no commits yet: changes made here or by another process show up as they land",
                       column: 2, row: rows.lowerBound + 2, style: state.theme.muted)
        }
        for (offset, row) in rows.dropFirst(2).enumerated() {
            let index = top + offset
            guard lines.indices.contains(index) else { break }
            grid.write(lines[index], column: 2, row: row)
        }
    }
}
