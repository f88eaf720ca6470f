import Foundation
import RealmEngine

extension RealmCollection {
    /// `observe(keyPaths:on:_:)` with Swift key paths instead of names: only changes to those
    /// key paths of `Element` notify. A key path may go through to-one links
    /// (`\.owner?.name` stands for `"owner.name"`, `\.owner?.home?.city` for
    /// `"owner.home.city"`); a key path to a list (`\.dogs`) names the list.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).observe(keyPaths: [\.age, \.owner?.name]) { change in … }
    /// ```
    public func observe(
        keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths.map { propertyName($0) }, on: queue, block)
    }
}

extension _ObjectObservable {
    /// `observe(keyPaths:on:_:)` with Swift key paths instead of names: only changes to those
    /// key paths notify (`dog.observe(keyPaths: [\.age, \.owner?.name]) { change in … }`), each
    /// change named as the string key path (`"owner.name"`). Through to-one links as in
    /// `Results.observe(keyPaths:on:_:)`, on this thread's RunLoop or on `queue`.
    public func observe(
        keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths.map { RealmSwift.propertyName($0) }, on: queue, block)
    }
}
