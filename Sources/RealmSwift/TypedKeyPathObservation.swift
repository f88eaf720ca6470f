import Foundation
import RealmEngine

extension Results {
    /// `observe(keyPaths:on:_:)` with Swift key paths instead of names: only changes to those
    /// properties of `Element` notify. A key path names one property of the object itself; for a
    /// path through a link use the names (`observe(keyPaths: ["owner.name"])`): `\.owner?.name`
    /// is read on an unmanaged prototype whose link is nil, so it would name `owner` alone.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).observe(keyPaths: [\.age, \.name]) { change in … }
    /// ```
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map { propertyName($0) }, on: queue, block)
    }
}

extension _ObjectObservable {
    /// `observe(keyPaths:on:_:)` with Swift key paths instead of names: only changes to those
    /// properties notify (`dog.observe(keyPaths: [\.age]) { change in … }`).
    public func observe(keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map { RealmSwift.propertyName($0) }, on: queue, block)
    }
}
