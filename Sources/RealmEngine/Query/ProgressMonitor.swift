/// Progress and cancellation of long reads: evaluating a query object by object (through links),
/// reading sort values, sorting, finding distinct values.
///
/// A front end that must stay responsive runs its reads inside `monitor.run { … }`; every few
/// thousand objects the engine calls the monitor's handler on the same thread with how far it
/// is (`done` of `total`; total 0 when unknown). The handler draws a progress line and checks for
/// a cancel key; returning false cancels: the read throws `RealmError.cancelled` (then every
/// later report in the same `run` throws too, so a cancelled step never half-continues). Nothing
/// is cached from a cancelled read. Reads outside `run` are never interrupted.
///
/// Timeline on the explorer's thread:
///
///     key ─ run { update: filter 1M objects ─ report(4096) ─ report(8192) … ─ handler → false }
///                                             └ draws "filtering… 1%"        └ Esc read: throws
public final class ProgressMonitor: @unchecked Sendable {
    // Used only by the thread that runs `run` (the handler is called on it), so unguarded.
    private let handler: (_ done: Int, _ total: Int) -> Bool
    /// Whether the handler asked to stop.
    public private(set) var isCancelled = false

    /// A monitor calling `handler(done, total)`; return false from it to cancel.
    public init(_ handler: @escaping (_ done: Int, _ total: Int) -> Bool) {
        self.handler = handler
    }

    @TaskLocal static var current: ProgressMonitor?

    /// Runs `body` with this monitor watching the long reads it makes on this thread.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try ProgressMonitor.$current.withValue(self) { try body() }
    }

    /// How many objects a loop handles between two reports.
    static let stride = 4096

    /// Reports progress to the current monitor, if any, when `done` is a multiple of `stride`.
    /// Throws `RealmError.cancelled` once the monitor's handler asked to stop.
    @inline(__always)
    static func tick(_ done: Int, of total: Int) throws {
        guard done % stride == 0, done > 0, let monitor = current else { return }
        try monitor.report(done, of: total)
    }

    /// Reports progress to the current monitor, if any (whatever `done` is).
    static func report(_ done: Int, of total: Int) throws {
        try current?.report(done, of: total)
    }

    private func report(_ done: Int, of total: Int) throws {
        if isCancelled { throw RealmError.cancelled }
        if !handler(done, total) {
            isCancelled = true
            throw RealmError.cancelled
        }
    }

    /// For loops that cannot throw (a sort's comparator): whether the current monitor, if any,
    /// asked to stop, reporting progress first. The caller finishes its loop cheaply and then
    /// calls `throwIfCancelled`.
    static func shouldStop(_ done: Int, of total: Int) -> Bool {
        guard let monitor = current else { return false }
        return (try? monitor.report(done, of: total)) == nil
    }

    /// Throws `RealmError.cancelled` if the current monitor was cancelled.
    static func throwIfCancelled() throws {
        if current?.isCancelled == true { throw RealmError.cancelled }
    }
}
