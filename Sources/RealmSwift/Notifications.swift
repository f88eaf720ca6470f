import Foundation

extension Realm {
    /// Whether the Realm moves to each newer version on its thread's RunLoop — commits made on
    /// other threads or by other processes — with or without observers (true when opened, as in
    /// RealmSwift). Without it, the Realm shows one version until `refresh()` or a write.
    /// The setting belongs to this thread's instance of the file, so every `Realm` of the same
    /// configuration on this thread shares it.
    public var autorefresh: Bool {
        get { dynamicRealm.autorefresh }
        set {
            verifyThread()
            dynamicRealm.autorefresh = newValue
        }
    }

    /// Calls `block` after every change of the file (commits here, on other threads or in other
    /// processes) on this thread's RunLoop, or during `refresh()`. Keep the token.
    ///
    /// The token keeps this `Realm` alive until it is invalidated or released (as in
    /// RealmSwift): deliveries go on, with this instance, after the caller lets it go.
    public func observe(_ block: @escaping (RealmNotification, Realm) -> Void) -> NotificationToken {
        dynamicRealm.observe { notification, _ in block(notification, self) }
    }
}

/// Lets `observe` hand the observed object to its block with its own type.
public protocol _ObjectObservable: Object {}
extension Object: _ObjectObservable {}

extension _ObjectObservable {
    /// Observes the object: `.change` with each changed property's name, old and new value after
    /// each version that changed it, `.deleted` once it is deleted. With `keyPaths`, only changes
    /// to those properties notify. Delivered on this thread's RunLoop (and during `refresh()`),
    /// or on `queue`.
    ///
    /// Key paths may go through links (`"owner.name"`, `"dogs.age"`): the change then names the
    /// key path, with its old and new value (a list of values through a list), on this thread's
    /// RunLoop or on `queue` alike. A key path naming no property stops with a message.
    ///
    /// With a serial `queue`, the block runs there with the object bound to a Realm instance
    /// confined to that queue (readable in the block, not elsewhere).
    public func observe(
        keyPaths swiftKeyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        let keyPaths = swiftKeyPaths.map { MappedNames.paths($0, from: Self.self) }
        guard let accessor, let realm else {
            preconditionFailure("Only managed objects can be observed (add the object to a Realm first).")
        }
        if let keyPaths, keyPaths.contains(where: { $0.contains(".") }) {
            return observeThroughLinks(keyPaths: keyPaths, on: queue, block)
        }
        for path in keyPaths ?? [] {
            precondition(
                accessor.objectSchema[path] != nil,
                "observe(keyPaths:): '\(path)' names no property of \(Self.className())")
        }
        let original = self
        let configuration = realm.configuration
        let wanted = keyPaths.map(Set.init)
        return accessor.observe(on: queue) { change in
            switch change {
            case .change(let object, let properties):
                let relevant = wanted.map { w in properties.filter { w.contains($0.name) } } ?? properties
                guard !relevant.isEmpty else { return }
                let typed =
                    queue == nil
                    ? original
                    : Self._rlmMake(object, realm: Realm(wrapping: object.realm, configuration: configuration))
                block(.change(typed, relevant))
            case .deleted: block(.deleted)
            case .error(let error): block(.error(error))
            }
        }
    }
}
