extension Object {
    /// Whether `object` is this same object: both managed by the same Realm (the same file, or
    /// the same in-memory identifier) with the same class and key, or both the same unmanaged
    /// instance. As RealmSwift's `isSameObject(as:)`.
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        if self === object { return true }
        guard let mine = managed, let theirs = object.managed else { return false }
        let (a, b) = (mine.realm.configuration, theirs.realm.configuration)
        let sameRealm = a.inMemoryIdentifier != nil
            ? a.inMemoryIdentifier == b.inMemoryIdentifier
            : b.inMemoryIdentifier == nil && a.fileURL?.standardizedFileURL == b.fileURL?.standardizedFileURL
        return sameRealm && mine.realm.schema.objectSchemas[mine.classIndex].name == theirs.realm.schema.objectSchemas[theirs.classIndex].name
            && mine.key == theirs.key
    }
}

/// An object usable as `Identifiable` (in lists and diffs) whose `id` is stable for as long as
/// the object exists: managed, its class and object key, the same for every instance of it in
/// any Realm of its file; unmanaged, the instance's identity.
public protocol ObjectKeyIdentifiable: Identifiable where ID == UInt64 {}

extension ObjectKeyIdentifiable where Self: Object {
    /// The object's stable identifier (see `ObjectKeyIdentifiable`).
    public var id: UInt64 {
        guard let managed else { return UInt64(UInt(bitPattern: ObjectIdentifier(self).hashValue)) }
        // The key in the low bits, the class in the high ones: distinct classes' objects of
        // the same key get distinct ids.
        var hasher = Hasher()
        hasher.combine(managed.realm.schema.objectSchemas[managed.classIndex].name)
        let classBits = UInt64(UInt(bitPattern: hasher.finalize())) << 40
        return classBits ^ UInt64(bitPattern: managed.key.rawValue)
    }
}
