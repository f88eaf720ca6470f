/// The file format of a copy made by `writeCopy(toFile:format:encryptionKey:)`, which the
/// RealmCoreFormat module adds to `Realm` (it holds the Realm Core writer, and depends on this
/// module, so the method cannot live here).
public enum RealmFileFormat: String, Sendable, CaseIterable {
    /// This engine's own format (what `writeCopy(toFile:encryptionKey:)` writes).
    case realmtui
    /// A Realm file, Realm Core format 24, that Realm apps open (encrypted with Realm's layout
    /// when a key is given).
    case realmCore
}
