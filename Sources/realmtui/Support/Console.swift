import CShims
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and error through `write(2)`: stdout is buffered here (one system call per
/// 64 KiB, flushed before exit), stderr is written at once. Only the main thread prints.
enum Console {
    private final class Buffer: @unchecked Sendable {
        var bytes: [UInt8] = []
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

    /// Appends a line to standard output.
    static func line(_ text: String) { write(text + "\n") }

    /// Writes out what standard output holds.
    static func flush() {
        out.lock.lock()
        defer { out.lock.unlock() }
        writeAll(1, out.bytes)
        out.bytes.removeAll(keepingCapacity: true)
    }

    /// Writes a line to standard error now.
    static func error(_ text: String) {
        writeAll(2, Array((text + "\n").utf8))
    }

    /// Writes to standard error without a newline (progress lines use `\r`).
    static func errorRaw(_ text: String) {
        writeAll(2, Array(text.utf8))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
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
