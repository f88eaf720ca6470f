import ArgumentParser
import Foundation
import RealmCoreFormat
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
            Usage: realmtui FILE [--read-only | --write] [--key HEX | --key-file PATH]. Needs a terminal; in scripts use \
            'realmtui schema' and 'realmtui query'. The file opens read-only with --read-only, when it (or its \
            folder, for the lock file) is not writable, or when it is a bundled seed file (in a Resources/ \
            folder) opened without --write. A Realm file (Realm Core's format) is edited \
            in place, its lock held until you quit (a Realm app opening it waits); it opens \
            read-only while an app has it open, and a format 20-23 file needs --upgrade-format.
            """
    )

    @Argument(help: "The database file.")
    var file: String

    @Flag(name: .long, help: "Open the file read-only.")
    var readOnly = false

    @Flag(
        name: .long, help: "Edit a bundled seed file (a file in a Resources/ folder), which otherwise opens read-only.")
    var write = false

    @OptionGroup var encryption: EncryptionOptions

    @OptionGroup var realmFile: RealmFileWriteOptions

    func validate() throws {
        if readOnly && write { throw ValidationError("--read-only and --write contradict each other: give one") }
    }

    func run() throws {
        // A file that is not there is the first thing to say, terminal or not.
        try RealmFiles.requireRegularFile(file)
        guard isatty(0) == 1, isatty(1) == 1 else {
            Console.error(
                "error: the explorer needs a terminal on standard input and output; "
                    + "in scripts use 'realmtui schema FILE' or 'realmtui query FILE CLASS [QUERY]'")
            throw ExitCode(ExitStatus.usage)
        }
        let isRealmFile = RealmCoreFiles.isRealmFile(file)
        var readOnlyReason = ExplorerOpen.readOnlyReason(path: file, requested: readOnly, editSeedFile: write)
        if isRealmFile, readOnlyReason == nil, try RealmCoreFileAccess.isInUseByRealmApp(path: file) {
            readOnlyReason =
                "a Realm app has it open (it holds \((file as NSString).lastPathComponent).lock), and realmtui "
                + "changes a Realm file only while no Realm process has it open"
        }
        // A Realm file is opened for editing (its lock held for the session); what refuses that
        // (an app that opened it meanwhile, a synced Realm, an older format, what the conversion
        // leaves out) opens it read-only with the reason.
        var realm: Realm
        if isRealmFile && readOnlyReason == nil {
            do {
                realm = try openRealm(readOnly: false)
            } catch let error as RealmError where !Self.isKeyError(error) {
                readOnlyReason = describe(error)
                realm = try openRealm(readOnly: true)
            } catch let error as CLIFailure {
                readOnlyReason = error.description
                realm = try openRealm(readOnly: true)
            }
        } else {
            realm = try openRealm(readOnly: readOnlyReason != nil)
        }
        let openReadOnly = readOnlyReason != nil
        let editing = RealmCoreFiles.editSession(of: realm)
        // Handed to the session, which hands it to the explorer: no reference stays here, so the
        // original closes when `:copy` moves the explorer to a copy.
        let session = ExplorerSession(
            realm: realm, path: file, readOnly: openReadOnly,
            readOnlyReason: isRealmFile ? realmFileReason(readOnlyReason) : readOnlyReason,
            copyLeavesOut: RealmCoreFiles.lastOpened?.omissionSummary)
        session.syncStarter = ExplorerSyncAgent.starter
        if let editing {
            session.beforeCommit = { realm in try editing.commit(realm) }
            session.fileNote = ExplorerSession.realmFileLockNote
            session.openingMessage =
                "editing a Realm file (format \(editing.formatVersion))"
                + ": each commit rewrites it whole in format \(RealmCoreWriter.formatVersion); its lock is held until you quit, "
                + "so a Realm app opening it waits until then"
        }
        let terminal: NCursesTerminal
        do {
            terminal = try NCursesTerminal()
        } catch let error as TerminalError {
            throw CLIFailure(error.description)
        }
        defer { terminal.close() }
        // The lock is held until the session ends (`editing` released after the run).
        try withExtendedLifetime(editing) { try session.run(on: terminal) }
    }

    /// Errors about the key (a missing or wrong one), which end the explorer as in every command
    /// rather than opening the file read-only.
    private static func isKeyError(_ error: RealmError) -> Bool {
        if case .encryption = error { return true }
        return false
    }

    /// What the status line says of a Realm file opened read-only (`reason`: why), nil when it
    /// is open for editing.
    private func realmFileReason(_ reason: String?) -> String? {
        guard let reason else { return nil }
        guard let realmFile = RealmCoreFiles.lastOpened else { return reason }
        return "a Realm file (format \(realmFile.formatVersion)): \(reason)"
            + (realmFile.inUseCopyTakenAt.map { "; read from a copy taken at \(RealmCoreFiles.Facts.clock($0))" } ?? "")
            + (realmFile.omissionSummary.map { "; not shown yet: \($0)" } ?? "")
    }

    /// The file opened, asking for its key (before the screen is taken, with echo off) when it
    /// is encrypted and none was given.
    private func openRealm(readOnly: Bool) throws -> Realm {
        let key = try encryption.encryptionKey()
        do {
            return try RealmFiles.open(
                file, readOnly: readOnly, encryptionKey: key, upgradeFormat: realmFile.upgradeFormat)
        } catch RealmError.encryption(_, let reason) where key == nil && reason == RealmError.missingKeyReason {
            // Not for a file that may be an encrypted Realm file: any file of whole 4 KiB pages
            // without a header looks like one, and a damaged file must not be met with a prompt.
            return try KeyPrompt.open(file, readOnly: readOnly, upgradeFormat: realmFile.upgradeFormat)
        }
    }
}
