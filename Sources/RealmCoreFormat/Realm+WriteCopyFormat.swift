import Foundation
import RealmEngine

extension Realm {
    /// Writes a copy of the version this instance reads to a new file at `path` in `format`:
    /// this engine's own (as `writeCopy(toFile:encryptionKey:)`), or a Realm file (Realm Core
    /// format 24) that Realm apps open — encrypted with Realm's layout when `encryptionKey`
    /// (64 bytes) is given, so an app opens it with that key. Fails, writing nothing, if `path`
    /// exists, the key is not 64 bytes, or the schema holds what the Realm Core writer cannot
    /// write yet.
    ///
    ///     try realm.writeCopy(toFile: "seed.realm", format: .realmCore, encryptionKey: key)
    public func writeCopy(toFile path: String, format: RealmFileFormat, encryptionKey: Data? = nil) throws {
        switch format {
        case .realmtui: try writeCopy(toFile: path, encryptionKey: encryptionKey)
        case .realmCore: try RealmCoreWriter.write(self, toFile: path, encryptionKey: encryptionKey)
        }
    }
}
