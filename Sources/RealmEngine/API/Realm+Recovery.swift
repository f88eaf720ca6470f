/// What opening the file had to recover from.
extension Realm {
    /// The version of the newest commit that could not be verified when the file was opened, if
    /// one was found in this session: torn by a crash or power loss, or damaged on disk (a
    /// flipped bit). The file then fell back to the version before it, and that commit is lost.
    ///
    /// When a header slot itself was damaged (`recoveredFromDamagedHeaderSlot`), the slot may
    /// have held the newest commit: this is the version it would have held (the version read + 1),
    /// which may or may not have been committed — there is no way to know.
    ///
    /// The causes cannot always be told apart, so the fallback is never silent: this property
    /// says it to every instance opened while any process of this session has the file open
    /// (the lock file carries it), `Realm.check(path:)` fails naming the version, and the command
    /// line prints a `warning:` line. `nil` when the newest commit verified.
    public var recoveredFromDamagedCommit: UInt64? {
        shared.lock.rejectedVersion
    }

    /// Whether the fallback (`recoveredFromDamagedCommit`) is because a header slot was damaged
    /// (its 512-byte sector zeroed or overwritten, or its checksum wrong): the file was read from
    /// the other slot. False when nothing was fallen back from.
    public var recoveredFromDamagedHeaderSlot: Bool {
        shared.lock.rejectedVersion != nil && shared.lock.rejectedCause == .damagedHeaderSlot
    }
}

extension Realm {
    /// The error `check` gives for a newest commit that could not be verified.
    static func lostCommitError(_ path: String, lost: UInt64, now: UInt64, cause: RejectedCause) -> RealmError {
        switch cause {
        case .unverifiedCommit:
            .corruptFile(path: path, offset: 64, reason: "the newest commit, version \(lost), could not be verified (cut short by a crash or damaged on disk); the file fell back to version \(now) and that commit is lost")
        case .damagedHeaderSlot:
            .corruptFile(path: path, offset: 64, reason: "a header slot is damaged (its 512-byte sector was zeroed or overwritten), so version \(lost), if it was committed, could not be verified; the file fell back to version \(now) in the other slot")
        }
    }

    /// The one-line warning for a fallback (`recoveredFromDamagedCommit`), for front ends.
    public var recoveryWarning: String? {
        guard let lost = recoveredFromDamagedCommit else { return nil }
        if recoveredFromDamagedHeaderSlot {
            return "\(path): a header slot is damaged, so version \(lost), if it was committed, could not be verified and is lost; reading version \(version) from the other slot"
        }
        return "\(path): the newest commit, version \(lost), could not be verified (cut short by a crash or damaged on disk); reading version \(version) before it"
    }
}
