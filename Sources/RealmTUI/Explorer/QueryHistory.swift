import Foundation
import RealmEngine

/// Queries that worked, per file and class, newest last; kept across runs in
/// `$XDG_STATE_HOME/realmtui/history.json` (else `~/.local/state/realmtui/`).
///
/// Keyed by the file's canonical path and the class name: a `Dog` of another file does not
/// offer this file's queries. Several explorers may save the same history file: `save(to:)`
/// takes a lock beside it (`history.json.lock`, flock), re-reads the file, merges (each query
/// at its newest use, newest last, `limit` a class) and writes under a temporary name renamed
/// over the file, so neither loses the other's queries and a reader never sees half a file.
///
/// File format: `{"version": 2, "files": {PATH: {CLASS: [{"query": …, "used": seconds}]}}}`.
public struct QueryHistory: Sendable, Equatable {
    /// Which queries: one class of one file.
    public struct Key: Hashable, Sendable {
        /// The file's canonical path (or `memory:IDENTIFIER` for an in-memory Realm).
        public var file: String
        /// The class name.
        public var className: String
        /// The key of `className` in `file`.
        public init(file: String, className: String) {
            self.file = file
            self.className = className
        }
    }

    /// One query and when it was last used (seconds since 1970), which orders merged lists.
    public struct Entry: Equatable, Sendable {
        public var query: String
        public var used: Double
    }

    /// Entries per file and class, oldest first.
    public private(set) var entries: [Key: [Entry]]
    /// The most kept per class of a file.
    public static let limit = 200

    /// An empty history.
    public init() {
        entries = [:]
    }

    /// The queries of one class of one file, oldest first.
    public func queries(file: String, className: String) -> [String] {
        (entries[Key(file: file, className: className)] ?? []).map(\.query)
    }

    /// Records a query that worked (moved to the end when already there).
    public mutating func record(_ query: String, file: String, className: String, at date: Date = Date()) {
        let key = Key(file: file, className: className)
        var list = entries[key] ?? []
        list.removeAll { $0.query == query }
        // Never older than the newest entry: a clock stepped back keeps "most recent last".
        let used = max(date.timeIntervalSince1970, list.last?.used ?? 0)
        list.append(Entry(query: query, used: used))
        if list.count > Self.limit { list.removeFirst(list.count - Self.limit) }
        entries[key] = list
    }

    /// This history and `other` together: each query at its newest use, newest last, the
    /// newest `limit` a class.
    public func merged(with other: QueryHistory) -> QueryHistory {
        var result = self
        for (key, theirs) in other.entries {
            var newest: [String: Double] = [:]
            for entry in (entries[key] ?? []) + theirs {
                newest[entry.query] = max(newest[entry.query] ?? 0, entry.used)
            }
            var list = newest.map { Entry(query: $0.key, used: $0.value) }
            list.sort { ($0.used, $0.query) < ($1.used, $1.query) }
            if list.count > Self.limit { list.removeFirst(list.count - Self.limit) }
            result.entries[key] = list
        }
        return result
    }

    /// The history key of the file a Realm has open: its canonical path (symbolic links
    /// resolved, so two names of one file share their history).
    public static func fileKey(for configuration: Realm.Configuration) -> String {
        if let url = configuration.fileURL {
            return url.standardizedFileURL.resolvingSymlinksInPath().path
        }
        return "memory:" + (configuration.inMemoryIdentifier ?? "")
    }

    /// The history file for an environment.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
        }
        return base.appendingPathComponent("realmtui/history.json")
    }

    /// Reads a history file; a missing one is an empty history.
    ///
    /// - Throws: when the file cannot be read or is not a history of this version (the
    ///   session then sets it aside with `setAside(_:)` and starts a new one).
    public static func load(from url: URL) throws -> QueryHistory {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return QueryHistory()
        }
        return try decode(data, path: url.path)
    }

    /// Moves a history file that cannot be read to `NAME.damaged` (replacing an older one),
    /// so a new history can be saved without destroying what the user may want to look at.
    /// Returns the new path.
    @discardableResult
    public static func setAside(_ url: URL) throws -> URL {
        let aside = url.appendingPathExtension("damaged")
        if rename(url.path, aside.path) != 0 {
            throw Self.ioError(url.path, "rename the damaged history to \(aside.lastPathComponent)")
        }
        return aside
    }

    /// Merges this history into the file (under the file's lock: re-read, merge, write under a
    /// temporary name, rename) and becomes the merged history. A file found damaged at this
    /// point is set aside (`setAside`) rather than overwritten.
    public mutating func save(to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lockPath = url.path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.ioError(lockPath, "open the history lock") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.ioError(lockPath, "lock the history (flock)") }
        }
        defer { flock(fd, LOCK_UN) }
        var onDisk = QueryHistory()
        do {
            onDisk = try Self.load(from: url)
        } catch {
            try Self.setAside(url)
        }
        let merged = onDisk.merged(with: self)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString)")
        do {
            try merged.encoded().write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw Self.ioError(url.path, "rename the new history over the old")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        self = merged
    }

    private static func ioError(_ path: String, _ operation: String) -> RealmError {
        let code = errno
        return .io(path: path, operation: operation, errno: code, message: String(cString: strerror(code)))
    }

    private func encoded() throws -> Data {
        var files: [String: [String: [[String: Any]]]] = [:]
        for (key, list) in entries {
            files[key.file, default: [:]][key.className] = list.map { ["query": $0.query, "used": $0.used] }
        }
        return try JSONSerialization.data(
            withJSONObject: ["version": 2, "files": files] as [String: Any],
            options: [.sortedKeys, .prettyPrinted])
    }

    private static func decode(_ data: Data, path: String) throws -> QueryHistory {
        let notHistory = RealmError.invalidInput(
            "\(path) is not a query history of this version (a JSON object {\"version\": 2, \"files\": …})")
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["version"] as? Int == 2,
            let files = object["files"] as? [String: Any]
        else { throw notHistory }
        var history = QueryHistory()
        for (file, value) in files {
            guard let classes = value as? [String: Any] else { throw notHistory }
            for (className, value) in classes {
                guard let items = value as? [[String: Any]] else { throw notHistory }
                var list: [Entry] = []
                for item in items {
                    guard let query = item["query"] as? String, let used = item["used"] as? Double else {
                        throw notHistory
                    }
                    list.append(Entry(query: query, used: used))
                }
                history.entries[Key(file: file, className: className)] = Array(list.suffix(limit))
            }
        }
        return history
    }
}
