import Foundation

/// A change of a live collection, as `observe` reports it.
///
/// `.initial` comes first, with the collection as it is when the query first ran. Each
/// `.update` lists `deletions` and `modifications` as indices in the previous state of the
/// collection and `insertions` as indices in the new one, all ascending: removing the deletions
/// (from the highest index down) and then inserting the insertions (from the lowest up) turns
/// the previous state into the new one. An object that moved (in a sorted result, or a list
/// reordered) is a deletion and an insertion. `.error` ends the registration.
public enum RealmCollectionChange<CollectionType> {
    case initial(CollectionType)
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    case error(Error)
}

extension Results {
    /// Observes the results: `.initial`, then an `.update` after each version in which they
    /// changed — objects entering or leaving the filter, moving in the sort, or modified, also
    /// through a to-one link or list element up to four links away. Change sets are computed on
    /// the notifier thread, only when a class the query reads changed, and incrementally from
    /// the commit's change record where the query allows (a sorted or filtered table result:
    /// `Notifications/IncrementalResults.swift`); otherwise the query is re-run.
    ///
    /// Without `queue`, `block` runs on this thread's RunLoop (and during `refresh()`); the
    /// Realm has moved to the reported version and the results are already computed. With a
    /// serial `queue`, `block` runs there, with results bound to a Realm instance confined to
    /// that queue.
    public func observe(
        on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Results>) -> Void
    ) -> NotificationToken {
        observe(on: queue, manual: false, block)
    }

    func observe(
        on queue: DispatchQueue?, manual: Bool,
        _ block: @escaping (RealmCollectionChange<Results>) -> Void
    ) -> NotificationToken {
        if let error = realm.registrationError() {
            deliverSoon(on: queue, of: realm) { block(.error(error)) }
            return NotificationToken(nil)
        }
        do {
            return try realm.register(collectionRegistration(on: queue, block), on: queue, manual: manual)
        } catch {
            deliverSoon(on: queue, of: realm) { block(.error(error)) }
            return NotificationToken(nil)
        }
    }

    /// The registration of a collection observer: primes the results with each delivered
    /// version's keys (bound to the delivering Realm when a queue delivers) and reports
    /// `.initial`, `.update` and `.error` to `block`.
    func collectionRegistration(
        on queue: DispatchQueue?,
        _ block: @escaping (RealmCollectionChange<Results>) -> Void
    ) -> Registration {
        let original = self
        var rebound: Results?
        return Registration(kind: .collection(query), schema: realm.schema) { change, keys, deliveringRealm in
            let results: Results
            if queue == nil {
                results = original
            } else {
                if rebound == nil { rebound = original.rebound(to: deliveringRealm) }
                results = rebound!
            }
            switch change {
            case .initial:
                results.prime(keys)
                block(.initial(results))
            case .collection(let set):
                results.prime(keys)
                block(
                    .update(
                        results, deletions: set.deletions, insertions: set.insertions, modifications: set.modifications)
                )
            case .unchanged:
                // No update to report; the results hold the new version's keys (no re-run on read).
                results.prime(keys)
            case .error(let error):
                results.error = error as? RealmError ?? .invalidInput("\(error)")
                block(.error(error))
            default:
                break
            }
        }
    }

    /// The same query bound to another instance of the same file.
    func rebound(to other: Realm) -> Results {
        Results(realm: other, query: query)
    }
}

/// Runs `send` soon, on the context an observer of `realm` is delivered on: `queue`, else
/// `realm`'s actor when it is confined to one (a RunLoop timer would never fire there), else
/// this thread's RunLoop. For what a registration reports without the notifier: an error
/// refusing it, a list of values' `.initial`.
func deliverSoon(on queue: DispatchQueue?, of realm: Realm, _ send: @escaping () -> Void) {
    final class Box: @unchecked Sendable {
        let send: () -> Void
        init(_ s: @escaping () -> Void) { send = s }
    }
    let box = Box(send)
    if let queue {
        queue.async { box.send() }
    } else if let actor = realm.confinementActor {
        Task { await NotificationHub.run(on: actor) { box.send() } }
    } else {
        RunLoop.current.add(Timer(timeInterval: 0, repeats: false) { _ in box.send() }, forMode: .common)
    }
}
