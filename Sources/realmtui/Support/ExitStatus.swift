import ArgumentParser
import Foundation
import RealmEngine

/// A command's own failure, with a message for the `error:` line.
struct CLIFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

/// The mapping from errors to what the process prints and its exit status.
///
/// | error                                   | stderr                  | status |
/// |-----------------------------------------|-------------------------|--------|
/// | `--help`, `--version` (clean exits)     | (help on stdout)        | 0      |
/// | ArgumentParser parse/validation errors  | `error: <message>`      | 64     |
/// | `RealmError`                            | `error: <message> [<code>]` | 1  |
/// | `CLIFailure`, other errors              | `error: <message>`      | 1      |
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    /// BSD `EX_USAGE`, what ArgumentParser uses for validation errors.
    static let usage: Int32 = 64

    /// Prints what `error` calls for and exits.
    static func finish(after error: Error) -> Never {
        Console.flush()
        switch error {
        case let e as RealmError:
            Console.error(errorLine(for: e))
            exit(failure)
        case let e as CLIFailure:
            fail(e.description, status: failure)
        case let e as ExitCode:
            exit(e.rawValue)
        default:
            let code = RealmTUICommand.exitCode(for: error)
            if code == .success {
                if let unknown = unknownHelpTopic() {
                    fail(
                        "no subcommand '\(unknown)'" + NameSuggestion.hint(unknown, among: subcommandNames)
                            + " (see 'realmtui --help')",
                        status: usage)
                }
                // --help, --version: ArgumentParser's text is the output.
                Console.write(RealmTUICommand.fullMessage(for: error) + "\n")
                do { try Console.finish() } catch { fail(String(describing: error), status: failure) }
                exit(success)
            }
            if isUsageError(error) || code == .validationFailure {
                if let message = unknownFirstWord() { fail(message, status: usage) }
                fail(RealmTUICommand.message(for: error) + usageHint(), status: usage)
            }
            fail(RealmTUICommand.message(for: error), status: failure)
        }
    }

    /// Whether ArgumentParser raised `error` while reading the arguments (not a command's own).
    private static func isUsageError(_ error: Error) -> Bool {
        let name = String(reflecting: type(of: error))
        return name.hasPrefix("ArgumentParser.")
    }

    private static var subcommandNames: [String] { RealmTUICommand.subcommands.map { $0._commandName } + ["help"] }

    /// `realmtui help nosuch`: the topic when it is no subcommand (ArgumentParser shows the
    /// general help and exits 0).
    private static func unknownHelpTopic() -> String? {
        let args = Array(CommandLine.arguments.dropFirst())
        guard args.count >= 2, args[0] == "help", !args[1].hasPrefix("-"), !subcommandNames.contains(args[1]) else {
            return nil
        }
        return args[1]
    }

    /// The message for a first word that is no subcommand: the nearest subcommand, or for
    /// something that looks like a path, that the file does not exist.
    /// A first word that names an existing file went to the explorer (`Main.arguments`): its
    /// error is the explorer's (a bad option), not an unknown subcommand.
    private static func unknownFirstWord() -> String? {
        guard let first = CommandLine.arguments.dropFirst().first, !first.hasPrefix("-"),
            !subcommandNames.contains(first), !FileManager.default.fileExists(atPath: first)
        else { return nil }
        if let near = NameSuggestion.nearest(first, among: subcommandNames) {
            return "unknown subcommand '\(first)'; did you mean '\(near)'? (see 'realmtui --help')"
        }
        if first.contains(".") || first.contains("/") {
            return
                "\(first): no such file (to make one: realmtui create FILE --schema SCHEMA.json, or realmtui demo FILE)"
        }
        return "unknown subcommand '\(first)' (see 'realmtui --help')"
    }

    private static func usageHint() -> String {
        let words = CommandLine.arguments.dropFirst().prefix { !$0.hasPrefix("-") }
        let known = Set(RealmTUICommand.subcommands.map { $0._commandName })
        if let sub = words.first, known.contains(sub) { return " (see 'realmtui \(sub) --help')" }
        if let file = words.first, FileManager.default.fileExists(atPath: file) {
            return " (see 'realmtui explore --help')"
        }
        return " (see 'realmtui --help')"
    }

    /// Writes one `error:` line (newlines in the message become spaces) and exits.
    static func fail(_ message: String, status: Int32) -> Never {
        Console.error("error: " + oneLine(message))
        exit(status)
    }

    /// The one `error:` line of an engine error: its message (with a "did you mean" for a
    /// misspelt name, the key options for a missing key), ending in its stable code in brackets
    /// (`… [corrupt-file]`, for scripts; the README lists the codes).
    static func errorLine(for error: RealmError) -> String {
        let message =
            switch error {
            case .noSuchClass(let name):
                "no class named '\(name)'" + NameSuggestion.hint(name, among: KnownNames.classes)
            case .noSuchProperty(_, let property, let available):
                error.description + NameSuggestion.hint(property, among: available)
            case .encryption(let path, let reason) where reason == RealmError.missingKeyReason:
                EncryptionOptions.missingKeyMessage(path)
            default: error.description
            }
        return "error: " + oneLine(message) + " [\(error.code)]"
    }

    /// `message` with every line break replaced so it stays one line.
    static func oneLine(_ message: String) -> String {
        var text = message
        while text.hasPrefix("Error: ") || text.hasPrefix("error: ") { text.removeFirst(7) }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
