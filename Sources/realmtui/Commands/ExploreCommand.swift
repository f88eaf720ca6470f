import ArgumentParser
import Foundation
import RealmEngine
import RealmTUI

/// `realmtui FILE [--read-only]` (also `realmtui explore FILE`): the interactive explorer.
///
/// Order of the checks, so the terminal is never left in a broken state:
/// 1. standard input and output must be terminals, else one `error:` line naming the scripting
///    commands and exit 64 (a script gets a usage error, not a screen);
/// 2. the file is opened with the other commands' `RealmFiles.open` (an encrypted file opened
///    without a key asks for it, `KeyPrompt`): a missing, empty, foreign,
///    corrupt, truncated or newer-format file fails here with one `error:` line and exit 1,
///    before the screen is taken;
/// 3. only then the terminal is taken, and given back by `defer` on every way out of the
///    session (a quit or a thrown error; signals are handled by the backend).
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Browse a file in the terminal explorer (the same as 'realmtui FILE').",
        discussion: """
            Usage: realmtui FILE [--read-only] [--key HEX | --key-file PATH]. Needs a terminal; in scripts use 'realmtui schema' \
            and 'realmtui query'. The file opens read-only with --read-only, or when it (or its \
            folder, for the lock file) is not writable.
            """
    )

    @Argument(help: "The database file.")
    var file: String

    @Flag(name: .long, help: "Open the file read-only.")
    var readOnly = false

    @OptionGroup var encryption: EncryptionOptions

    func run() throws {
        // A file that is not there is the first thing to say, terminal or not.
        try RealmFiles.requireRegularFile(file)
        guard isatty(0) == 1, isatty(1) == 1 else {
            Console.error("error: the explorer needs a terminal on standard input and output; " +
                          "in scripts use 'realmtui schema FILE' or 'realmtui query FILE CLASS [QUERY]'")
            throw ExitCode(ExitStatus.usage)
        }
        let readOnlyReason = RealmCoreFiles.isRealmFile(file)
            ? "a Realm file: realmtui never changes it"
            : ExplorerOpen.readOnlyReason(path: file, requested: readOnly)
        let openReadOnly = readOnlyReason != nil
        // Handed to the session, which hands it to the explorer: no reference stays here, so the
        // original closes when `:copy` moves the explorer to a copy. (Arguments are evaluated in
        // order: the file is open, and a Realm file's facts known, before the reason is read.)
        let session = try ExplorerSession(realm: openRealm(readOnly: openReadOnly), path: file, readOnly: openReadOnly,
                                          readOnlyReason: realmFileReason() ?? readOnlyReason,
                                          copyLeavesOut: RealmCoreFiles.lastOpened?.omissionSummary)
        let terminal: NCursesTerminal
        do {
            terminal = try NCursesTerminal()
        } catch let error as TerminalError {
            throw CLIFailure(error.description)
        }
        defer { terminal.close() }
        try session.run(on: terminal)
    }

    /// What the status line says of a Realm file once it is open (nil for a realmtui file).
    private func realmFileReason() -> String? {
        RealmCoreFiles.lastOpened.map { realmFile in
            "a Realm file (format \(realmFile.formatVersion)), never changed"
                + (realmFile.inUseCopyTakenAt.map { "; in use by a Realm app: a copy taken at \(RealmCoreFiles.Facts.clock($0))" } ?? "")
                + (realmFile.omissionSummary.map { "; not shown yet: \($0)" } ?? "")
        }
    }

    /// The file opened, asking for its key (before the screen is taken, with echo off) when it
    /// is encrypted and none was given.
    private func openRealm(readOnly: Bool) throws -> Realm {
        let key = try encryption.encryptionKey()
        do {
            return try RealmFiles.open(file, readOnly: readOnly, encryptionKey: key)
        } catch RealmError.encryption(_, let reason) where key == nil && reason == RealmError.missingKeyReason {
            // Not for a file that may be an encrypted Realm file: any file of whole 4 KiB pages
            // without a header looks like one, and a damaged file must not be met with a prompt.
            return try KeyPrompt.open(file, readOnly: readOnly)
        }
    }
}
