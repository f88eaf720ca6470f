import Foundation

/// One database behind the benchmark. Every method does the work of one task on the file in
/// `directory` and returns what it found, so the two engines' answers can be compared.
protocol BenchEngine: AnyObject {
    /// "realmtui", "sqlite", "typed" or "grdb".
    static var name: String { get }
    init(directory: URL) throws
    /// `insert_bulk`: every person in one durable transaction (into a new, empty file).
    func insertBulk(_ data: Dataset) throws
    /// `file_size` preparation: compact/checkpoint; returns the bytes on disk. Not timed.
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
    /// `open`: opens the existing file and reads the number of people.
    func openAndCount() throws -> Int
    /// `update_bulk`: sets `score` on every person in one durable transaction.
    func updateBulk(score: Double) throws
    /// `insert_txn`: `count` durable transactions of one new person each, ids from `firstID`.
    func insertSingles(_ data: Dataset, firstID: Int64, count: Int) throws
    /// `delete_bulk`: deletes the people with `age < 50` (half) in one durable transaction;
    /// returns how many are left.
    func deleteHalf() throws -> Int
    /// `changeset_sorted` / `changeset_filter`: the median seconds from a one-object commit to
    /// an observer's change set, and the change sets seen; nil for an engine without
    /// notifications.
    func changeSetLatency(sorted: Bool, commits: Int) throws -> (seconds: Double, answer: String)?
}

/// The size of a file in bytes, or 0 if it does not exist.
func fileBytes(_ url: URL) -> UInt64 {
    var st = stat()
    return stat(url.path, &st) == 0 ? UInt64(st.st_size) : 0
}
