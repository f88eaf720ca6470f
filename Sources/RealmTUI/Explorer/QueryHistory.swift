import Foundation
import RealmEngine

/// Queries that worked, per class name, newest last; kept across runs in
/// `$XDG_STATE_HOME/realmtui/history.json` (else `~/.local/state/realmtui/`).
public struct QueryHistory: Sendable, Equatable {
    /// Entries per class name, oldest first.
    public private(set) var entries: [String: [String]]
    /// The most kept per class.
    public static let limit = 200

    /// A history holding `entries`.
    public init(entries: [String: [String]] = [:]) {
        self.entries = entries
    }

    /// The entries of one class, oldest first.
    public func queries(for className: String) -> [String] { entries[className] ?? [] }

    /// Records a query that worked (moved to the end when already there).
    public mutating func record(_ query: String, for className: String) {
        var list = entries[className] ?? []
        list.removeAll { $0 == query }
        list.append(query)
        if list.count > QueryHistory.limit { list.removeFirst(list.count - QueryHistory.limit) }
        entries[className] = list
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
    /// - Throws: when the file cannot be read or is not a history (the session then starts
    ///   with an empty history, says why, and leaves the file alone).
    public static func load(from url: URL) throws -> QueryHistory {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return QueryHistory()
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: [String]] else {
            throw RealmError.invalidInput("\(url.path) is not a query history (a JSON object of class name → queries)")
        }
        return QueryHistory(entries: object)
    }

    /// Writes the history file atomically, creating its folder.
    public func save(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys, .prettyPrinted])
        try data.write(to: url, options: .atomic)
    }
}
