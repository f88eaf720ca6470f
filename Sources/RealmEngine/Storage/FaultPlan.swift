import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test's plan of system-call failures (SQLite's test VFS idea, at the level of the calls):
/// the Nth call of the chosen kinds on a file under `folder` fails with an errno, or transfers
/// fewer bytes than asked — once, or that call and every matching one after it (a device that
/// went away, a disk that stays full).
///
/// Plans are scoped to a folder so that tests running in parallel in one process (each in its
/// own temporary folder) never see each other's faults. Installed with `install`, removed with
/// `remove`; the engine consults them in `SystemCalls` only.
final class FaultPlan: @unchecked Sendable {
    /// What a matching call does instead of its work.
    enum Failure: Equatable, Sendable {
        /// Fails with this errno (EIO, ENOSPC, EINTR, …).
        case error(Int32)
        /// Transfers half of what was asked (at least one byte): a short `pread`/`pwrite`.
        case short
    }

    /// Calls on paths equal to or under this folder are counted; others are never touched.
    let folder: String
    /// The kinds of call counted.
    let calls: Set<SystemCall>
    let failure: Failure
    /// The first call to fail, counting matching calls from 1; `Int.max` only counts.
    let nth: Int
    /// Whether every matching call after the Nth fails too.
    let sticky: Bool

    /// Runs before each matching call with its kind, path and how many calls of that kind have
    /// been seen (this one included): a test's hook to change the world between two calls.
    nonisolated(unsafe) var beforeCall: ((SystemCall, String, Int) -> Void)?

    private let lock = NSLock()
    private var _count = 0
    private var _fired: [(SystemCall, String)] = []
    private var _seen: [SystemCall: Int] = [:]

    /// A plan; `nth: .max` makes one that only counts (`count`), to learn how many calls a
    /// workload makes before enumerating them.
    init(
        folder: String, calls: Set<SystemCall> = Set(SystemCall.allCases), failure: Failure, nth: Int = .max,
        sticky: Bool = false
    ) {
        self.folder = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        self.calls = failure == .short ? calls.intersection(SystemCall.transfers) : calls
        self.failure = failure
        self.nth = nth
        self.sticky = sticky
    }

    /// Matching calls seen so far.
    var count: Int { lock.withLock { _count } }
    /// Matching calls seen so far, by kind.
    var seen: [SystemCall: Int] { lock.withLock { _seen } }
    /// The calls that failed (kind and path), in order.
    var fired: [(call: SystemCall, path: String)] { lock.withLock { _fired.map { ($0.0, $0.1) } } }

    private func covers(_ path: String) -> Bool {
        path == folder || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }

    /// Counts the call if it matches and says whether it fails now.
    private func strikes(_ kind: SystemCall, path: String) -> Bool {
        guard calls.contains(kind), covers(path) else { return false }
        let (fails, seenOfKind) = lock.withLock {
            _count += 1
            _seen[kind, default: 0] += 1
            let fails = _count == nth || (sticky && _count > nth)
            if fails { _fired.append((kind, path)) }
            return (fails, _seen[kind, default: 0])
        }
        beforeCall?(kind, path, seenOfKind)
        return fails
    }

    // MARK: The installed plans

    nonisolated(unsafe) private static var installed: [FaultPlan] = []
    private static let installedLock = NSLock()

    /// Makes `plan` active until `remove`.
    static func install(_ plan: FaultPlan) {
        installedLock.withLock {
            installed.append(plan)
        }
    }

    /// Deactivates `plan`.
    static func remove(_ plan: FaultPlan) {
        installedLock.withLock {
            installed.removeAll { $0 === plan }
        }
    }

    private static func active() -> [FaultPlan] {
        installedLock.withLock { installed }
    }

    /// The errno an `error` failure injects into this call now, if any (`SystemCalls`).
    static func fault(_ kind: SystemCall, path: String) -> Int32? {
        for plan in active() {
            guard case .error(let code) = plan.failure else { continue }
            if plan.strikes(kind, path: path) { return code }
        }
        return nil
    }

    /// How many of `count` bytes a `pread`/`pwrite` transfers now: fewer when a `short` plan
    /// strikes this call.
    static func transferLength(_ kind: SystemCall, path: String, _ count: Int) -> Int {
        for plan in active() where plan.failure == .short {
            if plan.strikes(kind, path: path) { return max(1, count / 2) }
        }
        return count
    }
}
