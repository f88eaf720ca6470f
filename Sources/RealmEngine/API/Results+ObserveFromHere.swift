extension Results {
    /// Observes the results from the version this Realm reads now: no `.initial`; each `.update`
    /// is the change from the state the caller already shows, so a view of the results can apply
    /// it to what is on screen (the explorer's tables). Delivered on this thread's RunLoop and
    /// during `refresh()`, like `observe` without a queue.
    ///
    /// Throws when a registration is not allowed here (another thread, inside a write
    /// transaction). Results that cannot be evaluated (a damaged class) report it as `.error`
    /// at the first commit.
    public func observeFromCurrentVersion(_ block: @escaping (RealmCollectionChange<Results>) -> Void) throws
        -> NotificationToken
    {
        if let error = realm.registrationError() { throw error }
        let snapshot = try realm.snapshot
        // The keys the results hold already, else none: the first commit that needs them runs
        // the query at the pinned version (on the notifier thread), so registering costs no
        // evaluation — a sorted million rows shows its first screen from a top-k pass.
        let stamp = (try realm.readView.version, realm.mutationCount)
        let keys = cacheStamp == stamp ? cache : nil
        let pin = try PinnedVersion.holding(snapshot, in: realm.shared)
        // With a base at this version, the first delivery is the change from here: no `.initial`.
        let registration = collectionRegistration(on: nil, block)
        registration.base = .init(version: snapshot.version, pin: pin, keys: keys)
        return try realm.register(registration, on: nil)
    }
}
