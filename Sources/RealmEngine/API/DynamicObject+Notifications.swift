import Foundation

/// A change of an observed object.
public enum ObjectChange<T> {
    /// The registration failed; nothing more is delivered.
    case error(Error)
    /// Properties changed: each with its old and new value.
    case change(T, [PropertyChange])
    /// The object was deleted; nothing more is delivered.
    case deleted
}

extension DynamicObject {
    /// Observes the object: which properties changed, with old and new values, after each
    /// version that changed them, or that it was deleted. Delivered on this thread's RunLoop (or
    /// `queue`, with the object bound to a Realm instance confined to it). Changes are counted
    /// from the version the Realm reads when `observe` is called.
    public func observe(on queue: DispatchQueue? = nil, _ block: @escaping (ObjectChange<DynamicObject>) -> Void)
        -> NotificationToken
    {
        var failure = realm.registrationError()
        if failure == nil, isInvalidated { failure = RealmError.invalidatedObject }
        let base: PinnedVersion?
        do { base = try PinnedVersion.holding(realm.snapshot, in: realm.shared) } catch {
            failure = failure ?? error
            base = nil
        }
        if let failure {
            deliverSoon(on: queue, of: realm) { block(.error(failure)) }
            return NotificationToken(nil)
        }
        let (classIndex, key, original) = (self.classIndex, self.key, self)
        let registration = Registration(kind: .object(classIndex: classIndex, key: key), schema: realm.schema) {
            change, _, deliveringRealm in
            switch change {
            case .object(let properties):
                let object =
                    queue == nil ? original : DynamicObject(realm: deliveringRealm, classIndex: classIndex, key: key)
                block(.change(object, properties))
            case .deleted:
                block(.deleted)
            case .error(let error):
                block(.error(error))
            default:
                break
            }
        }
        registration.base = .init(version: realm.version, pin: base, keys: [])
        do {
            return try realm.register(registration, on: queue)
        } catch {
            deliverSoon(on: queue, of: realm) { block(.error(error)) }
            return NotificationToken(nil)
        }
    }
}
