/// What the explorer needs from a terminal: draw a grid, read events, copy text. The ncurses
/// backend is the only real one; tests use a scripted one.
///
/// A backend takes the screen when created and gives it back in `close()`, which must be safe
/// to call more than once and from every exit path (a quit, an error, a signal).
public protocol TerminalBackend: AnyObject {
    /// The terminal's size in cells.
    var size: (width: Int, height: Int) { get }
    /// Whether the terminal shows colours (false also when `NO_COLOR` is set).
    var hasColor: Bool { get }
    /// Draws `grid`, sending only the cells that differ from the previous frame.
    func draw(_ grid: Grid)
    /// The next event, waiting at most `timeoutMilliseconds` (nil when none came in time).
    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent?
    /// Makes a waiting `nextEvent` return nil at once (from any thread): a commit arrived.
    func wake()
    /// Puts `text` on the system clipboard through the terminal (OSC 52: works over ssh).
    func copyToClipboard(_ text: String)
    /// Restores the terminal as it was before the backend took it.
    func close()
}
