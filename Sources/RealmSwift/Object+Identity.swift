extension Object {
    /// Whether `object` is this same object: both managed by the same Realm (the same file, or
    /// the same in-memory identifier) with the same class and key, or both the same unmanaged
    /// instance. As RealmSwift's `isSameObject(as:)`.
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        if self === object { return true }
        guard let mine = managed, let theirs = object.managed else { return false }
        let (a, b) = (mine.realm.configuration, theirs.realm.configuration)
        let sameRealm =
            a.inMemoryIdentifier != nil
            ? a.inMemoryIdentifier == b.inMemoryIdentifier
            : b.inMemoryIdentifier == nil && a.fileURL?.standardizedFileURL == b.fileURL?.standardizedFileURL
        return sameRealm && mine.objectSchema.name == theirs.objectSchema.name
            && mine.key == theirs.key
    }
}
