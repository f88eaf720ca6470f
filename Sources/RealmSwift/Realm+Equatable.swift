extension Realm: Equatable {
    /// Whether two `Realm` values are the same instance of a Realm file: the same
    /// configuration, on the same thread (or queue or actor), at the same frozen version if
    /// frozen — as RealmSwift's `==`, which compares the underlying Realm instances.
    ///
    /// A Realm is opened once per thread and configuration, so `object.realm == realm` holds
    /// for every object read or added through `realm`, and for every `Realm(configuration:)`
    /// of that configuration on this thread. The same file opened on another thread, with
    /// another configuration, or frozen, is another instance and not equal:
    ///
    /// ```swift
    /// let realm = try Realm()
    /// try realm.write { realm.add(dog) }
    /// dog.realm == realm              // true
    /// realm.freeze() == realm         // false
    /// ```
    public static func == (lhs: Realm, rhs: Realm) -> Bool {
        lhs === rhs || lhs.dynamicRealm === rhs.dynamicRealm
    }
}
