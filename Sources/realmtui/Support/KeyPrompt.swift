import Foundation
import RealmEngine
import RealmTUI
#if canImport(Glibc)
    import Glibc
#endif

/// Asks on the terminal for the key of an encrypted file the explorer was given without one
/// (SPEC §8: "a prompt for the key when needed"), with echo off so the key is not left on the
/// screen or in the scrollback. Only used when standard input and output are terminals.
enum KeyPrompt {
    /// How many times a wrong or malformed key may be typed before giving up.
    static let attempts = 3

    /// Opens `path` with a key typed by the user. Empty input, end of file or three wrong keys
    /// end with the error the other commands give.
    static func open(_ path: String, readOnly: Bool, upgradeFormat: Bool = false) throws -> Realm {
        var lastError: Error = CLIFailure(EncryptionOptions.missingKeyMessage(path))
        for _ in 0..<attempts {
            guard let line = readHidden("\(path) is encrypted. Key (128 hex digits, empty to give up): "),
                !line.trimmingCharacters(in: .whitespaces).isEmpty
            else { break }
            do {
                let key = try EncryptionOptions.parse(hex: line, what: "the key")
                return try RealmFiles.open(path, readOnly: readOnly, encryptionKey: key, upgradeFormat: upgradeFormat)
            } catch let error as RealmError {
                guard case .encryption = error else { throw error }
                lastError = error
                Console.error("\(error)")
            } catch {
                lastError = error
                Console.error("\(error)")
            }
        }
        throw lastError
    }

    /// One line read from standard input with echo off (restored afterwards), or nil at end of file.
    private static func readHidden(_ prompt: String) -> String? {
        // Echo off before the prompt shows, so nothing typed after it is echoed; TCSANOW, not
        // TCSAFLUSH, which would throw away a key typed ahead.
        var saved = termios()
        let haveTerminal = tcgetattr(0, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        Console.errorRaw(sanitizeForTerminal(prompt))
        defer {
            if haveTerminal { tcsetattr(0, TCSANOW, &saved) }
            Console.errorRaw("\n")
        }
        return Swift.readLine(strippingNewline: true)
    }
}
