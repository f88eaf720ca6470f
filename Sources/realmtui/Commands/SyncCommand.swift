import ArgumentParser
import Foundation
import RealmEngine
import RealmSync

/// `realmtui sync …`: offline-first sync of a file through a PostgreSQL server (issue 27).
/// `sync init FILE URL` sets a file up, `sync FILE --once` uploads and downloads until caught up,
/// `sync status FILE` says what waits.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a database file through a PostgreSQL server.",
        discussion: """
            realmtui sync init FILE postgres://user@host:port/database
                creates (or checks) the server's tables for FILE's classes (each needs a primary key) \
            and records the server in FILE, never its password: give that through PGPASSWORD or \
            ~/.pgpass, as for psql (the PG* variables fill in what the URL leaves out).
            realmtui sync FILE --once
                uploads every local commit since the last run, then downloads and applies the \
            server's changes until caught up.
            realmtui sync status FILE
                prints the server, pending uploads and the download cursor.
            Conflicts: deletes win; otherwise each property takes the value written last in the \
            server's order; a list, set or dictionary is replaced whole.
            """,
        subcommands: [SyncRunCommand.self, SyncInitCommand.self, SyncStatusCommand.self],
        defaultSubcommand: SyncRunCommand.self
    )
}

/// `realmtui sync FILE --once`.
struct SyncRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Upload local commits, then download the server's changes (the default).")

    @Argument(help: "The database file (set up with 'sync init').", completion: .file())
    var file: String

    @Flag(name: .long, help: "Upload and download until caught up, then exit (for scripts and cron).")
    var once = false

    func validate() throws {
        // The foreground agent (LISTEN/NOTIFY, progress line) is not there yet.
        guard once else { throw ValidationError("only 'realmtui sync FILE --once' runs so far; run it from cron or a loop") }
    }

    func run() throws {
        let agent = try SyncAgent(path: file)
        let report = try agent.runOnce()
        Console.line("synced \(file) with \(agent.server): uploaded \(report.uploadedBatches) commit(s)"
                     + (report.duplicateBatches > 0 ? " (\(report.duplicateBatches) already on the server)" : "")
                     + ", downloaded \(report.downloadedChanges) change(s), cursor \(report.cursor)")
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
        Console.line("\(file) syncs with \(agent.server) as client \(agent.client); \(try agent.pendingChanges()) change(s) to upload")
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
    }
}
