import Foundation

/// What a Realm notification reports.
public enum RealmNotification: String, Sendable {
    /// The Realm moved to a newer version (a commit here, on another thread or in another process).
    case didChange
    /// Kept for RealmSwift compatibility; never sent (instances always refresh when delivering).
    case refreshRequired
}

extension Realm {
    /// Opens an instance confined to a serial dispatch queue instead of a thread: it may be used
    /// from any block running on `queue` (whichever thread runs it) and from nowhere else.
    public convenience init(configuration: Configuration, queue: DispatchQueue) throws {
        try self.init(configuration: configuration)
        let key = DispatchSpecificKey<UInt8>()
        queue.setSpecific(key: key, value: 1)
        confinementKey = key
        confinementQueue = queue
    }

    /// Calls `block` after every change of the file — commits made through this instance, other
    /// instances, threads or processes — on this thread's RunLoop, once per delivery: commits
    /// that land before the RunLoop gets to it are reported once. The instance has moved to the
    /// new version when `block` runs. `refresh()` delivers synchronously. A newer version that
    /// cannot be read (its top node damaged) is not reported here — `observe(on:failure:_:)`
    /// reports it — and the registration waits for the next commit.
    ///
    /// Keep the token; the registration ends when it is released or invalidated.
    public func observe(_ block: @escaping (RealmNotification, Realm) -> Void) -> NotificationToken {
        guard frozenLock == nil, (try? checkThread()) != nil else { return NotificationToken(nil) }
        let registration = Registration(kind: .realm, schema: schema) { change, _, realm in
            if case .realmChanged = change { block(.didChange, realm) }
        }
        registration.reportsErrors = false
        registration.base = .init(version: version, pin: nil, keys: [])
        NotificationHub.hub(for: self).add(registration)
        return NotificationToken(registration)
    }

    /// `observe(_:)` delivered on a serial `queue` (nil: this thread's RunLoop, as `observe(_:)`):
    /// `block` runs there after every change of the file, once per delivery, with an instance of
    /// the file confined to the queue (opened now) that has moved to the new version. Changes
    /// are counted from the version this instance reads when `observe` is called, so a caller
    /// can read its starting state here and compare in `block`.
    ///
    /// Unlike `observe(_:)`, a registration that cannot be made (a frozen instance, the wrong
    /// thread, inside a write transaction, as for collections and objects, or the queue's
    /// instance failing to open) is reported: `failure` gets the reason, asynchronously on the
    /// context `block` would have run on, and nothing is registered. A newer version that cannot be read (its top node damaged) also goes to
    /// `failure`, after which `block` is not called again.
    public func observe(
        on queue: DispatchQueue?, failure: @escaping (Error) -> Void,
        _ block: @escaping (RealmNotification, Realm) -> Void
    ) -> NotificationToken {
        if let error = registrationError() {
            deliverSoon(on: queue, of: self) { failure(error) }
            return NotificationToken(nil)
        }
        let registration = Registration(kind: .realm, schema: schema) { change, _, realm in
            switch change {
            case .realmChanged: block(.didChange, realm)
            case .error(let error): failure(error)
            default: break
            }
        }
        registration.base = .init(version: version, pin: nil, keys: [])
        do {
            return try register(registration, on: queue)
        } catch {
            deliverSoon(on: queue, of: self) { failure(error) }
            return NotificationToken(nil)
        }
    }

    /// Registers `registration` with the hub that delivers for `queue` (nil: this thread).
    /// Throws when the queue's own instance of the file cannot be opened (its newest version
    /// unreadable, every reader slot taken): the caller reports it as any registration that
    /// cannot be made, so the observer hears why instead of waiting for deliveries that never
    /// come.
    func register(_ registration: Registration, on queue: DispatchQueue?, manual: Bool = false) throws
        -> NotificationToken
    {
        if let queue {
            let hub = NotificationHub(
                target: .queue(queue), realm: self, queueRealm: try Realm(configuration: configuration, queue: queue))
            hub.add(registration)
        } else {
            NotificationHub.hub(for: self, manual: manual).add(registration)
        }
        return NotificationToken(registration)
    }

    /// Why a registration cannot be made now, if it cannot.
    func registrationError() -> Error? {
        do { try checkThread() } catch { return error }
        if frozenLock != nil {
            return RealmError.invalidState("a frozen Realm never changes: observe a live one (thaw())")
        }
        if isInWriteTransaction {
            return RealmError.invalidState("cannot register a change notification inside a write transaction")
        }
        return nil
    }
}
