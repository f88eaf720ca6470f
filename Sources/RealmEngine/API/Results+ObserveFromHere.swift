extension Results {
    /// Observes the results from the version this Realm reads now: no `.initial`; each `.update`
    /// is the change from the state the caller already shows, so a view of the results can apply
    /// it to what is on screen (the explorer's tables). Delivered on this thread's RunLoop and
    /// during `refresh()`, like `observe` without a queue.
    ///
    /// Throws when the results cannot be evaluated now (a damaged class) or a registration is
    /// not allowed here (another thread, inside a write transaction).
    public func observeFromCurrentVersion(_ block: @escaping (RealmCollectionChange<Results>) -> Void) throws -> NotificationToken {
        if let error = realm.registrationError() { throw error }
        let keys = try self.keys()
        let snapshot = try realm.snapshot
        let pin = try PinnedVersion.holding(snapshot, in: realm.shared)
        // With a base at this version, the first delivery is the change from here: no `.initial`.
        let registration = collectionRegistration(on: nil, block)
        registration.base = .init(version: snapshot.version, pin: pin, keys: keys)
        return try realm.register(registration, on: nil)
    }
}
