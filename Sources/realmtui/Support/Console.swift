import CShims
import Foundation
import RealmTUI
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and error through `write(2)`: stdout is buffered here (one system call per
/// 64 KiB, flushed before exit), stderr is written at once. Only the main thread prints.
///
/// Lines for people (`line`, `error`) go through the explorer's `sanitizeForTerminal`: class and
/// property names, values and reasons come from files, and a crafted one must not reach the
/// terminal as an escape sequence (a colour, a new window title, a rewritten screen). Control
/// characters show as Control Pictures (ESC as `␛`). Machine formats (JSON, CSV) are written
/// exactly as they are with `write` and `rawLine`.
///
/// A failed write to stdout is kept (`outputFailure`) and nothing more is written to it; `finish()`
/// turns it into the command's error, so output cut short by a full disk (ENOSPC) or an I/O error
/// (EIO) ends in `error: cannot write the output: …` and status 1, never in a silent 0. A reader
/// that closed the pipe (EPIPE, `| head`, with SIGPIPE ignored; by default the signal ends the
/// process) is no error: like every Unix filter the command stops writing and says nothing.
enum Console {
    private final class Buffer: @unchecked Sendable {
        var bytes: [UInt8] = []
        /// The errno of the first failed write to stdout (0: none).
        var failure: Int32 = 0
        let lock = NSLock()
    }
    private static let out = Buffer()
    private static let limit = 64 * 1024

    /// Appends text to standard output.
    static func write(_ text: String) {
        out.lock.lock()
        out.bytes.append(contentsOf: text.utf8)
        let full = out.bytes.count >= limit
        out.lock.unlock()
        if full { flush() }
    }

    /// Appends a line for people to standard output, its control characters made visible.
    static func line(_ text: String) { write(sanitizeForTerminal(text) + "\n") }

    /// Appends a line of a machine format (JSON) to standard output, exactly as it is.
    static func rawLine(_ text: String) { write(text + "\n") }

    /// Writes out what standard output holds (dropped after a failed write: see `outputFailure`).
    static func flush() {
        out.lock.lock()
        defer { out.lock.unlock() }
        if out.failure == 0 { out.failure = writeAll(1, out.bytes) }
        out.bytes.removeAll(keepingCapacity: true)
    }

    /// The errno of the first failed write to standard output, or nil while every write succeeded.
    static var outputFailure: Int32? {
        out.lock.lock()
        defer { out.lock.unlock() }
        return out.failure == 0 ? nil : out.failure
    }

    /// Whether standard output can take no more: a write to it failed (the reader is gone or
    /// the disk is full). A command that writes without end (`watch`) stops then.
    static var outputClosed: Bool { outputFailure != nil }

    /// Flushes standard output at the end of a command.
    ///
    /// - Throws: a `CLIFailure` ("cannot write the output: No space left on device") when a write
    ///   to standard output failed, other than EPIPE (the reader closed the pipe early).
    static func finish() throws {
        flush()
        if let failure = outputFailure, failure != EPIPE {
            throw CLIFailure("cannot write the output: \(String(cString: strerror(failure)))")
        }
    }

    /// Writes a line to standard error now, its control characters made visible.
    static func error(_ text: String) {
        writeAll(2, Array((sanitizeForTerminal(text) + "\n").utf8))
    }

    /// Writes to standard error without a newline, exactly as it is (progress lines use `\r`
    /// and an erase sequence): only text of our own, never a name or value from a file.
    static func errorRaw(_ text: String) {
        writeAll(2, Array(text.utf8))
    }

    /// Writes every byte to `fd`, retrying after EINTR; the errno of a failed write, else 0.
    @discardableResult
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let n = posixWrite(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return 0
        }
    }

    /// Whether standard error is a terminal (progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }

    /// The width tables are fitted to: the terminal's own width when standard output is a
    /// terminal (`ioctl(TIOCGWINSZ)`), else `$COLUMNS` when set, else 80.
    static var width: Int {
        width(terminalColumns: Int(rt_terminal_columns(1)), environment: ProcessInfo.processInfo.environment)
    }

    /// The rule of `width`, given what the terminal reported (0: not a terminal).
    static func width(terminalColumns: Int, environment: [String: String]) -> Int {
        if terminalColumns > 0 { return terminalColumns }
        if let text = environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        return 80
    }
}

private func posixWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(fd, pointer, count)
    #else
        Darwin.write(fd, pointer, count)
    #endif
}
