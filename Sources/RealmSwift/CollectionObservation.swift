import Foundation

// `observe(on:)` and `observe(keyPaths:on:)` of every Realm collection: `Results`, `List`,
// `LinkingObjects`, `AnyRealmCollection`.
//
// All four observe the same thing, the dynamic core's results behind them (`_rlmResults`: a
// list's results read the list in order; linking objects' read the backlinks). What differs is
// the collection handed to the block. On this thread's RunLoop it is the observed collection
// itself. On a queue, the dynamic core delivers results bound to a Realm instance confined to
// that queue; the collection is made again over them by the collection's rebinder
// (`_rlmRebinder`, made on the observing thread, so that the queue never touches the observed
// instance): results and `AnyRealmCollection` wrap them, `LinkingObjects` too (their query holds
// the object they point at), and a `List` is the list property of its object, named by class and
// key, in the queue's instance.
//
// Invariants: one collection is made per registration and delivering instance (the dynamic core
// keeps one instance per queue registration) and reused for every later delivery; deliveries are
// serial, so `bound` is only touched by one delivery at a time.
//
// A list whose object is deleted: its results are empty from that version on, so the update
// reports every element deleted, with the list (its `isInvalidated` now true, `count` 0) — as
// RealmSwift reports a deleted owner's list — and nothing is delivered after it, since an
// empty list never changes again. A list observed after its object was deleted gets `.initial`
// with the invalidated list, then nothing, on a queue as on the RunLoop.

extension RealmCollection {
    /// Observes the collection: `.initial`, then an `.update` after each version that changed
    /// it — objects entering or leaving it (or a list reordered), or modified, also through a
    /// to-one link or list element up to four links away — with deletions and modifications as
    /// indices in the previous collection and insertions in the new one.
    ///
    /// Without `queue`, delivered on this thread's RunLoop (and during `refresh()`), with this
    /// collection. With a serial `queue`, delivered there, with the collection bound to a Realm
    /// instance confined to that queue: readable in the block, not elsewhere.
    ///
    /// ```swift
    /// let token = person.dogs.observe(on: queue) { change in
    ///     if case .update(let dogs, _, let insertions, _) = change { print(insertions.map { dogs[$0].name }) }
    /// }
    /// ```
    ///
    /// When the object of a list (or of linking objects) is deleted, the update reports every
    /// element deleted, with the collection now `isInvalidated`; nothing is delivered after it.
    ///
    /// Keep the token; `invalidate()` it to stop the deliveries. Call this on the collection's
    /// thread; observing a frozen collection delivers one `.error`.
    public func observe(
        on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: nil, on: queue, block)
    }

    /// Observes the collection as `observe(on:_:)` does, notifying only for changes to
    /// `keyPaths` (property names of `Element`, or paths through links such as `"owner.name"`;
    /// nil: every change): an update whose only modifications leave those values unchanged is
    /// not delivered, and the modifications reported are those that changed them. Objects
    /// entering or leaving the collection always notify.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).observe(keyPaths: ["age", "owner.name"]) { change in … }
    /// ```
    ///
    /// A key path naming no property is a programmer error and stops with a message.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken {
        let results = _rlmResults
        results.owner.verifyThread()
        let original = self
        let configuration = results.owner.configuration
        let rebind = queue == nil ? nil : _rlmRebinder()
        var bound: (realm: RealmEngine.Realm, collection: Self)?
        let storedKeyPaths = keyPaths.map { MappedNames.paths($0, from: Element.self) }
        return observeCollection(
            results.dynamicResults, keyPaths: storedKeyPaths, on: queue,
            make: { dynamic in
                guard let rebind else { return original }
                if let bound, bound.realm === dynamic.realm { return bound.collection }
                let collection = rebind(
                    Results(dynamic, realm: Realm(wrapping: dynamic.realm, configuration: configuration)))
                bound = (dynamic.realm, collection)
                return collection
            }, block)
    }
}

extension Results {
    /// Part of `RealmCollection`'s implementation: the results themselves.
    public func _rlmRebinder() -> (Results<Element>) -> Results<Element> { { $0 } }
}

extension AnyRealmCollection {
    /// Part of `RealmCollection`'s implementation: the results, wrapped.
    public func _rlmRebinder() -> (Results<Element>) -> AnyRealmCollection<Element> { { AnyRealmCollection($0) } }
}

extension LinkingObjects {
    /// Part of `RealmCollection`'s implementation: the results (which name the object pointed at).
    public func _rlmRebinder() -> (Results<Element>) -> LinkingObjects<Element> {
        let name = propertyName
        return { LinkingObjects(originProperty: name, results: $0) }
    }
}

extension List where Element: Object {
    /// Part of `RealmCollection`'s implementation: the list property of the same object, by
    /// class and key, in the other instance.
    public func _rlmRebinder() -> (Results<Element>) -> List<Element> {
        guard case .managed(let list, let realm) = storage else {
            preconditionFailure("This method may only be called on a managed List (add its object to a Realm first).")
        }
        // Read here, on the list's thread: the other context must not touch this thread's instance.
        let address = realm.reading { list.address }
        return { results in List(managed: DynamicList(address, in: results.owner.dynamicRealm), realm: results.owner) }
    }
}

extension List {
    /// Whether the list can no longer be used: its object was deleted (or its Realm closed).
    /// An unmanaged list never is.
    public var isInvalidated: Bool {
        switch storage {
        case .unmanaged: return false
        case .managed(let list, let realm): return realm.reading { list.isInvalidated }
        // Nested in a Mixed: also when the Mixed no longer holds this list (it was replaced).
        case .inMixed(let slot, let realm): return realm.reading { slot.isInvalidated(list: true) }
        }
    }
}
