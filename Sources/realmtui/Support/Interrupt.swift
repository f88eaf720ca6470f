import Dispatch
import Foundation
import RealmEngine
#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM for a writing command. Before the write transaction has begun
/// (reading the input, waiting for the write lock) nothing is written yet, so a signal ends the
/// process at once with "interrupted: nothing was written"; inside the transaction it only sets
/// `requested`, which the command checks between objects and answers by cancelling the
/// transaction (the engine gives the space back) and failing with the same message.
final class Interrupt: @unchecked Sendable {
    private let lock = NSLock()
    private var _requested = false
    private var _exitsAtOnce = true
    private var sources: [DispatchSourceSignal] = []

    /// Whether a signal arrived while `exitsAtOnce` was false.
    var requested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return _requested
    }

    /// Whether a signal ends the process at once (true until the write transaction begins).
    var exitsAtOnce: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return _exitsAtOnce
        }
        set {
            lock.lock()
            _exitsAtOnce = newValue
            lock.unlock()
        }
    }

    /// Starts handling SIGINT and SIGTERM.
    ///
    /// - Throws: a `CLIFailure` when too few descriptors are left for libdispatch
    ///   (`Descriptors`), which would otherwise stop the process with SIGILL.
    static func install() throws -> Interrupt {
        let interrupt = Interrupt()
        interrupt.sources = try handleStopSignals { [interrupt] in interrupt.signalled() }
        return interrupt
    }

    private func signalled() {
        lock.lock()
        let atOnce = _exitsAtOnce
        _requested = true
        lock.unlock()
        if atOnce {
            Console.error("error: interrupted: nothing was written")
            _exit(130)
        }
    }

    /// Restores the default handling.
    func remove() {
        sources.forEach { $0.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// Beginning a write transaction from the command line: when another process holds the write
/// lock for more than a second, says so on stderr, so a blocked command does not look hung.
enum WriteLock {
    /// The delay before the waiting message.
    static let patience: DispatchTimeInterval = .seconds(1)

    /// `realm.beginWrite()`, with the waiting message for `path`.
    static func begin(_ realm: Realm, path: String) throws {
        let state = WaitState()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + patience)
        timer.setEventHandler {
            if state.markShown() {
                Console.error("waiting for another process that is writing to \(path)… (Ctrl-C cancels)")
            }
        }
        timer.resume()
        defer { timer.cancel() }
        try realm.beginWrite()
        state.finish()
    }

    private final class WaitState: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        func markShown() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return !done
        }
        func finish() {
            lock.lock()
            done = true
            lock.unlock()
        }
    }
}

/// SIGINT and SIGTERM handed to `handler` on a global queue instead of ending the process;
/// returns their sources (cancel them when done). `watch`, `sync` and the writing commands stop
/// cleanly this way.
///
/// - Throws: a `CLIFailure` when too few descriptors are left for libdispatch
///   (`Descriptors`), which would otherwise stop the process with SIGILL.
func handleStopSignals(_ handler: @escaping @Sendable () -> Void) throws -> [DispatchSourceSignal] {
    try Descriptors.requireFree()
    return [SIGINT, SIGTERM].map { sig in
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
