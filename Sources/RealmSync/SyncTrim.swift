import Foundation
import RealmEngine

/// Trimming the feed, so the server does not keep every change forever.
extension SyncAgent {
    /// What `trimFeed` did.
    public struct Trim: Equatable, Sendable {
        /// Feed entries deleted.
        public var deleted: Int
        /// The last feed number handed out; entries after `last - keep` are kept.
        public var last: Int64
    }

    /// Deletes every feed entry but the newest `keep` (`realmtui sync trim FILE --keep N`). A
    /// client whose cursor is below what is left then finds a gap and copies the tables instead
    /// (`rebootstrap`), after uploading its own changes: nothing is lost, it only costs a copy.
    /// Uploads may go on meanwhile: they number after the counter, which this does not touch.
    /// - Throws: `RealmError.invalidInput` when `keep` is negative.
    public func trimFeed(keep: Int) throws -> Trim {
        guard keep >= 0 else {
            throw RealmError.invalidInput("the number of feed entries to keep must be 0 or more, got \(keep)")
        }
        let last = try SyncServerSchema.lastFeedNumber(db)
        let deleted = try db.execute("DELETE FROM realmtui_feed WHERE seq <= $1", [String(last - Int64(keep))]).affected
        return Trim(deleted: deleted, last: last)
    }
}
