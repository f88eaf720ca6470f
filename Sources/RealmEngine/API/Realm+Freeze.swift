import Foundation

// Frozen instances: one version of the file, kept readable for as long as the instance lives.
//
// A frozen Realm holds a reader slot of its own at the version it was frozen at, so the pages
// of that version are not reused while it lives, whatever its source instance does next
// (refresh, write, close). It never moves: `refresh()` answers false, `beginWrite()` throws,
// and registering a notification reports an error. It is not confined to a thread.
//
// Reading a version is free of shared mutable state (the mapping and the snapshot are
// immutable once published), but the objects that read it keep caches (the keys of a result,
// where an object was last found): `withFrozenAccess` serializes those reads with the frozen
// instance's lock. The typed API takes it around every read of a frozen value; dynamic code
// that reads one frozen instance from several threads at once does the same.

extension Realm {
    /// Whether this instance is frozen: it reads one version forever, from any thread, and
    /// cannot be written or observed.
    public var isFrozen: Bool { frozenLock != nil }

    /// A frozen instance that reads the version this one reads now, from any thread.
    ///
    /// Throws `invalidState` inside a write transaction (the version being written is not
    /// committed, so there is nothing to pin), `wrongThread` from another thread than this
    /// instance's, and `busy` when the lock file's reader table is full. A frozen instance
    /// returns itself.
    public func freeze() throws -> Realm {
        if frozenLock != nil { return self }
        try checkThread()
        if transaction != nil {
            throw RealmError.invalidState(
                "\(shared.path): cannot freeze inside a write transaction (its version is not committed yet)")
        }
        return try Realm(freezing: self)
    }

    /// Runs `body` holding a frozen instance's lock (see the top of Realm+Freeze.swift), so that
    /// several threads may read one frozen instance; on a live instance, just runs `body`.
    /// The lock is recursive: `body` may read through other calls that take it.
    public func withFrozenAccess<T>(_ body: () throws -> T) rethrows -> T {
        guard let frozenLock else { return try body() }
        frozenLock.lock()
        defer { frozenLock.unlock() }
        return try body()
    }
}

extension Results {
    /// The same query (class or owner, filters, sort, distinct, limit) over another instance of
    /// the same file — a frozen instance to pin these results to one version, or a live one to
    /// make frozen results live again. Lazy like every result: nothing is evaluated until read.
    public func bound(to other: Realm) -> Results { rebound(to: other) }
}

extension DynamicObject {
    /// This object in another instance of the same file (frozen or live), or nil when that
    /// instance's version does not contain it (deleted there, or not yet created).
    public func bound(to other: Realm) throws -> DynamicObject? {
        try other.withFrozenAccess { try other.object(ofType: className, key: key) }
    }
}

extension DynamicList {
    /// This list in another instance of the same file (frozen or live), or nil when its owner
    /// is not in that instance's version.
    public func bound(to other: Realm) throws -> DynamicList? {
        try other.withFrozenAccess {
            guard let owner = try owner.bound(to: other) else { return nil }
            return try owner.list(forKey: property.name)
        }
    }
}

extension DynamicSet {
    /// This set in another instance of the same file (frozen or live), or nil when its owner is
    /// not in that instance's version.
    public func bound(to other: Realm) throws -> DynamicSet? {
        try other.withFrozenAccess {
            guard let owner = try owner.bound(to: other) else { return nil }
            return try owner.set(forKey: property.name)
        }
    }
}

extension DynamicMap {
    /// This dictionary in another instance of the same file (frozen or live), or nil when its
    /// owner is not in that instance's version.
    public func bound(to other: Realm) throws -> DynamicMap? {
        try other.withFrozenAccess {
            guard let owner = try owner.bound(to: other) else { return nil }
            return try owner.map(forKey: property.name)
        }
    }
}
