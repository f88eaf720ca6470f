import Foundation
import RealmEngine

extension ExplorerState {
    /// `:recover [PATH]`: salvages the newest set-aside commit (its copy beside the file, or
    /// the file itself while a read-only session has not copied it aside) into a new file,
    /// `FILE.recovered-vN.realm` by default, and says what it saved and lost.
    mutating func recoverSetAside(to path: String?) {
        let lost = realm.recoveredFromDamagedCommit ?? setAsideCopies.last?.version
        guard let version = lost else {
            message = Message(text: ":recover: no commit was set aside in this file; nothing to recover", isError: true)
            return
        }
        if (realm.recoveredFromDamagedHeaderSlot || realm.recoveredFromUnreadableSlotPage)
            && realm.recoveredFromDamagedCommit == version
        {
            message = Message(
                text:
                    ":recover: version \(version) was lost with a damaged header slot; there is nothing left to salvage",
                isError: true)
            return
        }
        let source = setAsideCopies.first { $0.version == version }?.path ?? realm.path
        let destination =
            path.map { ($0 as NSString).expandingTildeInPath } ?? realm.path + ".recovered-v\(version).realm"
        do {
            let report = try Realm.recover(
                from: source, to: destination, encryptionKey: realm.configuration.encryptionKey)
            let saved = report.recovered.values.reduce(0, +)
            let lostObjects = report.lost.reduce(0) { $0 + ($1.objects ?? 0) }
            var text =
                "recovered \(saved) object\(saved == 1 ? "" : "s") of version \(report.version) into \(destination)"
            if !report.isComplete { text += "; \(lostObjects) could not be read (realmtui recover lists them)" }
            if let copy = setAsideCopies.first(where: { $0.version == version }) {
                text += "; 'realmtui check \(realm.path) --discard-set-aside' deletes \(copy.path)"
            }
            message = Message(text: text, isError: false)
        } catch {
            message = Message(text: ":recover: \(ExplorerText.describe(error)); nothing was written", isError: true)
        }
        setAsideCopies = realm.setAsideCopies
    }
}
