import RealmEngine

/// Runs the explorer on one open Realm and one terminal: draws the state, reads an event,
/// updates the state, performs the effects, until an effect says to quit.
///
/// The Realm is opened (and a bad file refused) by the caller before the terminal is taken, so
/// an error never leaves the terminal in curses mode. `run(on:)` stays on the calling thread,
/// which the Realm is confined to.
public final class ExplorerSession {
    let realm: Realm
    let path: String
    let readOnly: Bool

    /// A session over an open Realm. `path` is shown in the status line.
    public init(realm: Realm, path: String, readOnly: Bool) {
        self.realm = realm
        self.path = path
        self.readOnly = readOnly
    }

    /// Runs until the user quits. Throws only for a failure the explorer cannot show on screen.
    public func run(on terminal: TerminalBackend) throws {
        while true {
            var grid = Grid(width: terminal.size.width, height: terminal.size.height)
            grid.write("realmtui explorer — press q to quit", column: 0, row: 0)
            terminal.draw(grid)
            if case .key(.character("q"))? = terminal.nextEvent(timeoutMilliseconds: 250) { return }
        }
    }
}
