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

    /// What `trimAcknowledged` did.
    public struct AcknowledgedTrim: Equatable, Sendable {
        /// Feed entries deleted.
        public var deleted: Int
        /// Every client still known has downloaded the feed through this entry (the smallest
        /// recorded cursor): entries up to it were deleted. Nil when no client is known.
        public var through: Int64?
        /// Clients known to the server after forgetting.
        public var clients: Int
        /// Clients forgotten: not seen for longer than asked.
        public var forgotten: Int
    }

    /// Deletes the feed entries every client known to the server has downloaded
    /// (`realmtui sync trim FILE --acknowledged`): those up to the smallest cursor in
    /// `realmtui_clients`, where every client is recorded from its `sync init` on and its cursor
    /// after each download. No client pays a copy of the tables for this trim.
    ///
    /// A client that never comes back would hold the feed forever: with `forgettingDays`,
    /// clients that have not downloaded for longer than that many days are forgotten first
    /// (deleted from `realmtui_clients`). Should one come back, it finds the gap, uploads its own
    /// changes and copies the tables (nothing is lost), and is known again from its next
    /// download. One SQL transaction, with the clients table locked against acknowledgements
    /// and registrations meanwhile.
    /// - Throws: `RealmError.invalidInput` when `forgettingDays` is negative or not finite.
    public func trimAcknowledged(forgettingDays days: Double? = nil) throws -> AcknowledgedTrim {
        if let days, !(days >= 0 && days.isFinite) {
            throw RealmError.invalidInput("the days after which a client is forgotten must be 0 or more, got \(days)")
        }
        return try db.transaction {
            try db.execute("LOCK TABLE realmtui_clients IN SHARE ROW EXCLUSIVE MODE")
            var forgotten = 0
            if let days {
                forgotten = try db.execute(
                    "DELETE FROM realmtui_clients WHERE seen < now() - make_interval(secs => $1::double precision)",
                    [String(days * 86_400)]
                ).affected
            }
            let row = try db.execute("SELECT count(*), min(cursor) FROM realmtui_clients").rows.first
            let clients = row?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
            guard let through = row?.last.flatMap({ $0 }).flatMap({ Int64($0) }) else {
                return AcknowledgedTrim(deleted: 0, through: nil, clients: clients, forgotten: forgotten)
            }
            let deleted = try db.execute("DELETE FROM realmtui_feed WHERE seq <= $1", [String(through)]).affected
            return AcknowledgedTrim(deleted: deleted, through: through, clients: clients, forgotten: forgotten)
        }
    }
}
