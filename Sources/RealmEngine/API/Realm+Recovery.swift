/// What opening the file had to recover from.
extension Realm {
    /// The version of the newest commit that could not be verified when the file was opened, if
    /// one was found in this session: torn by a crash or power loss, or damaged on disk (a
    /// flipped bit). The file then fell back to the version before it, and that commit is lost.
    ///
    /// The two causes cannot always be told apart, so the fallback is never silent: this property
    /// says it to every instance opened while any process of this session has the file open
    /// (the lock file carries it), `Realm.check(path:)` fails naming the version, and the command
    /// line prints a `warning:` line. `nil` when the newest commit verified.
    public var recoveredFromDamagedCommit: UInt64? {
        shared.lock.rejectedVersion
    }
}

extension Realm {
    /// The error `check` gives for a newest commit that could not be verified.
    static func lostCommitError(_ path: String, lost: UInt64, now: UInt64) -> RealmError {
        .corruptFile(path: path, offset: 64, reason: "the newest commit, version \(lost), could not be verified (cut short by a crash or damaged on disk); the file fell back to version \(now) and that commit is lost")
    }

    /// The one-line warning for a fallback (`recoveredFromDamagedCommit`), for front ends.
    public var recoveryWarning: String? {
        recoveredFromDamagedCommit.map {
            "\(path): the newest commit, version \($0), could not be verified (cut short by a crash or damaged on disk); reading version \(version) before it"
        }
    }
}
