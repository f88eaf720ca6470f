import Foundation

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
    /// (the lock file carries it), `Realm.check(path:)` warns naming the version, and the command
    /// line prints a `warning:` line. The commit's bytes are kept (`setAsideCopies`). `nil` when the newest commit verified.
    public var recoveredFromDamagedCommit: UInt64? {
        shared.lock.rejectedVersion
    }

    /// Whether the fallback (`recoveredFromDamagedCommit`) is because a header slot was damaged
    /// (its 512-byte sector zeroed or overwritten, or its checksum wrong): the file was read from
    /// the other slot. False when nothing was fallen back from.
    public var recoveredFromDamagedHeaderSlot: Bool {
        shared.lock.rejectedVersion != nil && shared.lock.rejectedCause == .damagedHeaderSlot
    }

    /// Whether the fallback (`recoveredFromDamagedCommit`) is because the newer copy of an
    /// encrypted file's page holding the newest header slot does not verify: a write cut short
    /// by a power loss (that commit never returned) or damage. The older copy was read; nothing
    /// of the lost version can be salvaged, and `check` passes with a warning unless the lock
    /// file knew the version was committed (then it is a rollback, and `check` fails).
    public var recoveredFromUnreadableSlotPage: Bool {
        shared.lock.rejectedVersion != nil && shared.lock.rejectedCause == .unreadableSlotPage
    }
}

extension Realm {
    /// The error `check` gives for a newest commit that could not be verified.
    static func lostCommitError(_ path: String, lost: UInt64, now: UInt64, cause: RejectedCause) -> RealmError {
        switch cause {
        case .unverifiedCommit:
            .corruptFile(
                path: path, offset: 64,
                reason:
                    "the newest commit, version \(lost), could not be verified (cut short by a crash or damaged on disk); the file fell back to version \(now) and that commit is lost"
            )
        case .damagedHeaderSlot:
            .corruptFile(
                path: path, offset: 64,
                reason:
                    "a header slot is damaged (its 512-byte sector was zeroed or overwritten), so version \(lost), if it was committed, could not be verified; the file fell back to version \(now) in the other slot"
            )
        case .rolledBack:
            .corruptFile(path: path, offset: 64, reason: Realm.rolledBackReason(lost: lost, now: now))
        case .unreadableSlotPage:
            .corruptFile(path: path, offset: 0, reason: Realm.unreadableSlotPageReason(lost: lost, now: now))
        }
    }

    /// The one-line warning for a fallback (`recoveredFromDamagedCommit`) or for set-aside
    /// commits kept beside the file (`setAsideCopies`), for front ends.
    public var recoveryWarning: String? {
        let copies = setAsideCopies
        guard let lost = recoveredFromDamagedCommit else {
            guard !copies.isEmpty else { return nil }
            return copies.map {
                "\(path): version \($0.version) was set aside earlier; " + Self.keptNote($0, file: path)
            }
            .joined(separator: "\n")
        }
        if shared.lock.rejectedCause == .rolledBack {
            return "\(path): " + Realm.rolledBackReason(lost: lost, now: version)
        }
        if shared.lock.rejectedCause == .unreadableSlotPage {
            return "\(path): " + Realm.unreadableSlotPageReason(lost: lost, now: version)
        }
        if recoveredFromDamagedHeaderSlot {
            return
                "\(path): a header slot is damaged, so version \(lost), if it was committed, could not be verified and is lost; reading version \(version) from the other slot"
        }
        let kept = copies.first { $0.version == lost }
        let keptWhere =
            kept.map { "; " + Self.keptNote($0, file: path) }
            ?? "; it stays in the file until the first write, which copies it to \(SetAside.copyPath(for: path, version: lost)) first"
        return
            "\(path): the newest commit, version \(lost), could not be verified (cut short by a crash or damaged on disk) and was set aside; reading version \(version) before it"
            + keptWhere
    }

    /// Where a set-aside commit is kept and what to do with it.
    static func keptNote(_ copy: SetAsideCopy, file: String) -> String {
        "its bytes are kept in \(copy.path) ('realmtui recover \(copy.path) OUT' salvages them; 'realmtui check \(file) --discard-set-aside' discards them)"
    }
}

extension Realm {
    /// Why an encrypted file whose newest slot page did not verify reads an older version.
    static func unreadableSlotPageReason(lost: UInt64, now: UInt64) -> String {
        "the newer copy of the page of the newest header slot does not verify (a write cut short by a crash or power loss, "
            + "or damage), so version \(lost), if it was committed, could not be read and nothing of it can be salvaged; reading version \(now)"
    }

    /// Why a file that went back to an older version (`RejectedCause.rolledBack`) is reported.
    static func rolledBackReason(lost: UInt64, now: UInt64) -> String {
        "version \(lost) was committed to this file (its lock file says so), but the file holds only versions up to \(now): the file, or the page of its newest header slot, was put back to an older copy or damaged; reading version \(now) (if you put an older copy back on purpose, 'realmtui check FILE --accept-rollback' makes it current)"
    }
}

extension Realm {
    /// Accepts that the file at `path` went back to an older version on purpose (a backup put
    /// back over it): forgets the newer version its lock file remembers, so the file's newest
    /// version is current again and opening it no longer reports a rollback. Refused while
    /// another process has the file open.
    public static func acceptRollback(path: String) throws {
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.path
        try LockFile.forgetPreviousSession(path: LockFile.path(forRealmAt: canonical))
    }
}
