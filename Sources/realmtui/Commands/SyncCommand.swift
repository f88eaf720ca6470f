import ArgumentParser
import Dispatch
import Foundation
import RealmEngine
import RealmSync
#if canImport(Glibc)
    import Glibc
#endif

/// `realmtui sync …`: offline-first sync of a file through a PostgreSQL server (issue 27).
/// `sync init FILE URL` sets a file up, `sync FILE` runs the agent until interrupted,
/// `sync FILE --once` uploads and downloads until caught up, `sync status FILE` says what waits.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a database file through a PostgreSQL server.",
        discussion: """
            realmtui sync init FILE postgres://user@host:port/database
                creates (or checks) the server's tables for FILE's classes (each needs a primary key) \
            and records the server in FILE, never its password: give that through PGPASSWORD or \
            ~/.pgpass, as for psql (the PG* variables fill in what the URL leaves out).
            realmtui sync FILE
                runs the agent until interrupted (Ctrl-C or SIGTERM end it after the current batch): \
            it uploads each local commit (of any process) as it is made, and downloads when the \
            server announces a change (LISTEN/NOTIFY, with a poll on connecting and every --poll seconds, 30 by default), \
            printing uploaded and downloaded counts, pending uploads and the cursor. A lost \
            connection is said on stderr and retried, waiting longer each time (up to 10 s).
            realmtui sync FILE --once
                uploads every local commit since the last run, then downloads and applies the \
            server's changes until caught up, and exits.
            A first sync of a large file (or a new client of a large server) goes in batches of \
            --batch objects (1000 by default), one SQL transaction or local commit each, with a \
            progress line ("uploaded 12,000 of 50,000 objects"); interrupted or killed, the next \
            run goes on from the last batch done, duplicating nothing.
            realmtui sync trim FILE --keep N
                deletes all but the newest N entries of the server's change feed (FILE names the \
            server), so it does not grow forever: a client whose cursor is below what is left \
            uploads its own changes first, then copies every table from the server in one local \
            commit ("copied … objects from the server"). Nothing is lost; a client that falls \
            behind by more than N changes pays a copy.
            realmtui sync trim FILE --acknowledged [--forget-after DAYS]
                deletes only the feed entries every client known to the server has downloaded \
            (clients record their cursor on the server as they download; a client is known from \
            its 'sync init' on), so nobody pays a copy. A client that stopped syncing holds the \
            feed until --forget-after DAYS forgets it (not downloaded for that long); should it \
            come back, it copies the tables.
            realmtui sync status FILE
                prints the server, pending uploads, the download cursor and when changes last \
            went up or came down.
            Conflicts: deletes win; otherwise each property takes the value written last in the \
            server's order; a list, set or dictionary is replaced whole.
            """,
        subcommands: [SyncRunCommand.self, SyncInitCommand.self, SyncStatusCommand.self, SyncTrimCommand.self],
        defaultSubcommand: SyncRunCommand.self
    )
}

/// `realmtui sync FILE [--once]`.
struct SyncRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the sync agent: upload local commits, download the server's changes (the default).")

    @Argument(help: "The database file (set up with 'sync init').", completion: .file())
    var file: String

    @Flag(name: .long, help: "Upload and download until caught up, then exit (for scripts and cron).")
    var once = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Without --once: also read the server's feed every N seconds, in case a notification was missed.",
            valueName: "seconds"))
    var poll: Double = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Objects per upload batch (one SQL transaction) and changes per download page (one local commit).",
            valueName: "n"))
    var batch = 1000

    func validate() throws {
        guard poll > 0, poll.isFinite else {
            throw ValidationError("--poll must be a number of seconds above 0, got \(poll)")
        }
        guard batch > 0 else { throw ValidationError("--batch must be a number of objects above 0, got \(batch)") }
    }

    func run() throws {
        if once {
            let agent = try SyncAgent(path: file)
            agent.batchSize = batch
            let progress = TransferLine()
            agent.onTransfer = { progress.show($0) }
            let report = try agent.runOnce()
            progress.end()
            Console.line(
                "synced \(file) with \(agent.server): uploaded \(report.uploadedBatches) commit(s)"
                    + (report.duplicateBatches > 0 ? " (\(report.duplicateBatches) already on the server)" : "")
                    + ", downloaded \(report.downloadedChanges) change(s)"
                    + (report.bootstraps > 0
                        ? ", copied \(report.copiedObjects) object(s) from the server (its feed was trimmed)" : "")
                    + ", cursor \(report.cursor)")
            return
        }
        try runForeground()
    }

    /// Runs until SIGINT or SIGTERM, which end it after the current batch with status 0.
    private func runForeground() throws {
        let control = try SyncControl()
        let sources = try handleStopSignals { control.stop() }
        defer { sources.forEach { $0.cancel() } }
        // On a terminal the status line is rewritten in place; in a pipe or log each status is
        // a line of its own (scripts and tests read them).
        let inPlace = Console.stdoutIsTerminal
        var shown = false
        var timing = SyncAgent.Timing()
        timing.pollSeconds = poll
        timing.batchSize = batch
        let transfer = TransferLine()
        try SyncAgent.runForeground(path: file, timing: timing, control: control) { event in
            switch event {
            case .connected(let server, let again):
                if again {
                    Console.error("sync: reconnected to \(server)")
                } else {
                    Console.line("syncing \(file) with \(server); Ctrl-C stops")
                    Console.flush()
                }
            case .progress(let p):
                let time = SyncRunCommand.clock.string(from: Date())
                let text =
                    "uploaded \(p.uploadedBatches) commit(s), downloaded \(p.downloadedChanges) change(s), "
                    + "pending \(p.pending), cursor \(p.cursor) at \(time)"
                if inPlace {
                    Console.write("\r\u{1B}[K" + text)  // numbers and words of our own only
                } else {
                    Console.line(text)
                }
                shown = true
                Console.flush()
            case .transfer(let t):
                if shown && inPlace {
                    Console.write("\n")
                    shown = false
                }
                transfer.show(t)
                if t.done >= t.total { transfer.end() }
            case .disconnected(let message, let retryIn):
                if inPlace && shown {
                    Console.write("\n")
                    Console.flush()
                    shown = false
                }
                Console.error("sync: \(message); retrying in \(String(format: "%.1f", retryIn)) s")
            }
        }
        if inPlace && shown { Console.write("\n") }
    }

    /// The time of day on the status line.
    private static var clock: DateFormatter {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }
}

/// The progress of a first sync's batches: rewritten in place on a terminal with a bar, the
/// rate and the time left, a line per batch in a pipe or log (scripts and tests read them).
final class TransferLine {
    private var started: Date?
    private var shown = false

    func show(_ transfer: SyncAgent.Transfer) {
        let now = Date()
        let start = started ?? now
        if started == nil { started = now }
        var text = transfer.description
        let elapsed = now.timeIntervalSince(start)
        if Console.stdoutIsTerminal && elapsed > 0 && transfer.done > 0 {
            let rate = Double(transfer.done) / elapsed
            let left = Double(transfer.total - transfer.done) / rate
            text += String(format: " · %.0f/s · %.0f s left", rate, left)
        }
        if Console.stdoutIsTerminal {
            Console.write("\r\u{1B}[K" + TransferLine.bar(done: transfer.done, total: transfer.total) + " " + text)
            shown = true
        } else {
            Console.line(text)
        }
        Console.flush()
    }

    /// `[########------------]`: how much of `total` is done, in 20 cells.
    static func bar(done: Int, total: Int) -> String {
        let cells = 20
        let filled = total > 0 ? min(cells, max(0, done) * cells / total) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
    }

    /// Ends the in-place line (the transfer is over).
    func end() {
        if shown {
            Console.write("\n")
            Console.flush()
        }
        shown = false
        started = nil
    }
}

/// `realmtui sync init FILE URL`.
struct SyncInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create or check the server's tables for a file and record the server in it.")

    @Argument(help: "The database file.", completion: .file())
    var file: String

    @Argument(help: "The server: postgres://user@host:port/database (no password: use PGPASSWORD or ~/.pgpass).")
    var url: String

    func run() throws {
        try SyncAgent.initialize(path: file, url: url)
        let agent = try SyncAgent(path: file, url: url)
        Console.line(
            "\(file) syncs with \(agent.server) as client \(agent.client); \(try agent.pendingChanges()) change(s) to upload"
        )
    }
}

/// `realmtui sync status FILE`.
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the server, pending uploads and the download cursor of a file.")

    @Argument(help: "The database file.", completion: .file())
    var file: String

    func run() throws {
        let status = try SyncAgent.status(path: file)
        Console.line("server: \(status.server)")
        Console.line("client: \(status.client)")
        Console.line("pending uploads: \(status.pending)")
        Console.line("cursor: \(status.cursor)")
        Console.line("last sync: \(status.lastSync.map { "\($0.date)" } ?? "never")")
    }
}

/// `realmtui sync trim FILE --keep N` or `realmtui sync trim FILE --acknowledged [--forget-after DAYS]`.
struct SyncTrimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trim",
        abstract:
            "Delete old entries of the server's change feed: all but the newest N (clients further behind copy the tables), or those every client has downloaded."
    )

    @Argument(help: "A database file set up with 'sync init': its server's feed is trimmed.", completion: .file())
    var file: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Feed entries to keep: a client at most this many changes behind catches up through the feed.",
            valueName: "n"))
    var keep: Int?

    @Flag(
        name: .long,
        help: "Delete only the entries every client known to the server has downloaded: nobody copies the tables.")
    var acknowledged = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --acknowledged: first forget clients that have not downloaded for this many days (back, they copy the tables).",
            valueName: "days"))
    var forgetAfter: Double?

    func validate() throws {
        guard (keep != nil) != acknowledged else {
            throw ValidationError("give either --keep N or --acknowledged (exactly one)")
        }
        if let keep, keep < 0 {
            throw ValidationError("--keep must be a number of feed entries of 0 or more, got \(keep)")
        }
        if let forgetAfter {
            guard acknowledged else { throw ValidationError("--forget-after goes with --acknowledged") }
            guard forgetAfter >= 0, forgetAfter.isFinite else {
                throw ValidationError("--forget-after must be a number of days of 0 or more, got \(forgetAfter)")
            }
        }
    }

    func run() throws {
        let agent = try SyncAgent(path: file)
        guard let keep else {
            let trim = try agent.trimAcknowledged(forgettingDays: forgetAfter)
            var text = "trimmed the feed of \(agent.server): "
            if let through = trim.through {
                text +=
                    "deleted \(trim.deleted) entr\(trim.deleted == 1 ? "y" : "ies") through \(through), "
                    + "which all \(trim.clients) known client\(trim.clients == 1 ? " has" : "s have") downloaded"
            } else {
                text += "no client is known to the server, nothing deleted"
            }
            if let forgetAfter {
                text +=
                    "; forgot \(trim.forgotten) client\(trim.forgotten == 1 ? "" : "s") that had not downloaded for "
                    + "\(String(format: "%g", forgetAfter)) days"
            }
            Console.line(text)
            return
        }
        let trim = try agent.trimFeed(keep: keep)
        Console.line(
            "trimmed the feed of \(agent.server): deleted \(trim.deleted) entr\(trim.deleted == 1 ? "y" : "ies"), "
                + "kept those after \(max(0, trim.last - Int64(keep))) (the last is \(trim.last))")
    }
}
