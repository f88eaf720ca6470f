import ArgumentParser
import Foundation
import RealmEngine

/// The `realmtui` executable: the non-interactive subcommands for scripts and pipelines.
///
/// Exit codes (`ExitStatus`): 0 success, 1 a failed command (one `error: …` line on stderr), 64 a
/// usage error (bad or missing arguments, also one `error: …` line). A command that fails never
/// changes the file it was given: writes run in one write transaction that is cancelled on error.
struct RealmTUICommand: ParsableCommand {
    /// Every subcommand, in the order `--help` lists them.
    static let subcommands: [ParsableCommand.Type] = [
        ExploreCommand.self,
        CreateCommand.self,
        ImportCommand.self,
        ExportCommand.self,
        SchemaCommand.self,
        QueryCommand.self,
        WatchCommand.self,
        UpdateCommand.self,
        DeleteCommand.self,
        CopyCommand.self,
        CompactCommand.self,
        CheckCommand.self,
        RecoverCommand.self,
        DemoCommand.self,
        MigrateCommand.self,
        SyncCommand.self,
    ]

    static let configuration = CommandConfiguration(
        commandName: "realmtui",
        abstract: "Explore and script realmtui database files.",
        usage: "realmtui FILE [--read-only | --write]    (the explorer)\nrealmtui <subcommand>",
        discussion: """
            Exit status: 0 on success, 1 when a command fails (one 'error: …' line on stderr), \
            64 for a usage error. A failing command leaves the file unchanged.
            """,
        version: "0.1.0",
        subcommands: subcommands
    )
}

/// Runs the command line and turns every failure into one `error:` line and an exit status.
@main
enum Main {
    /// `realmtui FILE [--read-only]` (Realm Studio's habit) is `realmtui explore FILE …`: a first
    /// word that is no subcommand and names a file (it exists, or looks like a path: a missing
    /// file gets "no such file", a mistyped subcommand still gets a usage error).
    static func arguments(_ given: ArraySlice<String>) -> [String] {
        guard let first = given.first, !first.hasPrefix("-"),
            !RealmTUICommand.subcommands.contains(where: { $0.configuration.commandName == first }),
            FileManager.default.fileExists(atPath: first) || first.contains("/") || first.contains(".")
        else { return Array(given) }
        return [ExploreCommand.configuration.commandName ?? "explore"] + given
    }

    static func main() async {
        let command: ParsableCommand
        do {
            command = try RealmTUICommand.parseAsRoot(arguments(CommandLine.arguments.dropFirst()))
        } catch {
            ExitStatus.finish(after: error)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
            try Console.finish()
        } catch {
            ExitStatus.finish(after: error)
        }
    }
}
