import Foundation
import Testing

/// A program running in a real terminal: a detached tmux session on a tmux server of its own
/// (`tmux -L <unique socket>`, no user config), so tests run in parallel without colliding.
///
/// ```swift
/// let tmux = try TmuxSession(script: "realmtui demo.realm; echo exit=$?", width: 120, height: 40)
/// defer { tmux.close() }
/// try tmux.waitFor("Book")
/// try tmux.sendKeys("q")
/// ```
///
/// The pane runs `bash` on a script file; end the script with something that prints (like
/// `echo exit=$?`) to see how the program ended, then `sleep` so the pane stays alive for the
/// checks (`close()` ends it). A script that ends early leaves a dead pane (`remain-on-exit`)
/// whose last screen can still be read, though tmux then hides its cursor.
struct TmuxSession {
    /// The tmux executable, or nil when it is not installed.
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        for dir in folders {
            let url = URL(fileURLWithPath: dir).appendingPathComponent("tmux")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    /// Whether tests in tmux can run here.
    static var isAvailable: Bool { executable != nil }

    /// The tmux server's socket name (`-L`).
    let socket: String
    /// The session's name (also its target).
    let name = "test"
    /// Where the script lives.
    let folder: URL

    /// Starts `script` (bash) in a detached session of `width` × `height` cells.
    init(script: String, width: Int = 120, height: Int = 40) throws {
        guard let executable = TmuxSession.executable else { throw Failure("tmux is not installed") }
        _ = executable
        socket = "realmtui-test-\(UUID().uuidString.prefix(13))"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(socket)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("script.sh")
        try Data(script.utf8).write(to: file)
        // The pane stays after the script ends, so its last screen and status can be read.
        let config = folder.appendingPathComponent("tmux.conf")
        try Data("set-option -g remain-on-exit on\n".utf8).write(to: config)
        try tmux([
            "-f", config.path, "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "bash --noprofile --norc \(Self.quoted(file.path))",
        ])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ message: String) { description = message }
    }

    private static let closeInheritedDescriptors = #"""
        cd /proc/self/fd 2>/dev/null && for fd in *; do [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"; done; cd /; exec "$@"
        """#

    /// `text` quoted for a POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `tmux -L socket args…` and returns its standard output.
    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        guard let executable = TmuxSession.executable else { throw Failure("tmux is not installed") }
        // Through bash, which closes every inherited descriptor above 2 first: Foundation's
        // Process learns that a child ended when a descriptor the child inherited closes, and the
        // tmux server the first call forks would keep it open for ever (waitUntilExit would hang).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", Self.closeInheritedDescriptors, "bash", executable.path, "-L", socket] + args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TMUX")
        env["LANG"] = "C.UTF-8"
        process.environment = env
        // Files, not pipes: the tmux server the first call starts inherits the client's output
        // and would keep a pipe open (reading it to the end would never return).
        let id = UUID().uuidString
        let outURL = folder.appendingPathComponent("out-\(id)")
        let errURL = folder.appendingPathComponent("err-\(id)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // A child inherits the spawning thread's signal mask, and the test runner's worker
        // threads block nearly every signal: unblocked, the programs in the pane get SIGHUP,
        // SIGTERM and ctrl-c as they would from a shell.
        var everything = sigset_t()
        var saved = sigset_t()
        sigemptyset(&everything)
        pthread_sigmask(SIG_SETMASK, &everything, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()
        process.waitUntilExit()
        let output = (try? Data(contentsOf: outURL)) ?? Data()
        let error = (try? Data(contentsOf: errURL)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw Failure("tmux \(args.joined(separator: " ")): \(String(decoding: error, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Sends keys as tmux names them (`"q"`, `"Enter"`, `"C-c"`, `"Down"`).
    func sendKeys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Sends `text` literally (no key names).
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// The pane's text now, one line per row (wrapped lines joined), trailing blanks trimmed.
    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-t", name])
    }

    /// A tmux format evaluated for the pane, e.g. `#{alternate_on}`.
    func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the pane's text satisfies `done`; returns the last capture, or throws with it
    /// when the pane's script has ended without it (the screen can no longer change).
    ///
    /// No deadline: a loaded machine draws late, and a 20 s bound failed correct tests. A wait
    /// that cannot end ends with the script (its closing `sleep`), with the screen in the error.
    @discardableResult
    func waitUntil(_ what: String, _ done: (String) throws -> Bool) throws -> String {
        while true {
            let ended = try display("#{pane_dead}") == "1"
            let text = try capture()
            if try done(text) { return text }
            if ended { throw Failure("the pane's script ended before \(what); the pane shows:\n\(text)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until the pane contains `text`.
    @discardableResult
    func waitFor(_ text: String) throws -> String {
        try waitUntil("'\(text)'") { $0.contains(text) }
    }

    /// Whether the pane's terminal has echo turned off (a program reading a hidden answer).
    func echoIsOff() throws -> Bool {
        let tty = try display("#{pane_tty}")
        let output = try runChild(URL(fileURLWithPath: "/bin/stty"), ["-F", tty, "-a"])
        return output.stdout.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\n" }).contains("-echo")
    }

    /// The process ids of the pane's shell's children (the program the script is running).
    func programPIDs() throws -> [Int32] {
        let shell = try display("#{pane_pid}")
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }
    }

    /// Whether the terminal is as a shell left it: normal screen, no mouse reporting, cursor
    /// shown, cursor keys in normal mode. Returns what differs (empty when restored).
    func terminalModesLeftOn() throws -> [String] {
        let flags = try display(
            "alternate=#{alternate_on} mouse=#{mouse_any_flag} sgr=#{mouse_sgr_flag} "
                + "cursor-hidden=#{?cursor_flag,0,1} keypad=#{keypad_cursor_flag}")
        return flags.split(separator: " ").filter { $0.hasSuffix("=1") }.map { String($0.dropLast(2)) }
    }

    /// A script line that prints `modes=` and the terminal's line-discipline flags that a
    /// program in curses mode turns off (`-icanon`, `-echo`) for `terminalModesLeftOn`-like checks.
    static let printTerminalModes =
        #"echo "modes=$(stty -a | tr ' ;' '\n\n' | grep -xE -- '-?(isig|icanon|echo)' | tr '\n' ' ')""#

    /// Ends the tmux server and removes the script.
    func close() {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
    }
}
