import CNCurses
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the terminal could not be taken.
public struct TerminalError: Error, CustomStringConvertible {
    /// One line saying what is wrong and what to do.
    public var description: String
}

/// The explorer's real terminal: ncursesw on standard input and output.
///
/// Creating it takes the screen (alternate screen, no echo, keys one at a time, mouse
/// reporting, hidden cursor); `close()` gives it back and is safe to call more than once. The
/// caller should `defer { terminal.close() }` so an error thrown out of the session restores the
/// terminal too; SIGINT, SIGTERM, SIGHUP and crashes restore it through `SignalGuard`.
///
/// Keys are read one at a time with ctrl-c and ctrl-z left to the terminal driver (`cbreak`,
/// not `raw`): ctrl-c is SIGINT (restore, exit 130), ctrl-z suspends (ncurses' handler).
/// Flow control is off, so ctrl-s (commit) and ctrl-q reach the explorer instead of stopping
/// and restarting the output.
///
/// Only one instance may be open at a time (ncurses has one current screen); use it from the
/// thread that created it.
public final class NCursesTerminal: TerminalBackend {
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let outputFD: Int32 = 1
    private let inputFD: Int32 = 0
    /// A self-pipe: `wake()` writes a byte from any thread, `nextEvent` polls it beside the
    /// keyboard, so a commit in another process reaches the loop without polling on a timer.
    private let wakePipe: (read: Int32, write: Int32)
    private var colorPairs: ColorPairs
    private var previous: Grid?
    private var isClosed = false

    /// Whether cells are drawn in colour: false when the terminal has no colours or `NO_COLOR`
    /// is set (to anything but the empty string; see no-color.org). Then only attributes show.
    public let hasColor: Bool
    /// Whether the terminal reports mouse clicks and the wheel.
    public let hasMouse: Bool
    /// How many cells the last `draw` sent to ncurses (the diff's size; for tests and measuring).
    public private(set) var cellsSentByLastDraw = 0

    /// Takes the terminal on standard input and output. Throws `TerminalError` (and leaves the
    /// terminal as it was) when either is not a terminal or `TERM` names no known terminal.
    public init() throws {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw TerminalError(description: "the explorer needs a terminal on standard input and output")
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            throw TerminalError(
                description: "cannot create the explorer's wake-up pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakePipe = (pipeEnds[0], pipeEnds[1])
        Self.chooseLocale()
        var modes = termios()
        let hasModes = tcgetattr(outputFD, &modes) == 0
        SignalGuard.saveOriginalActions()
        // Armed before newterm, which may switch to the alternate screen and turn echo off before
        // it returns: a signal from here on gives the terminal back.
        SignalGuard.arm(restore: Self.probedRestoreSequence(fd: outputFD), fd: outputFD, modes: hasModes ? modes : nil)
        // newterm, not initscr: initscr prints a message and exits the process on an unknown TERM.
        guard let screen = newterm(nil, rt_stdout(), rt_stdin()) else {
            SignalGuard.disarm()
            let term = getenv("TERM").map { String(cString: $0) } ?? ""
            throw TerminalError(
                description: term.isEmpty
                    ? "TERM is not set: cannot drive the terminal (try TERM=xterm-256color)"
                    : "unknown terminal type TERM=\(term) (try TERM=xterm-256color)")
        }
        self.screen = screen
        _ = set_term(screen)
        guard let window = rt_stdscr() else {
            SignalGuard.disarm()
            endwin()
            delscreen(screen)
            throw TerminalError(description: "ncurses could not create the screen")
        }
        self.window = window
        cbreak()
        Self.turnOffFlowControl(inputFD)
        noecho()
        nonl()
        intrflush(window, false)
        keypad(window, true)
        set_escdelay(25)
        curs_set(0)
        Self.defineCommonKeys()

        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        var hasDefaultColors = false
        if has_colors() && !noColor && start_color() == OK {
            hasColor = true
            hasDefaultColors = use_default_colors() == OK
        } else {
            hasColor = false
        }
        colorPairs = ColorPairs(limit: hasColor ? Int(rt_color_pairs()) : 0, hasDefaultColors: hasDefaultColors)

        // Mouse reporting off is in the restore bytes before it may go on.
        SignalGuard.setRestore(Self.restoreSequence(mouse: true))
        hasMouse = mousemask(rt_all_mouse_events(), nil) != 0
        if hasMouse {
            mouseinterval(0)  // a press is reported at once, not after a click delay
        } else {
            SignalGuard.setRestore(Self.restoreSequence(mouse: false))
        }
        Self.pauseForTests()
    }

    deinit { close() }

    /// The terminal's size in cells.
    public var size: (width: Int, height: Int) {
        (Int(max(0, getmaxx(window))), Int(max(0, getmaxy(window))))
    }

    /// Draws `grid`, sending only the cells that differ from the previous frame (all of them
    /// after a resize). Cells beyond the terminal's size are cut off.
    public func draw(_ grid: Grid) {
        guard !isClosed else { return }
        let (width, height) = size
        if let previous, previous.width != grid.width || previous.height != grid.height {
            werase(window)
        }
        let changes = GridDiff.changes(from: previous, to: grid, width: width, height: height)
        for (column, row) in changes {
            put(
                grid[column, row], column: column, row: row,
                room: min(width, grid.width) - column,
                isWide: grid[column + 1, row].isContinuation && column + 1 < grid.width)
        }
        cellsSentByLastDraw = changes.count
        previous = grid
        wnoutrefresh(window)
        doupdate()
    }

    /// The next key, mouse event or resize, waiting at most `timeoutMilliseconds` (a negative
    /// value waits for ever). Keys and mouse reports the explorer has no use for are skipped.
    public func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        guard !isClosed else { return nil }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(max(0, timeoutMilliseconds)))
        while true {
            // Keys ncurses has already read (the rest of an escape sequence, a paste) come first.
            wtimeout(window, 0)
            var code: wint_t = 0
            let result = wget_wch(window, &code)
            if result != ERR {
                if let event = decode(result: result, code: code) { return event }
                continue
            }
            endIfHungUp()
            var wait = -1
            if timeoutMilliseconds >= 0 {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return nil }
                wait = Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            }
            var fds = [
                pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(clamping: wait))
            if ready > 0, fds[1].revents & Int16(POLLIN) != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = read(wakePipe.read, &drain, drain.count)
                return nil
            }
            if ready == 0 { return nil }
            // Input is ready (or EINTR from SIGWINCH, which ncurses turns into KEY_RESIZE): read it.
            wtimeout(window, 50)
            let next = wget_wch(window, &code)
            if next == ERR {
                endIfHungUp()
                continue
            }
            if let event = decode(result: next, code: code) { return event }
        }
    }

    /// Makes a waiting (or the next) `nextEvent` return nil at once. Safe from any thread.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    /// Writes OSC 52 with `text` straight to the terminal (not through ncurses' buffers).
    /// Terminals that do not support it ignore the sequence; in tmux it needs `set-clipboard on`.
    public func copyToClipboard(_ text: String) {
        guard !isClosed else { return }
        Self.writeAll(outputFD, OSC52.sequence(for: text))
    }

    /// Gives the terminal back: the handlers as they were, the screen, modes and cursor as before.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        SignalGuard.disarm()
        if hasMouse { mousemask(0, nil) }
        curs_set(1)
        endwin()
        delscreen(screen)
        Glibc.close(wakePipe.read)
        Glibc.close(wakePipe.write)
    }

    // MARK: Drawing

    private func put(_ cell: Cell, column: Int, row: Int, room: Int, isWide: Bool) {
        let style = hasColor ? cell.style : cell.style.withoutColor
        var attributes = rt_wa_normal()
        if style.bold { attributes |= rt_wa_bold() }
        if style.dim { attributes |= rt_wa_dim() }
        if style.reverse { attributes |= rt_wa_reverse() }
        if style.underline { attributes |= rt_wa_underline() }
        let pair =
            hasColor
            ? colorPairs.pair(foreground: style.foreground, background: style.background) { init_pair($0, $1, $2) }
            : 0
        let width = isWide ? 2 : 1
        switch Self.drawable(cell.text, width: width, room: room) {
        case .text(let scalars):
            if !putScalars(scalars, attributes: attributes, pair: pair, column: column, row: row) {
                putScalars([0x3F], attributes: attributes, pair: pair, column: column, row: row)
            }
        case .narrowThenBlank(let scalar):
            putScalars([scalar], attributes: attributes, pair: pair, column: column, row: row)
            putScalars([0x20], attributes: attributes, pair: pair, column: column + 1, row: row)
        case .pair(let first, let second):
            putScalars([first], attributes: attributes, pair: pair, column: column, row: row)
            putScalars([second], attributes: attributes, pair: pair, column: column + 1, row: row)
        case .blank:
            putScalars([0x20], attributes: attributes, pair: pair, column: column, row: row)
        case .replacement:
            putScalars([0x3F], attributes: attributes, pair: pair, column: column, row: row)
            if width == 2 { putScalars([0x20], attributes: attributes, pair: pair, column: column + 1, row: row) }
        }
    }

    /// How a cell's text is drawn so that ncurses, which places the cursor by libc's `wcwidth`,
    /// agrees with the grid's width (`DisplayWidth`'s tables) and every later cell stays in its
    /// column.
    enum Drawable: Equatable {
        /// The scalars as they are: a spacing character and the zero-width ones after it.
        case text([wchar_t])
        /// Wide in the grid, narrow for libc (`❤️`, a keycap): the base character and a blank.
        case narrowThenBlank(wchar_t)
        /// A flag: its two regional indicators, one column each for libc, in the cell and the
        /// next (a terminal that joins them draws the flag over both).
        case pair(wchar_t, wchar_t)
        /// A wide character cut by the screen's right edge.
        case blank
        /// Nothing libc can show in the grid's width: `?` (and a blank for a wide cell).
        case replacement
    }

    static func drawable(_ text: String, width: Int, room: Int) -> Drawable {
        guard let first = text.unicodeScalars.first else { return .blank }
        if width > room { return .blank }
        let regional: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF
        if width == 2, text.unicodeScalars.count == 2, text.unicodeScalars.allSatisfy({ regional.contains($0.value) }),
            let second = text.unicodeScalars.last
        {
            return .pair(wchar_t(bitPattern: first.value), wchar_t(bitPattern: second.value))
        }
        let base = wchar_t(bitPattern: first.value)
        let libcWidth = Int(wcwidth(base))
        if libcWidth == width {
            // ncurses takes one spacing character and up to CCHARW_MAX - 1 combining ones; a
            // second spacing character (inside a ZWJ emoji sequence) ends the cell's text, and
            // so does the joiner before it: sent alone, a terminal joins it to whatever it
            // draws next, which may be on another row.
            var scalars = [base]
            for scalar in text.unicodeScalars.dropFirst() {
                let value = wchar_t(bitPattern: scalar.value)
                guard scalars.count < Int(rt_ccharw_max()), scalar.value != 0x200D, wcwidth(value) == 0 else { break }
                scalars.append(value)
            }
            return .text(scalars)
        }
        if libcWidth == 1 && width == 2 { return .narrowThenBlank(base) }
        return .replacement
    }

    @discardableResult
    private func putScalars(_ scalars: [wchar_t], attributes: attr_t, pair: Int16, column: Int, row: Int) -> Bool {
        var text = scalars
        text.append(0)
        var character = cchar_t()
        let made = text.withUnsafeBufferPointer { setcchar(&character, $0.baseAddress, attributes, pair, nil) }
        guard made == OK else { return false }
        // Writing the bottom-right cell returns ERR (the cursor cannot move past it) but draws it.
        _ = wmove(window, Int32(row), Int32(column))
        _ = wadd_wch(window, &character)
        return true
    }

    // MARK: Events

    private func decode(result: Int32, code: wint_t) -> TerminalEvent? {
        if result == KEY_CODE_YES {
            switch Int32(bitPattern: code) {
            case KEY_RESIZE:
                previous = nil
                let (width, height) = size
                return .resize(width: width, height: height)
            case KEY_MOUSE:
                var report = MEVENT()
                guard getmouse(&report) == OK else { return nil }
                return KeyDecoding.mouse(state: report.bstate, column: report.x, row: report.y).map { .mouse($0) }
            default:
                return KeyDecoding.functionKey(Int32(bitPattern: code)).map { .key($0) }
            }
        }
        return KeyDecoding.character(code).map { .key($0) }
    }

    /// After a read that returned nothing: when the terminal is gone (its window closed, the ssh
    /// link dropped) while SIGHUP is ignored (`nohup`), every read fails at once and the
    /// explorer would spin; end it as SIGHUP would, with status 129.
    private func endIfHungUp() {
        var input = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&input, 1, 0) > 0, input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 else { return }
        close()
        exit(128 + SIGHUP)
    }

    // MARK: Setup

    /// `setlocale(LC_ALL, "")`, as ncursesw needs to draw and read anything beyond ASCII; when the
    /// environment names no UTF-8 locale (LANG unset, as on many CI machines), C.UTF-8 for the
    /// character type, since the grid holds Unicode and today's terminals speak UTF-8.
    private static func chooseLocale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased().filter { $0 != "-" }
        if codeset != "UTF8" {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    /// Home and End as terminals send them whatever `TERM` says: tmux and screen send `ESC [1~`
    /// and `ESC [4~`, rxvt `ESC [7~`/`ESC [8~`, xterm without keypad mode `ESC [H`/`ESC [F`; a
    /// user in tmux with `TERM=xterm-256color` (a common setting) would otherwise get Esc and
    /// three characters. Sequences the terminal's own description binds are left alone.
    /// Turns off XON/XOFF flow control on the terminal at `fd` (`IXON`), which would take
    /// ctrl-s and ctrl-q for itself, and makes that the mode ncurses restores after a suspend
    /// (`def_prog_mode`). `endwin` gives back the shell's modes, flow control included.
    private static func turnOffFlowControl(_ fd: Int32) {
        var modes = termios()
        guard tcgetattr(fd, &modes) == 0 else { return }
        modes.c_iflag &= ~tcflag_t(IXON)
        _ = tcsetattr(fd, TCSANOW, &modes)
        _ = def_prog_mode()
    }

    private static func defineCommonKeys() {
        let keys: [(String, Int32)] = [
            ("\u{1B}[1~", KEY_HOME), ("\u{1B}[4~", KEY_END), ("\u{1B}[7~", KEY_HOME), ("\u{1B}[8~", KEY_END),
            ("\u{1B}[H", KEY_HOME), ("\u{1B}[F", KEY_END), ("\u{1B}OH", KEY_HOME), ("\u{1B}OF", KEY_END),
            ("\u{1B}[5~", KEY_PPAGE), ("\u{1B}[6~", KEY_NPAGE), ("\u{1B}[3~", KEY_DC), ("\u{1B}[Z", KEY_BTAB),
        ]
        for (sequence, code) in keys where key_defined(sequence) == 0 {
            define_key(sequence, code)
        }
    }

    /// Tests only: `REALMTUI_STARTUP_PAUSE_MS` (at most 10 s) holds the explorer at the end of the
    /// screen's set-up (alternate screen on, keys and mouse set, nothing drawn yet), so a test can
    /// signal it there.
    private static func pauseForTests() {
        guard let text = getenv("REALMTUI_STARTUP_PAUSE_MS"), let milliseconds = Int(String(cString: text)),
            milliseconds > 0
        else { return }
        usleep(UInt32(min(milliseconds, 10_000)) * 1_000)
    }

    /// `restoreSequence` before `newterm`, from the terminfo entry of `TERM` loaded on its own
    /// (a cancel and plain attributes when there is none: newterm will fail then).
    private static func probedRestoreSequence(fd: Int32) -> [UInt8] {
        guard rt_probe_terminal(fd) != 0 else { return [0x18] + Array("\u{1B}[m".utf8) }
        defer { rt_release_probe() }
        return restoreSequence(mouse: false)
    }

    /// What `SignalGuard` writes to leave the screen from a signal handler: cancel a half-written
    /// sequence, plain attributes, mouse reporting off, cursor visible, keypad off, the normal
    /// screen back (or a cleared one on terminals without an alternate screen).
    private static func restoreSequence(mouse: Bool) -> [UInt8] {
        var bytes: [UInt8] = [0x18]
        func capability(_ name: String) -> [UInt8]? {
            guard let value = rt_tigetstr(name) else { return nil }
            return Array(String(cString: value).utf8)
        }
        bytes += capability("sgr0") ?? Array("\u{1B}[m".utf8)
        if mouse {
            // The xterm modes ncurses may have switched on (1000 clicks, 1002/1003 motion, 1006 SGR).
            bytes += Array("\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1000l".utf8)
        }
        bytes += capability("cnorm") ?? []
        bytes += capability("rmkx") ?? []
        if let leave = capability("rmcup") {
            bytes += leave
        } else {
            bytes += capability("clear") ?? []
        }
        return bytes
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(fd, base + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
