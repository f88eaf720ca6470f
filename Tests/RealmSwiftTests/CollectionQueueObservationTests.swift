import Foundation
import Testing
import RealmSwift

/// `observe(on:)` and `observe(keyPaths:on:)` of lists, linking objects and `AnyRealmCollection`:
/// delivered on the queue, with the collection bound to a Realm confined to that queue.
@Suite struct CollectionQueueObservationTests {
    final class QPerson: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<QDog>
    }
    final class QDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted(originProperty: "dogs") var owners: LinkingObjects<QPerson>
    }

    typealias QueueLog = KeyPathObservationTests.QueueLog

    /// A Realm of a fresh file holding Jim with Rex (1) and Fido (2).
    static func setUp() throws -> (Realm.Configuration, Realm, QPerson) {
        let config = try fileConfig([QPerson.self, QDog.self])
        let realm = try Realm(configuration: config)
        let jim = try realm.write {
            realm.create(
                QPerson.self,
                value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
        }
        return (config, realm, jim)
    }

    /// Commits `body` on another thread (the queue's observers then hear about it).
    static func write(_ config: Realm.Configuration, _ body: @escaping @Sendable (Realm) -> Void) throws {
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { body(r) }
        }
    }

    /// Waits until the queue has had time to deliver anything pending, then drains it.
    static func settle(_ queue: DispatchQueue) {
        Thread.sleep(forTimeInterval: 0.2)
        queue.sync {}
    }

    static func line<C: RealmCollection>(_ change: RealmCollectionChange<C>, _ read: (C) -> String) -> String
    where C.Element: Object {
        switch change {
        case .initial(let c): return "initial \(read(c))"
        case .update(let c, let d, let i, let m): return "d\(d) i\(i) m\(m) \(read(c))"
        case .error(let e): return "error \(e)"
        }
    }

    @Test func aListDeliversOnTheQueueAndIsReadableThere() throws {
        let (config, realm, jim) = try Self.setUp()
        defer { removeFolder(of: config) }
        let queue = DispatchQueue(label: "list-observer")
        let log = QueueLog()
        let token = jim.dogs.observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            log.add(
                Self.line(change) { (dogs: List<QDog>) in
                    "\(dogs.map(\.name)) \(dogs.realm.map { $0 !== realm } == true)"
                })
        }
        log.next()
        try Self.write(config) { r in r.objects(QPerson.self).first!.dogs.append(QDog(value: ["name": "Ace"])) }
        log.next()
        try Self.write(config) { r in r.objects(QDog.self).filter("name == 'Fido'").first!.age = 9 }
        log.next()
        Self.settle(queue)
        #expect(
            log.all == [
                "initial [\"Rex\", \"Fido\"] true",
                "d[] i[2] m[] [\"Rex\", \"Fido\", \"Ace\"] true",
                "d[] i[] m[1] [\"Rex\", \"Fido\", \"Ace\"] true",
            ])
        token.invalidate()
    }

    @Test func aListsKeyPathsFilterOnTheQueue() throws {
        let (config, _, jim) = try Self.setUp()
        defer { removeFolder(of: config) }
        let queue = DispatchQueue(label: "list-observer")
        let log = QueueLog()
        let token = jim.dogs.observe(keyPaths: ["age"], on: queue) { change in
            log.add(Self.line(change) { (dogs: List<QDog>) in "\(dogs.map(\.age))" })
        }
        log.next()
        // not watched
        try Self.write(config) { r in r.objects(QDog.self).filter("name == 'Rex'").first!.name = "Rex II" }
        try Self.write(config) { r in r.objects(QDog.self).filter("name == 'Fido'").first!.age = 5 }
        log.next()
        Self.settle(queue)
        #expect(log.all == ["initial [1, 2]", "d[] i[] m[1] [1, 5]"])
        token.invalidate()
    }

    @Test func linkingObjectsAndAnyRealmCollectionDeliverOnTheQueue() throws {
        let (config, realm, jim) = try Self.setUp()
        defer { removeFolder(of: config) }
        let rex = try #require(jim.dogs.first)
        let queue = DispatchQueue(label: "collection-observer")
        let owners = QueueLog()
        let t1 = rex.owners.observe(keyPaths: ["name"], on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            owners.add(Self.line(change) { (people: LinkingObjects<QPerson>) in "\(people.map(\.name))" })
        }
        let any = QueueLog()
        let t2 = AnyRealmCollection(jim.dogs).observe(keyPaths: ["name"], on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            any.add(Self.line(change) { (dogs: AnyRealmCollection<QDog>) in "\(dogs.map(\.name))" })
        }
        owners.next()
        any.next()
        try Self.write(config) { r in
            r.create(
                QPerson.self, value: ["name": "Ann", "dogs": [r.objects(QDog.self).filter("name == 'Rex'").first!]])
        }
        owners.next()
        try Self.write(config) { r in r.objects(QDog.self).filter("name == 'Fido'").first!.age = 4 }  // not watched
        try Self.write(config) { r in r.objects(QDog.self).filter("name == 'Fido'").first!.name = "Fifi" }
        any.next()
        Self.settle(queue)
        #expect(owners.all == ["initial [\"Jim\"]", "d[] i[1] m[] [\"Jim\", \"Ann\"]"])
        #expect(any.all == ["initial [\"Rex\", \"Fido\"]", "d[] i[] m[1] [\"Rex\", \"Fifi\"]"])
        t1.invalidate()
        t2.invalidate()
        _ = realm
    }

    /// The owner's deletion: every element reported deleted, with the list (now invalidated and
    /// empty) handed over once; nothing follows.
    @Test func deletingTheListsOwnerReportsItsElementsDeletedThenNothing() throws {
        let (config, realm, jim) = try Self.setUp()
        defer { removeFolder(of: config) }
        let dogs = jim.dogs
        let queue = DispatchQueue(label: "list-observer")
        let log = QueueLog()
        let token = dogs.observe(on: queue) { change in
            log.add(Self.line(change) { (dogs: List<QDog>) in "\(dogs.isInvalidated) \(dogs.count)" })
        }
        var here: [String] = []
        let onThisThread = dogs.observe { change in
            here.append(Self.line(change) { (dogs: List<QDog>) in "\(dogs.isInvalidated) \(dogs.count)" })
        }
        realm.refresh()
        log.next()
        #expect(!dogs.isInvalidated)
        try Self.write(config) { r in r.delete(r.objects(QPerson.self)) }
        log.next()
        try Self.write(config) { r in r.add(QDog(value: ["name": "Ace"])) }
        realm.refresh()
        Self.settle(queue)
        #expect(log.all == ["initial false 2", "d[0, 1] i[] m[] true 0"])
        #expect(here == ["initial false 2", "d[0, 1] i[] m[] true 0"])
        #expect(dogs.isInvalidated && jim.isInvalidated)
        token.invalidate()
        onThisThread.invalidate()
    }

    /// Linking objects, and an `AnyRealmCollection` of a list, whose object is deleted: every
    /// element reported deleted, with the collection invalidated.
    @Test func linkingObjectsOfADeletedObjectAreInvalidated() throws {
        let (config, realm, jim) = try Self.setUp()
        defer { removeFolder(of: config) }
        let rex = try #require(jim.dogs.first)
        let queue = DispatchQueue(label: "collection-observer")
        let owners = QueueLog()
        let t1 = rex.owners.observe(on: queue) { change in
            owners.add(Self.line(change) { (people: LinkingObjects<QPerson>) in "\(people.isInvalidated)" })
        }
        let any = QueueLog()
        let t2 = AnyRealmCollection(jim.dogs).observe(on: queue) { change in
            any.add(Self.line(change) { (dogs: AnyRealmCollection<QDog>) in "\(dogs.isInvalidated)" })
        }
        owners.next()
        any.next()
        try Self.write(config) { r in r.delete(r.objects(QDog.self).filter("name == 'Rex'")) }
        owners.next()
        any.next()
        try Self.write(config) { r in r.delete(r.objects(QPerson.self)) }
        any.next()
        Self.settle(queue)
        #expect(owners.all == ["initial false", "d[0] i[] m[] true"])
        #expect(any.all == ["initial false", "d[0] i[] m[] false", "d[0] i[] m[] true"])
        let results = realm.objects(QDog.self)
        #expect(!results.isInvalidated)
        t1.invalidate()
        t2.invalidate()
    }

    /// A list observed after its object was deleted: `.initial` with the list invalidated (and
    /// empty), then nothing — on a queue as on this thread's RunLoop.
    @Test func theListOfADeletedObjectIsDeliveredInvalidated() throws {
        let (config, realm, jim) = try Self.setUp()
        defer { removeFolder(of: config) }
        let dogs = jim.dogs
        try realm.write { realm.delete(jim) }
        let queue = DispatchQueue(label: "list-observer")
        let log = QueueLog()
        let token = dogs.observe(on: queue) { change in
            log.add(Self.line(change) { (dogs: List<QDog>) in "\(dogs.isInvalidated) \(dogs.count)" })
        }
        var here: [String] = []
        let onThisThread = dogs.observe { change in
            here.append(Self.line(change) { (dogs: List<QDog>) in "\(dogs.isInvalidated) \(dogs.count)" })
        }
        log.next()
        try Self.write(config) { r in r.add(QDog(value: ["name": "Ace"])) }
        realm.refresh()
        Self.settle(queue)
        #expect(log.all == ["initial true 0"])
        #expect(here == ["initial true 0"])
        token.invalidate()
        onThisThread.invalidate()
    }

    @Test func invalidateStopsDeliveriesOnTheQueue() throws {
        let (config, _, jim) = try Self.setUp()
        defer { removeFolder(of: config) }
        let queue = DispatchQueue(label: "list-observer")
        let log = QueueLog()
        let token = jim.dogs.observe(keyPaths: nil, on: queue) { change in
            log.add(Self.line(change) { (dogs: List<QDog>) in "\(dogs.count)" })
        }
        log.next()
        try Self.write(config) { r in r.objects(QPerson.self).first!.dogs.removeAll() }
        log.next()
        token.invalidate()
        try Self.write(config) { r in r.objects(QPerson.self).first!.dogs.append(QDog(value: ["name": "Ace"])) }
        Self.settle(queue)
        #expect(log.all == ["initial 2", "d[0, 1] i[] m[] 0"])
    }
}

/// `changes()` of a list: each change carries the list itself, frozen at its version.
@Suite struct ListAsyncChangesTests {
    typealias QPerson = CollectionQueueObservationTests.QPerson
    typealias QDog = CollectionQueueObservationTests.QDog

    @Test func aListsChangesCarryTheFrozenListUpToItsObjectsDeletion() async throws {
        let (config, _, _) = try CollectionQueueObservationTests.setUp()
        defer { removeFolder(of: config) }
        nonisolated(unsafe) var made: RealmChanges<RealmCollectionChange<List<QDog>>>?
        try onOtherThread {
            let realm = try Realm(configuration: config)
            made = realm.objects(QPerson.self).first!.dogs.changes(keyPaths: ["age"])
        }
        var iterator = try #require(made).makeAsyncIterator()
        guard case .initial(let first)? = await iterator.next() else {
            Issue.record("no .initial")
            return
        }
        #expect(first.isFrozen && first.map(\.name) == ["Rex", "Fido"])
        // not watched
        try CollectionQueueObservationTests.write(config) { r in r.objects(QDog.self).first!.name = "Rex II" }
        try CollectionQueueObservationTests.write(config) { r in
            r.objects(QPerson.self).first!.dogs.move(from: 0, to: 1)
        }
        guard case .update(let second, let d, let i, _)? = await iterator.next() else {
            Issue.record("no .update")
            return
        }
        #expect(second.isFrozen && second.map(\.name) == ["Fido", "Rex II"] && !d.isEmpty && !i.isEmpty)
        try CollectionQueueObservationTests.write(config) { r in r.delete(r.objects(QPerson.self)) }
        guard case .update(let third, let deletions, _, _)? = await iterator.next() else {
            Issue.record("no deletion")
            return
        }
        #expect(third.isInvalidated && deletions == [0, 1])
        #expect(first.map(\.name) == ["Rex", "Fido"])  // each element keeps its own version
    }
}

@Suite struct CollectionInvalidationTests {
    typealias QPerson = CollectionQueueObservationTests.QPerson
    typealias QDog = CollectionQueueObservationTests.QDog

    @Test func unmanagedCollectionsAreNeverInvalidated() {
        #expect(!QDog().owners.isInvalidated)
        #expect(!QPerson().dogs.isInvalidated)
    }

    @Test func aDeletedObjectsCollectionsAreInvalidatedOnThisThreadToo() throws {
        let (config, realm, jim) = try CollectionQueueObservationTests.setUp()
        defer { removeFolder(of: config) }
        let rex = try #require(jim.dogs.first)
        let (dogs, owners, old) = (jim.dogs, rex.owners, jim.dogs.filter("age > 0"))
        #expect(!dogs.isInvalidated && !owners.isInvalidated && !old.isInvalidated)
        try realm.write {
            realm.delete(jim)
            realm.delete(rex)
        }
        #expect(dogs.isInvalidated && owners.isInvalidated && old.isInvalidated)
        #expect(!realm.objects(QDog.self).isInvalidated)
    }
}
