import ArgumentParser
import RealmEngine

@main
struct RealmTUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realmtui",
        abstract: "Explore and script realmtui database files.",
        subcommands: []
    )
}
