import Foundation
import RealmCoreFormat
import RealmEngine

extension ExplorerState {
    /// `:export realm PATH`: writes the open Realm's version as a Realm file (Realm Core format
    /// 24, plain) through the Realm Core writer — every class and object, not the current
    /// result. The writer makes a new file under a temporary name beside PATH, which replaces
    /// PATH only once complete; a file already at PATH is replaced only with `overwrite` (the
    /// explorer asks first). A schema the writer cannot write yet is a message naming it.
    mutating func exportRealmFile(path: String, overwrite: Bool = false) {
        let expanded = (path as NSString).expandingTildeInPath
        if !overwrite && FileManager.default.fileExists(atPath: expanded) {
            mode = .edit(.confirming(Confirmation(question: "\(path) exists: replace it? (y/n)",
                                                  effects: [.exportRealm(path: path, overwrite: true)])))
            return
        }
        let temporary = expanded + ".realmtui-export-\(UUID().uuidString)"
        do {
            let tables = try RealmCoreWriter.tables(from: realm)
            try RealmCoreWriter.write(tables: tables, schemaVersion: realm.schemaVersion, toFile: temporary)
            guard rename(temporary, expanded) == 0 else {
                throw RealmError.io(path: expanded, operation: "rename", errno: errno, message: String(cString: strerror(errno)))
            }
            let objects = tables.reduce(0) { $0 + $1.objects.count }
            message = Message(text: "exported \(ValueFormatter.grouped(objects)) objects in \(tables.count) classes to \(path) "
                                  + "(a Realm file, format \(RealmCoreWriter.formatVersion))", isError: false)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            message = Message(text: "export failed: \(ExplorerText.describe(error))", isError: true)
        }
    }
}
