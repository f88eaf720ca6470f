import ArgumentParser
import Foundation
import RealmCoreFormat
import RealmEngine

/// `--upgrade-format`, for the commands that write to a file: lets a Realm file in format
/// 20–23 be written back in format 24.
struct RealmFileWriteOptions: ParsableArguments {
    @Flag(
        name: .customLong("upgrade-format"),
        help: "Write a Realm file of format 20–23 back in format 24 (an app on an older Realm SDK cannot open it then)."
    )
    var upgradeFormat = false
}

extension RealmCoreFiles {
    private final class EditBox: @unchecked Sendable {
        let lock = NSLock()
        var sessions: [String: RealmCoreEditSession] = [:]
    }
    private static let editBox = EditBox()

    /// Opens the Realm file at `path` for editing (`RealmCoreEditSession`: its lock held until
    /// the process ends, refused while a Realm app has it open, for a synced Realm, an older
    /// format without `upgradeFormat`, or what the conversion would lose) and returns the
    /// converted in-memory Realm with its session. A command's commit writes the file through
    /// `commitEdits(_:)`.
    static func openForEditing(
        _ path: String, encryptionKey: Data?, upgradeFormat: Bool,
        quiet: Bool = false
    ) throws -> (Realm, RealmCoreEditSession) {
        let key = try requireKey(path, encryptionKey)
        let session = try RealmCoreEditSession(path: path, key: key, upgradeFormat: upgradeFormat)
        // A file of many objects takes a while: say how far the reading is (on a terminal only).
        let progress =
            quiet ? nil : Progress(inputSize: nil, objects: 0, doing: "reading " + (path as NSString).lastPathComponent)
        let realm: Realm
        do {
            defer { progress?.finish() }
            realm = try session.makeRealm { done, total in progress?.update(done, total: total, bytesRead: nil) }
        }
        if session.droppedUnresolvedLinks > 0 && !quiet {
            Console.error(
                "warning: \(path): \(session.droppedUnresolvedLinks) links to deleted objects read as no link, "
                    + "and are written back as no link")
        }
        KnownNames.classes = realm.schema.classNames
        editBox.lock.withLock { editBox.sessions[session.inMemoryIdentifier] = session }
        return (realm, session)
    }

    /// The edit session of `realm`, when it is a Realm file opened by `openForEditing`.
    static func editSession(of realm: Realm) -> RealmCoreEditSession? {
        guard let identifier = realm.configuration.inMemoryIdentifier else { return nil }
        return editBox.lock.withLock { editBox.sessions[identifier] }
    }

    /// Before a command commits its write transaction: when `realm` is a Realm file open for
    /// editing, writes the file with the transaction's changes (a failure leaves the file as it
    /// was, and the caller cancels the transaction). Nothing for any other Realm.
    static func commitEdits(_ realm: Realm) throws {
        try editSession(of: realm)?.commit(realm)
    }
}
