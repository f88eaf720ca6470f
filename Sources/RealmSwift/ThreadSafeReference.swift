import Foundation

/// Hands a managed object to another thread: make the reference on the object's thread, pass
/// it over, and `resolve` it with that thread's Realm of the same file.
///
/// ```swift
/// let ref = ThreadSafeReference(to: person)
/// DispatchQueue.global().async {
///     let realm = try Realm(configuration: config)
///     let person = realm.resolve(ref)   // nil if it was deleted meanwhile
/// }
/// ```
///
/// The reference names the object by class and key, and the version it was made at: `resolve`
/// first moves the resolving Realm to at least that version, so the object is found even when
/// it was created by a write the other thread has not yet seen.
public struct ThreadSafeReference<Confined: Object>: Sendable {
    let key: ObjectKey
    let version: UInt64

    /// A reference to a managed object.
    public init(to object: Confined) {
        guard let accessor = object.accessor, let realm = object.realm else {
            preconditionFailure(
                "Only managed objects can be handed to another thread; unmanaged ones can be passed as they are.")
        }
        key = accessor.key
        version = realm.dynamicRealm.version
    }
}

extension Realm {
    /// The object a `ThreadSafeReference` names, in this Realm, or nil when it was deleted.
    /// When the object cannot be read (a damaged file), this stops with the reason rather than
    /// answer nil, which would say it was deleted; `checkedResolve(_:)` throws instead.
    public func resolve<Confined: Object>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        do {
            return try checkedResolve(reference)
        } catch {
            preconditionFailure("resolve(ThreadSafeReference<\(Confined.className())>): \(error)")
        }
    }

    /// `resolve(_:)` that throws when the object cannot be read (a damaged file) instead of
    /// stopping; nil still means it was deleted.
    public func checkedResolve<Confined: Object>(_ reference: ThreadSafeReference<Confined>) throws -> Confined? {
        check(Confined.self)
        if dynamicRealm.version < reference.version { refresh() }
        guard let managed = try dynamicRealm.object(ofType: Confined.className(), key: reference.key) else {
            return nil
        }
        return Confined._rlmMake(managed, realm: self)
    }
}
