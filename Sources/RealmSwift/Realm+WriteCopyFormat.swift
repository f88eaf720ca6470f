import Foundation
import RealmCoreFormat

extension Realm {
    /// Writes a copy of the Realm to `fileURL` in `format`: this engine's own (as
    /// `writeCopy(toFile:encryptionKey:)`), or `.realmCore`, a Realm file (Realm Core format 24)
    /// that a Realm app opens — a bundled seed file — encrypted with Realm's layout when
    /// `encryptionKey` (64 bytes) is given, so the app opens it with that key. Fails, writing
    /// nothing, if the file exists, the key is not 64 bytes, or the schema holds what the Realm
    /// Core writer cannot write yet.
    public func writeCopy(toFile fileURL: URL, format: RealmFileFormat, encryptionKey: Data? = nil) throws {
        try dynamicRealm.writeCopy(toFile: fileURL.path, format: format, encryptionKey: encryptionKey)
    }
}
