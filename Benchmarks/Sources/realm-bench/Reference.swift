/// The answer every task must give, computed from the generated data alone (never from an
/// engine), so a wrong answer fails the run instead of being timed.
struct Reference {
    let people: Int
    /// `count_filter`: people with `20 <= age < 30`.
    let countFilter: Int
    /// `query_string`: names that start with "A", names that contain "李" (by UTF-8 bytes,
    /// case-sensitive, as GLOB/instr and BEGINSWITH/CONTAINS without [c] compare).
    let queryString: [Int]
    /// `enumerate`: the sum of every age.
    let ageSum: Int64
    /// `pk_lookup`: the sum of the looked-up people's ages.
    let lookupSum: Int64
    /// `sort_first_page`: the 100 smallest names in byte order (SQLite's BINARY collation).
    let firstPage: [String]
    /// Ages of the people `insert_txn` adds (`Dataset` row `j % count` for the j-th).
    let txnAges: [Int64]
    /// People of the data with `age < 50` (what `delete_bulk` deletes).
    let young: Int

    init(_ data: Dataset, lookupIDs: [Int64], txnCount: Int) {
        people = data.count
        countFilter = data.ages.lazy.filter { $0 >= 20 && $0 < 30 }.count
        let li = Array("李".utf8)
        var startsA = 0, containsLi = 0
        for name in data.names {
            if name.utf8.first == UInt8(ascii: "A") { startsA += 1 }
            if Reference.contains(Array(name.utf8), li) { containsLi += 1 }
        }
        queryString = [startsA, containsLi]
        ageSum = data.ages.reduce(0, &+)
        lookupSum = lookupIDs.reduce(0) { $0 &+ data.ages[Int($1) - 1] }
        firstPage = Reference.smallest(100, of: data.names)
        txnAges = (0..<txnCount).map { data.ages[$0 % data.count] }
        young = data.ages.lazy.filter { $0 < 50 }.count
    }

    /// People after `insert_txn` added its people (when it ran).
    func afterInsertTxn(_ ran: Bool) -> Int { people + (ran ? txnAges.count : 0) }

    /// People left by `delete_bulk` (`age < 50` deleted) when `insert_txn` did (or did not) run.
    func afterDelete(insertTxnRan: Bool) -> Int {
        people - young + (insertTxnRan ? txnAges.lazy.filter { $0 >= 50 }.count : 0)
    }

    static func contains(_ h: [UInt8], _ needle: [UInt8]) -> Bool {
        guard h.count >= needle.count else { return false }
        for i in 0...(h.count - needle.count) where h[i] == needle[0] {
            if h[i..<(i + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The `k` smallest strings by UTF-8 bytes, in order (one pass, a sorted buffer of k).
    static func smallest(_ k: Int, of names: [String]) -> [String] {
        func less(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
        var best: [String] = []
        for name in names {
            if best.count == k, let last = best.last, !less(name, last) { continue }
            var lo = 0, hi = best.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if less(name, best[mid]) { hi = mid } else { lo = mid + 1 }
            }
            best.insert(name, at: lo)
            if best.count > k { best.removeLast() }
        }
        return best
    }
}
