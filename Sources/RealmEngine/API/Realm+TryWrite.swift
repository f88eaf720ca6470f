/// Starting a write transaction without waiting: for a user interface that must never block on
/// another writer (the explorer polls, shows "waiting for another writer", and lets Esc cancel).
extension Realm {
    /// Starts a write transaction if the write lock is free right now, like `beginWrite`;
    /// returns false at once, with nothing started, if another thread of this process or another
    /// process holds the lock.
    ///
    /// - Throws: what `beginWrite` throws (read-only file, already in a transaction, wrong thread,
    ///   a lock or file error).
    public func tryBeginWrite() throws -> Bool {
        try checkThread()
        if transaction != nil { throw RealmError.alreadyInWriteTransaction }
        if let foreign { throw RealmError.readOnly(path: foreign.path) }
        if shared.isReadOnly { throw RealmError.readOnly(path: shared.path) }
        guard try shared.lock.tryLockWriter() else { return false }
        try startTransactionHoldingLock()
        return true
    }
}
