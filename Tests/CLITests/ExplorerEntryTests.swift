import Foundation
import Testing

/// `realmtui FILE`, the explorer's entry point: without a terminal a usage error; in a real
/// terminal (tmux) a bad file is refused before the screen is taken, a good one opens, and
/// every way out (q, SIGINT, SIGTERM, SIGHUP) gives the terminal back.
@Suite("Explorer entry point", .tags(.tmux, .multiProcess))
struct ExplorerEntryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let demo = root.appendingPathComponent("Resources/demo.realm").path

    /// The lines a script runs in the pane: the explorer, then how it ended and the terminal's
    /// modes; then it waits (a live pane: tmux hides the cursor of a dead one) until `close()`.
    static func script(_ arguments: [String], environment: String = "LANG=C.UTF-8 TERM=xterm-256color") -> String {
        let command = ([CLI.executable.path] + arguments).map(TmuxSession.quoted).joined(separator: " ")
        return """
            trap : INT
            \(environment) \(command)
            echo "exit=$?"
            \(TmuxSession.printTerminalModes)
            echo "script done"
            sleep 120
            """
    }

    /// Checks that the pane is back to a shell's terminal: the script's lines show on the
    /// normal screen, the line discipline is cooked again, no mode of the explorer is left on.
    static func expectRestored(
        _ tmux: TmuxSession, _ text: String, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try tmux.terminalModesLeftOn() == [], "\(what): terminal modes left on", sourceLocation: sourceLocation)
        let modes = text.split(separator: "\n").first { $0.hasPrefix("modes=") } ?? ""
        #expect(
            modes.contains("icanon") && modes.contains("echo") && modes.contains("isig"), "\(what): \(modes)",
            sourceLocation: sourceLocation)
        #expect(!modes.contains("-"), "\(what): \(modes)", sourceLocation: sourceLocation)
    }

    @Test func withoutATerminalItIsAUsageErrorNamingTheScriptingCommands() throws {
        let s = try Scratch()
        let db = try s.database()
        try expectUnchanged(db) {
            let r = try CLI.run([db])
            expectFailure(r, status: 64, contains: "realmtui schema")
            #expect(r.stderr.contains("realmtui query"))
            #expect(r.stdout.isEmpty)
            let explicit = try CLI.run(["explore", db, "--read-only"])
            expectFailure(explicit, status: 64, contains: "terminal")
        }
    }

    @Test func aMistypedSubcommandIsStillAUsageError() throws {
        let r = try CLI.run(["qurey"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(!r.stderr.contains("terminal"), "\(r.stderr)")
    }

    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func everyBadFileIsRefusedBeforeTheScreenIsTaken() throws {
        let s = try Scratch()
        for (kind, file) in try BadFileTests.badFiles(s) {
            let before = FileManager.default.contents(atPath: file)
            let tmux = try TmuxSession(script: Self.script([file]), width: 120, height: 30)
            defer { tmux.close() }
            let text = try tmux.waitFor("script done")
            let lines = text.split(separator: "\n")
            let errors = lines.filter { $0.hasPrefix("error: ") }
            #expect(errors.count == 1, "\(kind): \(text)")
            #expect(lines.contains("exit=1"), "\(kind): \(text)")
            #expect(
                lines.first?.hasPrefix("error: ") == true,
                "\(kind): the error is the first thing on the screen: \(text)")
            try Self.expectRestored(tmux, text, kind)
            #expect(FileManager.default.contents(atPath: file) == before, "\(kind): the file changed")
            if kind != "directory" {
                #expect(!FileManager.default.fileExists(atPath: file + ".lock"), "\(kind) left a lock file")
            }
        }
    }

    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func anUnknownTerminalIsOneErrorLine() throws {
        let tmux = try TmuxSession(
            script: Self.script([Self.demo, "--read-only"], environment: "LANG=C.UTF-8 TERM=no-such-terminal"))
        defer { tmux.close() }
        let text = try tmux.waitFor("script done")
        #expect(text.contains("error: unknown terminal type TERM=no-such-terminal"), "\(text)")
        #expect(text.contains("exit=1"), "\(text)")
        try Self.expectRestored(tmux, text, "unknown TERM")
    }

    /// End to end in a real terminal: open the demo, browse a class, open an object, follow a
    /// list of links and a backlink, walk back to where we were, query, sort, quit.
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func browseQueryFollowLinksAndQuit() throws {
        let s = try Scratch()
        let db = s.path("demo.realm")
        try FileManager.default.copyItem(atPath: Self.demo, toPath: db)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let tmux = try TmuxSession(script: Self.script([db]), width: 120, height: 40)
        defer { tmux.close() }
        try tmux.waitUntil("the explorer's screen") { _ in try tmux.display("#{alternate_on}") == "1" }
        var screen = try tmux.waitFor("Author · primary key id")
        #expect(screen.contains("Book             300"), "\(screen)")
        #expect(try tmux.terminalModesLeftOn().contains("alternate"), "the explorer has the screen")

        try tmux.sendKeys("j", "Enter")
        screen = try tmux.waitFor("row 1 of 300")
        #expect(screen.contains("*isbn"), "\(screen)")
        try tmux.sendKeys("j", "j", "Enter")  // the third book's detail
        screen = try tmux.waitFor("Book › 星梦风书")
        try tmux.sendKeys("j", "j", "Enter")  // its authors (a list of links)
        screen = try tmux.waitFor("Book › 星梦风书 › authors")
        #expect(screen.contains("3 objects"), "\(screen)")
        try tmux.sendKeys("Enter", "G", "Enter")  // the first author › books (backlinks)
        screen = try tmux.waitUntil("the backlinks table") { $0.contains("› books") && $0.contains("row 1 of") }
        #expect(screen.contains("978-7-00000-002-2"), "the book we came from links to this author: \(screen)")
        try tmux.sendKeys("Escape", "Escape", "Escape", "Escape")  // back to the class's table, cursor kept
        screen = try tmux.waitFor("row 3 of 300")
        try tmux.sendKeys("/")
        try tmux.type("pages > 1000 AND price < 50")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor("11 objects")
        try tmux.sendKeys("/")
        try tmux.type(" AND nosuch == 1")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor("has no property 'nosuch'")
        #expect(screen.contains("^"), "a caret under the mistake: \(screen)")
        try tmux.sendKeys("Escape", "l", "l", "l", "l", "S")
        screen = try tmux.waitFor("pages ▼")
        #expect(screen.contains("11 objects"), "the table kept the last query that worked: \(screen)")
        try tmux.sendKeys("q")
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=0"), "\(text)")
        try Self.expectRestored(tmux, text, "q")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "browsing never changes the file")
    }

    /// Ctrl-C (SIGINT), SIGTERM and SIGHUP end the explorer with 128 + the signal and give the
    /// terminal back.
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"),
        arguments: [(SIGINT, "ctrl-c"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")])
    func aSignalRestoresTheTerminal(_ signal: Int32, _ name: String) throws {
        try Self.signalOnceOnScreen(signal, name, environment: "LANG=C.UTF-8 TERM=xterm-256color")
    }

    /// A signal that comes while the explorer is still setting the screen up (after ncurses has
    /// switched to the alternate screen, before colours, mouse and keys are done) restores the
    /// terminal too. `REALMTUI_STARTUP_PAUSE_MS` holds the explorer in that window.
    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"),
        arguments: [(SIGINT, "ctrl-c"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")])
    func aSignalDuringStartupRestoresTheTerminal(_ signal: Int32, _ name: String) throws {
        try Self.signalOnceOnScreen(
            signal, name, environment: "LANG=C.UTF-8 TERM=xterm-256color REALMTUI_STARTUP_PAUSE_MS=3000")
    }

    /// Starts the explorer on the demo in tmux, sends `signal` (ctrl-c for SIGINT) once the
    /// alternate screen is on, and checks the exit status and the terminal given back.
    static func signalOnceOnScreen(
        _ signal: Int32, _ name: String, environment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let tmux = try TmuxSession(
            script: script([demo, "--read-only"], environment: environment), width: 100, height: 30)
        defer { tmux.close() }
        try tmux.waitUntil("the alternate screen") { _ in try tmux.display("#{alternate_on}") == "1" }
        if signal == SIGINT {
            try tmux.sendKeys("C-c")
        } else {
            let pids = try tmux.programPIDs()
            try #require(pids.count == 1, "the explorer's process: \(pids)", sourceLocation: sourceLocation)
            #expect(kill(pids[0], signal) == 0, sourceLocation: sourceLocation)
        }
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=\(128 + signal)"), "\(name): \(text)", sourceLocation: sourceLocation)
        try expectRestored(tmux, text, name, sourceLocation: sourceLocation)
    }

    /// A parent that leaves SIGTERM blocked (children inherit the spawning thread's mask) does
    /// not make the explorer unkillable: it unblocks the signals it restores the terminal on.
    @Test(
        .enabled(
            if: TmuxSession.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
            "needs tmux and /usr/bin/python3 (to start the explorer with signals blocked)"))
    func anInheritedBlockedSignalStillRestoresTheTerminal() throws {
        let blocker =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM, signal.SIGHUP]); "
            + "signal.signal(signal.SIGPIPE, signal.SIG_DFL); signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        let script = Self.script([Self.demo, "--read-only"])
            .replacingOccurrences(
                of: "TERM=xterm-256color ",
                with: "TERM=xterm-256color /usr/bin/python3 -c \(TmuxSession.quoted(blocker)) ")
        let tmux = try TmuxSession(script: script, width: 100, height: 30)
        defer { tmux.close() }
        try tmux.waitUntil("the explorer's screen") { _ in try tmux.display("#{alternate_on}") == "1" }
        let pids = try tmux.programPIDs()
        try #require(pids.count == 1, "the explorer's process: \(pids)")
        #expect(kill(pids[0], SIGTERM) == 0)
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=143"), "\(text)")
        try Self.expectRestored(tmux, text, "blocked SIGTERM")
    }
}
