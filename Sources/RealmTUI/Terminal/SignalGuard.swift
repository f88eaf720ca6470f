#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives the terminal back when a signal ends the process while the explorer has the screen.
///
/// Why a `sigaction` handler that writes bytes, not one that calls `endwin`: `endwin` is not
/// async-signal-safe (it takes ncurses' locks, formats output through its buffers and may
/// allocate), and the signal can arrive in the middle of ncurses drawing. Blocking the signals
/// and waiting for them on a thread is not sound either: the Swift runtime and Dispatch start
/// threads before `main` that do not block them, so the kernel may deliver the signal there.
/// Instead, before the screen is taken (`newterm` may switch to the alternate screen and turn
/// echo off before it returns), the backend prepares everything the restore needs:
/// - the terminal's own "leave" sequence from terminfo (`sgr0`, mouse reporting off, `cnorm`,
///   `rmkx`, `rmcup`), prefixed with CAN (0x18), which cancels an escape sequence ncurses may
///   have been half-way through writing when the signal came (replaced by `setRestore` once
///   mouse reporting is known, through a second buffer and one word-sized store);
/// - the `termios` settings from before `newterm`.
/// The handler then only calls `write(2)`, `tcsetattr(3)` and `_exit(2)`, all on POSIX's list of
/// async-signal-safe functions, and reads memory that was filled before it could run.
///
/// - SIGINT, SIGTERM, SIGHUP: restore, then exit with status 128 + signal (what a shell shows
///   for a process killed by the signal). One that was ignored on entry (`nohup`) stays ignored;
///   one that was blocked (inherited mask) is unblocked on the explorer's thread.
/// - SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT (a crash or a Swift trap): restore, put
///   back the action that was there before (the Swift runtime's backtracer, or the default) and
///   raise the signal again, so the crash is still reported — on a usable terminal.
/// - SIGTSTP/SIGCONT (ctrl-z, `fg`) and SIGWINCH are left to ncurses, which installs its own
///   handlers in `newterm` (leave the screen on stop, repaint on continue, resize).
enum SignalGuard {
    /// Signals that end the process after the terminal is restored.
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// Signals of a crash: the terminal is restored, then the previous action runs.
    static let crashing: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Records the current action of every guarded signal (call before `newterm`, which installs
    /// ncurses' own SIGINT/SIGTERM handlers), so `disarm` can put the original ones back.
    static func saveOriginalActions() {
        let saved = State.shared
        for signal in terminating + crashing {
            sigaction(signal, nil, saved.pointee.originals + Int(signal))
        }
    }

    /// Installs the handlers: from now on a guarded signal writes `restore` to `fd` and resets
    /// the terminal's modes to `modes` (nil: leaves them) before the process ends. Call it before
    /// `newterm`: ncurses switches to the alternate screen and turns echo off while it sets up,
    /// and a signal then must restore the terminal too (ncurses leaves a handler it finds in
    /// place and installs its own SIGINT/SIGTERM ones only over the default action).
    static func arm(restore: [UInt8], fd: Int32, modes: termios?) {
        let state = State.shared
        state.pointee.fd = fd
        if let modes {
            state.pointee.modes = modes
            state.pointee.hasModes = true
        } else {
            state.pointee.hasModes = false
        }
        setRestore(restore)
        for signal in terminating where !wasIgnored(signal) { install(signal, handler: guardedTerminatingSignal) }
        for signal in crashing { install(signal, handler: guardedCrashSignal) }
        // A parent may have left these blocked (children inherit the mask of the thread that
        // spawned them; Dispatch's worker threads block nearly everything): the explorer must get
        // them on this thread, as must ncurses (SIGWINCH, SIGTSTP, SIGCONT).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in terminating + [SIGWINCH, SIGTSTP, SIGCONT] { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, &state.pointee.mask)
    }

    /// Replaces the bytes an armed handler writes (once the screen's set-up knows them, e.g.
    /// whether mouse reporting is on). They go to the buffer no handler reads, which is then
    /// made current by one word-sized store, so a signal during the change writes the old bytes
    /// or the new, never a mix.
    static func setRestore(_ restore: [UInt8]) {
        let state = State.shared
        let next = 1 - state.pointee.current
        let buffer = state.pointee.bytes + next * State.capacity
        let count = min(restore.count, State.capacity)
        for (i, byte) in restore.prefix(count).enumerated() { buffer[i] = byte }
        state.pointee.counts[next] = count
        state.pointee.current = next
    }

    /// Whether `signal` was ignored when the program started (`nohup`, `trap '' INT`): a choice
    /// of the caller's, kept.
    private static func wasIgnored(_ signal: Int32) -> Bool {
        let original = State.shared.pointee.originals[Int(signal)]
        #if canImport(Glibc)
            let handler = original.__sigaction_handler.sa_handler
        #else
            let handler = original.__sigaction_u.__sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == 1  // SIG_IGN
    }

    /// Puts back the actions saved by `saveOriginalActions` (call before `endwin`).
    static func disarm() {
        let state = State.shared
        for signal in terminating + crashing {
            sigaction(signal, state.pointee.originals + Int(signal), nil)
        }
        pthread_sigmask(SIG_SETMASK, &state.pointee.mask, nil)
    }

    private static func install(_ signal: Int32, handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
        #else
            action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        // No second guarded signal may interrupt the restore half-way.
        for other in terminating { sigaddset(&action.sa_mask, other) }
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }
}

/// What the handlers read: allocated once, filled before the handlers are armed, never freed
/// (a handler may still be running while a later `arm` or `disarm` happens on the main thread).
private struct State {
    static let capacity = 512
    var fd: Int32 = 1
    /// Two buffers of `capacity` bytes: the handler writes `current`'s, `setRestore` fills the other.
    var bytes: UnsafeMutablePointer<UInt8>
    var counts: UnsafeMutablePointer<Int>
    var current = 0
    var modes = termios()
    var hasModes = false
    /// The thread's signal mask before `arm`.
    var mask = sigset_t()
    /// The actions before `newterm`, indexed by signal number.
    var originals: UnsafeMutablePointer<sigaction>

    /// The one instance (created on first use, on the main thread, before any handler is armed).
    nonisolated(unsafe) static let shared: UnsafeMutablePointer<State> = {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * capacity)
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        counts.initialize(repeating: 0, count: 2)
        let originals = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        originals.initialize(repeating: sigaction(), count: 65)
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State(bytes: bytes, counts: counts, originals: originals))
        return state
    }()
}

/// Writes the restore bytes and resets the terminal modes; async-signal-safe (see `SignalGuard`).
private func restoreTerminalFromHandler() {
    let state = State.shared
    let current = state.pointee.current
    let bytes = state.pointee.bytes + current * State.capacity
    let count = state.pointee.counts[current]
    var offset = 0
    while offset < count {
        let written = write(state.pointee.fd, bytes + offset, count - offset)
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            break  // a hung-up terminal (EIO): nothing more to restore on it
        }
    }
    if state.pointee.hasModes {
        _ = tcsetattr(state.pointee.fd, TCSANOW, &state.pointee.modes)
    }
}

private func guardedTerminatingSignal(_ signal: Int32) {
    restoreTerminalFromHandler()
    _exit(128 + signal)
}

private func guardedCrashSignal(_ signal: Int32) {
    restoreTerminalFromHandler()
    let originals = State.shared.pointee.originals
    // One call per signal: no array may be built (allocated) inside a handler.
    sigaction(SIGSEGV, originals + Int(SIGSEGV), nil)
    sigaction(SIGBUS, originals + Int(SIGBUS), nil)
    sigaction(SIGILL, originals + Int(SIGILL), nil)
    sigaction(SIGTRAP, originals + Int(SIGTRAP), nil)
    sigaction(SIGFPE, originals + Int(SIGFPE), nil)
    sigaction(SIGABRT, originals + Int(SIGABRT), nil)
    sigaction(SIGINT, originals + Int(SIGINT), nil)
    sigaction(SIGTERM, originals + Int(SIGTERM), nil)
    sigaction(SIGHUP, originals + Int(SIGHUP), nil)
    // Blocked while this handler runs; delivered (to the previous action) when it returns. A
    // fault would also repeat when the faulting instruction runs again.
    raise(signal)
}
