import Foundation
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
    let environment: [String: String]

    /// A session over an open Realm. `path` is shown in the status line.
    public init(realm: Realm, path: String, readOnly: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.realm = realm
        self.path = path
        self.readOnly = readOnly
        self.environment = environment
    }

    /// The driver a session starts with for a terminal of `width` × `height` cells.
    public func makeDriver(width: Int, height: Int, hasColor: Bool) -> ExplorerDriver {
        let historyURL = QueryHistory.defaultURL(environment: environment)
        let state = ExplorerState(realm: realm, fileName: URL(fileURLWithPath: path).lastPathComponent, readOnly: readOnly,
                                  width: width, height: height,
                                  theme: Theme.forTerminal(hasColor: hasColor, environment: environment),
                                  history: QueryHistory.load(from: historyURL))
        return ExplorerDriver(state: state, historyURL: historyURL)
    }

    /// Runs until the user quits. Throws only for a failure the explorer cannot show on screen.
    public func run(on terminal: TerminalBackend) throws {
        let size = terminal.size
        var driver = makeDriver(width: size.width, height: size.height, hasColor: terminal.hasColor)
        var copiedCount = 0
        terminal.draw(driver.screen)
        while !driver.didQuit {
            switch terminal.nextEvent(timeoutMilliseconds: 500) {
            case .key(let key)?: driver.send(.key(key))
            case .mouse(let mouse)?: driver.send(.mouse(mouse))
            case .resize(let width, let height)?: driver.send(.resize(width: width, height: height))
            case nil: driver.send(.tick(seconds: 0))
            }
            for text in driver.copied.dropFirst(copiedCount) { terminal.copyToClipboard(text) }
            copiedCount = driver.copied.count
            if !driver.didQuit { terminal.draw(driver.screen) }
        }
    }
}
