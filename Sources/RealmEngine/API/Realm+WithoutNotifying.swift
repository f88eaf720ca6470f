/// Writes that some observers do not hear about (RealmSwift's `write(withoutNotifying:)`): a
/// change the user made through the interface that shows it, which must not be animated again.
extension Realm {
    /// Commits the write transaction; the registrations of `tokens` that were up to date with
    /// the version this transaction started from skip this commit (their next change set
    /// starts from the committed version). A registration with an undelivered change from
    /// before the transaction still gets everything, this commit included: skipping it would
    /// lose the earlier change.
    public func commitWrite(withoutNotifying tokens: [NotificationToken]) throws {
        guard let t = transaction else { throw RealmError.notInWriteTransaction }
        let before = t.base.version
        try commitWrite()
        let committed = try snapshot
        for registration in tokens.compactMap(\.registration) {
            registration.skip(from: before, to: committed, in: shared)
        }
    }

    /// Runs `block` in a write transaction and commits it without notifying `tokens`.
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken], _ block: () throws -> Result) throws
        -> Result
    {
        try write(block, commit: { try $0.commitWrite(withoutNotifying: tokens) })
    }
}

extension Registration {
    /// Moves the base from `before` to `committed` without delivering, when nothing else is
    /// waiting to be delivered.
    func skip(from before: UInt64, to committed: Snapshot, in shared: SharedFile) {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard !invalidated, !finished, let base, base.version == before else { return }
        // The notifier may already have computed exactly this commit: that change is dropped.
        // A pending change that ends at or before the delivered version holds nothing
        // undelivered (the notifier's first computation, finishing after `refresh()` delivered
        // `.initial`, leaves an empty one from that version to itself): it does not count.
        if let pending, pending.target.version > before {
            guard pending.baseVersion == before, pending.target.version == committed.version else { return }
        }
        do {
            switch kind {
            case .collection(let spec):
                let keys = try spec.evaluate(in: committed, missingOwnerIsEmpty: true)
                self.base = Base(
                    version: committed.version, pin: try PinnedVersion.holding(committed, in: shared), keys: keys)
            case .object:
                self.base = Base(
                    version: committed.version, pin: try PinnedVersion.holding(committed, in: shared), keys: [])
            case .realm:
                self.base = Base(version: committed.version, pin: nil, keys: [])
            }
            pending = nil
        } catch {
            return
        }
    }
}
