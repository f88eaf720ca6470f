import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One database behind the benchmark. Every method does the work of one task on the file in
/// `directory` and returns what it found, so each answer can be checked against the reference
/// computed from the generated data (`Reference`).
protocol BenchEngine: AnyObject {
    /// "realmtui", "sqlite", "sqlite-tuned", "capi", "capi-tuned", "typed", "grdb" or "encrypted".
    static var name: String { get }
    /// Whether this is one of the SQLite columns the ratio takes its best from.
    static var isSQLite: Bool { get }
    init(directory: URL) throws
    /// `insert_bulk`: every person in one durable transaction (into a new, empty file).
    func insertBulk(_ data: Dataset) throws
    /// `file_size` preparation: compact/checkpoint; returns the bytes on disk. Not timed.
    /// Leaves the file closed.
    func compactAndMeasure() throws -> UInt64
    /// `count_filter`: `age >= 20 AND age < 30`, counted `times` times; returns the last count.
    func countFilter(times: Int) throws -> Int
    /// `query_string`: counts of `name BEGINSWITH 'A'` and `name CONTAINS '李'`.
    func queryString() throws -> [Int]
    /// `enumerate`: the sum of every person's age, reading objects one by one.
    func enumerateAges() throws -> Int64
    /// `pk_lookup`: finds each id and reads its age; returns the sum of the ages.
    func lookup(_ ids: [Int64]) throws -> Int64
    /// `sort_first_page`: the names of the first 100 people by name (no index).
    func sortFirstPage() throws -> [String]
    /// Closes everything this object has open on the file (not timed).
    func close() throws
    /// `open`: opens the existing file, ready to read and write (closed before), and nothing
    /// more: no count, no check. Before the other tasks it is called untimed, so each read
    /// task starts on a fresh connection/instance (no pages or leaf views kept from earlier).
    func open() throws
    /// Before a task, not timed: closes, opens afresh and checks the settings (durability, tuning).
    func prepare() throws
    /// `count`: the number of people (also the untimed check after each write task).
    func count() throws -> Int
    /// The number of people whose score is `score` (the untimed check of `update_bulk`).
    func countScore(_ score: Double) throws -> Int
    /// `update_bulk`: sets `score` on every person in one durable transaction.
    func updateBulk(score: Double) throws
    /// `insert_txn`: `count` durable transactions of one new person each, ids from `firstID`.
    func insertSingles(_ data: Dataset, firstID: Int64, count: Int) throws
    /// `delete_bulk`: deletes the people with `age < 50` in one durable transaction (the
    /// count that checks it is not timed).
    func deleteHalf() throws
    /// `changeset_sorted` / `changeset_filter`: the median seconds from a one-object commit to
    /// an observer's change set, and the change sets seen; nil for an engine without
    /// notifications.
    func changeSetLatency(sorted: Bool, commits: Int) throws -> (seconds: Double, answer: String)?
    /// The forms in which this engine stores the items of the set and dictionary tasks
    /// (`CollectionData`); empty for an engine without those tasks.
    static var collectionForms: [CollectionForm] { get }
    /// `insert_items`: every item in one durable transaction, into a new file of `form`
    /// (beside the people's file). Leaves that file open.
    func insertCollections(_ data: CollectionData, form: CollectionForm) throws
    /// Before a collection task, not timed: closes everything and opens the file of `form`
    /// afresh (checked as `prepare` checks), so the task starts on a fresh connection.
    func prepareCollections(form: CollectionForm) throws
    /// The items in the file of `form` (the untimed check of `insert_items`).
    func countItems(form: CollectionForm) throws -> Int
    /// A set or dictionary task: the count of `task` over the items in the file of `form`.
    func countCollection(_ task: CollectionTask, form: CollectionForm) throws -> Int
}

extension BenchEngine {
    static var isSQLite: Bool { false }
    static var collectionForms: [CollectionForm] { [] }
    func insertCollections(_ data: CollectionData, form: CollectionForm) throws { throw noCollections }
    func prepareCollections(form: CollectionForm) throws { throw noCollections }
    func countItems(form: CollectionForm) throws -> Int { throw noCollections }
    func countCollection(_ task: CollectionTask, form: CollectionForm) throws -> Int { throw noCollections }
    private var noCollections: BenchError { BenchError("\(Self.name) has no set and dictionary tasks") }
    func prepare() throws {
        try close()
        try open()
    }
}

/// The size of a file in bytes, or 0 if it does not exist.
func fileBytes(_ url: URL) -> UInt64 {
    var st = stat()
    return stat(url.path, &st) == 0 ? UInt64(st.st_size) : 0
}

/// Drops the page cache of every file in `directory` (`posix_fadvise(POSIX_FADV_DONTNEED)`
/// after an `fsync`, which only dirty pages would survive), so the next task reads from disk.
/// Called with the engine's files closed, since pages still mapped by a process stay cached.
func dropPageCache(_ directory: URL) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    for name in names {
        let path = directory.appendingPathComponent(name).path
        let fd = Glibc.open(path, O_RDONLY)
        guard fd >= 0 else { continue }
        defer { Glibc.close(fd) }
        _ = fsync(fd)
        let rc = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
        guard rc == 0 else { throw BenchError("posix_fadvise(DONTNEED) failed on \(path): \(rc)") }
    }
}

/// A failure of the benchmark itself (an engine that cannot be set up as asked).
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The median of `xs` (NaN when empty).
func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    if s.isEmpty { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
