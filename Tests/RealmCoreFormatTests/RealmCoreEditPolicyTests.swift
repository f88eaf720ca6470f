import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Which Realm files realmtui writes back (`RealmCoreEditPolicy`): never a synced Realm (no
/// fixture holds a sync history, so the decision is tested on its inputs), a format 20–23 file
/// only with `--upgrade-format`, a local format 24 file always.
@Suite struct RealmCoreEditPolicyTests {
    @Test(arguments: [3, 4])
    func aSyncedRealmIsNeverWritten(historyType: Int) {
        for upgrade in [false, true] {
            let refusal = RealmCoreEditPolicy.refusal(
                path: "synced.realm", format: 24, historyType: historyType, upgradeFormat: upgrade)
            #expect(
                refusal?.contains("synced.realm is a synced Realm (history type \(historyType))") == true,
                "\(refusal ?? "nil")")
            #expect(refusal?.contains("sync") == true && refusal?.contains("never writes") == true)
        }
    }

    @Test func anOlderFormatNeedsUpgradeFormat() {
        for format in 20...23 {
            let refusal = RealmCoreEditPolicy.refusal(
                path: "old.realm", format: format, historyType: 2, upgradeFormat: false)
            #expect(
                refusal?.contains("format \(format)") == true && refusal?.contains("--upgrade-format") == true
                    && refusal?.contains("an app on an older Realm SDK") == true, "\(refusal ?? "nil")")
            #expect(
                RealmCoreEditPolicy.refusal(path: "old.realm", format: format, historyType: 2, upgradeFormat: true)
                    == nil)
        }
    }

    @Test func aLocalFormat24FileIsWritten() {
        for history in [0, 1, 2] {
            #expect(
                RealmCoreEditPolicy.refusal(path: "seed.realm", format: 24, historyType: history, upgradeFormat: false)
                    == nil)
        }
    }

    /// What `schema` says of a Realm file: editable by the write commands unless one of the
    /// refusals applies (a synced Realm first, then an older format, then a Realm app's lock).
    @Test func theAccessNoteSaysWhatTheWriteCommandsDo() {
        let editable = RealmCoreEditPolicy.accessNote(
            path: "seed.realm", format: 24, historyType: 2, inUseByRealmApp: false)
        #expect(editable == "editable by the write commands while no Realm app holds its lock")
        #expect(
            RealmCoreEditPolicy.accessNote(path: "seed.realm", format: 24, historyType: 2, inUseByRealmApp: true)
                == "read-only while a Realm app holds its lock (seed.realm.lock)")
        for format in 20...23 {
            #expect(
                RealmCoreEditPolicy.accessNote(
                    path: "old.realm", format: format, historyType: 2, inUseByRealmApp: false)
                    == "read-only for the write commands unless given --upgrade-format (they write format 24)")
        }
        for historyType in [3, 4] {
            for inUse in [false, true] {
                #expect(
                    RealmCoreEditPolicy.accessNote(
                        path: "s.realm", format: 22, historyType: historyType, inUseByRealmApp: inUse)
                        == "read-only: a synced Realm (history type \(historyType)), which realmtui never writes")
            }
        }
    }

    /// The session takes the lock before reading, and lets go on `close()`; a second taker is
    /// refused while it is held (flock locks belong to open file descriptions, so this holds
    /// within one process as between a Realm app and realmtui).
    @Test func theSessionHoldsTheLockUntilClosed() throws {
        let scratch = TempDir("realmtui-edit-policy")
        let path = scratch.path("dogs.realm")
        try FileManager.default.copyItem(atPath: CoreFixtures.url("generated-dogs.realm").path, toPath: path)
        let session = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        #expect(FileManager.default.fileExists(atPath: path + ".lock"))
        let second = #expect(throws: RealmError.self) {
            try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        }
        #expect("\(second.map { "\($0)" } ?? "")".contains("is open in a Realm process"))
        session.close()
        let again = try RealmCoreEditSession(path: path, key: nil, upgradeFormat: false)
        again.close()
    }
}
