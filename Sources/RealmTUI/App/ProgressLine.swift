import Foundation
import RealmEngine

/// The explorer's side of a long read (`ProgressMonitor`): after a short while it draws a
/// progress line over the bottom row of the last frame ("working… 42% · Esc cancels"), ten times
/// a second at most, and reads the terminal for Esc or ctrl-c, which cancel. Other keys typed
/// meanwhile are kept and sent once the work is done.
final class ProgressLine {
    private let terminal: TerminalBackend
    private let style: CellStyle
    /// The frame the line is drawn over (the last one drawn before the work began).
    var frame: Grid?
    /// Events that arrived during the work, to be sent after it.
    private(set) var pending: [TerminalEvent] = []
    private var started: ContinuousClock.Instant?
    private var lastDrawn: ContinuousClock.Instant?
    private let clock = ContinuousClock()
    /// No line for work shorter than this: most keys never show one.
    static let delay: Duration = .milliseconds(150)
    static let interval: Duration = .milliseconds(100)

    init(terminal: TerminalBackend, style: CellStyle) {
        self.terminal = terminal
        self.style = style
    }

    /// A monitor for the work caused by one event.
    func monitor() -> ProgressMonitor {
        started = clock.now
        lastDrawn = nil
        return ProgressMonitor { [self] done, total in report(done: done, total: total) }
    }

    /// Takes the events kept during the work.
    func takePending() -> [TerminalEvent] {
        defer { pending = [] }
        return pending
    }

    private func report(done: Int, total: Int) -> Bool {
        let now = clock.now
        guard let started, now - started >= Self.delay else { return true }
        while let event = terminal.nextEvent(timeoutMilliseconds: 0) {
            switch event {
            case .key(.escape), .key(.control("c")): return false
            default: pending.append(event)
            }
        }
        if lastDrawn.map({ now - $0 >= Self.interval }) ?? true, var grid = frame, grid.height > 0 {
            lastDrawn = now
            let percent = total > 0 ? " \(min(99, done * 100 / total))%" : ""
            let row = grid.height - 1
            grid.fill(row: row, style: style)
            _ = grid.write(" working…\(percent) · Esc cancels", column: 0, row: row, style: style)
            terminal.draw(grid)
        }
        return true
    }
}
