import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Two explorers save the same history file: each save re-reads the file under a lock and
/// merges, so neither loses the other's queries.
@Suite("Query history merge")
struct QueryHistoryMergeTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("realmtui-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func twoHistoriesSavingConcurrentlyLoseNeithersEntries() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("history.json")
        let errors = ErrorList()
        DispatchQueue.concurrentPerform(iterations: 2) { explorer in
            var history = QueryHistory()
            for n in 0..<15 {
                history.record("age > \(explorer * 100 + n)", file: "/a.realm", className: "Dog")
                do { try history.save(to: url) } catch { errors.append(error) }
            }
        }
        #expect(errors.all.isEmpty, "\(errors.all)")
        let saved = try QueryHistory.load(from: url).queries(file: "/a.realm", className: "Dog")
        let expected = (0..<2).flatMap { explorer in (0..<15).map { "age > \(explorer * 100 + $0)" } }
        #expect(Set(saved) == Set(expected), "missing: \(Set(expected).subtracting(saved).sorted())")
    }

    /// Merged lists keep each query at its newest use, newest last, bounded by `limit`.
    @Test func mergingKeepsTheNewestUseLastAndTheLimit() throws {
        var mine = QueryHistory()
        var theirs = QueryHistory()
        mine.record("a", file: "/f", className: "C", at: Date(timeIntervalSince1970: 10))
        theirs.record("b", file: "/f", className: "C", at: Date(timeIntervalSince1970: 20))
        mine.record("c", file: "/f", className: "C", at: Date(timeIntervalSince1970: 30))
        theirs.record("a", file: "/f", className: "C", at: Date(timeIntervalSince1970: 40))
        theirs.record("x", file: "/g", className: "C", at: Date(timeIntervalSince1970: 5))
        let merged = mine.merged(with: theirs)
        #expect(merged.queries(file: "/f", className: "C") == ["b", "c", "a"])
        #expect(merged.queries(file: "/g", className: "C") == ["x"])
        var many = QueryHistory()
        for n in 0..<QueryHistory.limit {
            many.record("q\(n)", file: "/f", className: "C", at: Date(timeIntervalSince1970: Double(n) / 100))
        }
        let bounded = many.merged(with: merged)
        #expect(bounded.queries(file: "/f", className: "C").count == QueryHistory.limit)
        #expect(bounded.queries(file: "/f", className: "C").suffix(3) == ["b", "c", "a"])
        #expect(!bounded.queries(file: "/f", className: "C").contains("q0"))
    }

    /// A damaged file met while saving is set aside, not overwritten.
    @Test func aFileDamagedBeforeASaveIsSetAside() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("history.json")
        let junk = Data("not json".utf8)
        try junk.write(to: url)
        var history = QueryHistory()
        history.record("age > 1", file: "/f", className: "Dog")
        try history.save(to: url)
        #expect(try Data(contentsOf: url.appendingPathExtension("damaged")) == junk)
        #expect(try QueryHistory.load(from: url).queries(file: "/f", className: "Dog") == ["age > 1"])
    }
}

final class ErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []
    func append(_ error: Error) { lock.withLock { errors.append(error) } }
    var all: [Error] { lock.withLock { errors } }
}
