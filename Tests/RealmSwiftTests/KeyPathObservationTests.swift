import Foundation
import Testing
import RealmSwift

@Suite struct KeyPathObservationTests {
    final class KPerson: Object {
        @Persisted var name = ""
        @Persisted var dogs: List<KDog>
    }
    final class KDog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var owner: KPerson?
    }

    /// Runs `body` in a write on another thread, then refreshes `realm` (which delivers).
    static func change(_ config: Realm.Configuration, _ realm: Realm, _ body: @escaping @Sendable (Realm) -> Void)
        throws
    {
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { body(r) }
        }
        realm.refresh()
    }

    /// A list holding one object twice reports both places modified, as without key paths;
    /// before, the second was compared with the value the first had just recorded, and dropped.
    @Test func aListHoldingAnObjectTwiceReportsBothPlaces() throws {
        let config = try fileConfig([KPerson.self, KDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let jim = try realm.write {
            realm.create(KPerson.self, value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1]]])
        }
        try realm.write { jim.dogs.append(jim.dogs[0]) }
        var log: [String] = []
        let token = jim.dogs.observe(keyPaths: ["age"]) { change in
            if case .update(_, let d, let i, let m) = change { log.append("d\(d) i\(i) m\(m)") }
        }
        defer { token.invalidate() }
        realm.refresh()
        try Self.change(config, realm) { r in r.objects(KDog.self).first!.age = 2 }
        #expect(log == ["d[] i[] m[0, 1]"])
    }

    @Test func onlyTheWatchedKeyPathsNotify() throws {
        let config = try fileConfig([KPerson.self, KDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        try realm.write {
            let jim = realm.create(KPerson.self, value: ["name": "Jim"])
            realm.create(KDog.self, value: ["name": "Rex", "age": 1, "owner": jim])
            realm.create(KDog.self, value: ["name": "Fido", "age": 2, "owner": jim])
        }
        let dogs = realm.objects(KDog.self).sorted(byKeyPath: "name")
        var log: [String] = []
        let token = dogs.observe(keyPaths: ["age", "owner.name"]) { change in
            switch change {
            case .initial(let r): log.append("initial \(r.count)")
            case .update(_, let d, let i, let m): log.append("d\(d) i\(i) m\(m)")
            case .error(let e): Issue.record(e)
            }
        }
        var all: [String] = []
        let unfiltered = dogs.observe { change in
            if case .update(_, _, _, let m) = change { all.append("m\(m)") }
        }
        realm.refresh()
        #expect(log == ["initial 2"])
        try Self.change(config, realm) { r in r.objects(KDog.self).filter("name == 'Rex'").first!.age = 5 }
        #expect(log == ["initial 2", "d[] i[] m[1]"])
        // A property outside the key paths: the unfiltered observer hears it, this one does not.
        try Self.change(config, realm) { r in r.objects(KDog.self).filter("name == 'Fido'").first!.owner = nil }
        #expect(log.count == 3 && log[2] == "d[] i[] m[0]")  // owner.name went from Jim to nil
        try Self.change(config, realm) { r in r.objects(KPerson.self).first!.dogs.append(r.objects(KDog.self).first!) }
        #expect(log.count == 3)
        #expect(all.count == 3)
        // Through the link: Rex's owner renamed.
        try Self.change(config, realm) { r in r.objects(KPerson.self).first!.name = "James" }
        #expect(log.last == "d[] i[] m[1]")
        // Insertions always notify.
        try Self.change(config, realm) { r in r.add(KDog(value: ["name": "Ace"])) }
        #expect(log.last == "d[] i[0] m[]")
        token.invalidate()
        unfiltered.invalidate()
    }

    @Test func listsFilterByKeyPathToo() throws {
        let config = try fileConfig([KPerson.self, KDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let jim = try realm.write {
            realm.create(KPerson.self, value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1]]])
        }
        var log: [String] = []
        let token = jim.dogs.observe(keyPaths: ["name"]) { change in
            switch change {
            case .initial(let list): log.append("initial \(list.count)")
            case .update(_, let d, let i, let m): log.append("d\(d) i\(i) m\(m)")
            case .error(let e): Issue.record(e)
            }
        }
        realm.refresh()
        try Self.change(config, realm) { r in r.objects(KDog.self).first!.age = 3 }
        try Self.change(config, realm) { r in r.objects(KDog.self).first!.name = "Rex II" }
        #expect(log == ["initial 1", "d[] i[] m[0]"])
        token.invalidate()
    }

    @Test func objectKeyPathsFollowLinks() throws {
        let config = try fileConfig([KPerson.self, KDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let rex = try realm.write {
            realm.create(KDog.self, value: ["name": "Rex", "age": 1, "owner": ["name": "Jim"]])
        }
        var log: [String] = []
        let token = rex.observe(keyPaths: ["age", "owner.name"]) { change in
            switch change {
            case .change(let dog, let properties):
                #expect(dog === rex)
                log.append(
                    properties.map {
                        "\($0.name) \($0.oldValue.map { "\($0)" } ?? "?")->\($0.newValue.map { "\($0)" } ?? "?")"
                    }
                    .joined(separator: ","))
            case .deleted: log.append("deleted")
            case .error(let e): Issue.record(e)
            }
        }
        try Self.change(config, realm) { r in r.objects(KPerson.self).first!.name = "James" }
        #expect(log.count == 1 && log[0].hasPrefix("owner.name ") && log[0].contains("Jim") && log[0].contains("James"))
        try Self.change(config, realm) { r in r.objects(KDog.self).first!.name = "other" }  // not watched
        try Self.change(config, realm) { r in r.add(KPerson(value: ["name": "Ann"])) }  // not this dog
        #expect(log.count == 1)
        try Self.change(config, realm) { r in r.objects(KDog.self).first!.age = 4 }
        #expect(log.count == 2 && log[1].hasPrefix("age "))
        try Self.change(config, realm) { r in r.delete(r.objects(KDog.self)) }
        #expect(log.count == 3 && log[2] == "deleted")
        try Self.change(config, realm) { r in r.objects(KPerson.self).first!.name = "Jim" }
        #expect(log.count == 3)
        token.invalidate()
    }

    /// Lines written by a queue's callbacks and read by the test, and a signal per line.
    final class QueueLog: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        let added = DispatchSemaphore(value: 0)
        func add(_ s: String) {
            lock.withLock { lines.append(s) }
            added.signal()
        }
        var all: [String] { lock.withLock { lines } }
        /// Waits for the next line, however long the queue takes (no deadline: a loaded machine
        /// delivers late; the expectations on `all` check what came).
        func next() { added.wait() }
    }

    static func describe(_ properties: [PropertyChange]) -> String {
        properties.map { "\($0.name) \($0.oldValue.map { "\($0)" } ?? "?")->\($0.newValue.map { "\($0)" } ?? "?")" }
            .joined(separator: ",")
    }

    @Test func objectKeyPathsFollowLinksOnAQueue() throws {
        let config = try fileConfig([KPerson.self, KDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let rex = try realm.write {
            realm.create(KDog.self, value: ["name": "Rex", "age": 1, "owner": ["name": "Jim"]])
        }
        let queue = DispatchQueue(label: "key-path-observer")
        let log = QueueLog()
        let token = rex.observe(keyPaths: ["age", "owner.name"], on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .change(let dog, let properties):
                // The object is bound to the queue's Realm: readable here, at the new version.
                log.add(
                    "\(dog.name) \(dog.owner?.name ?? "-") \(dog.realm?.isFrozen == false) \(Self.describe(properties))"
                )
            case .deleted: log.add("deleted")
            case .error(let e): log.add("error \(e)")
            }
        }
        let write: (@escaping @Sendable (Realm) -> Void) throws -> Void = { body in
            try onOtherThread {
                let r = try Realm(configuration: config)
                try r.write { body(r) }
            }
        }
        try write { r in r.objects(KPerson.self).first!.name = "James" }
        log.next()
        try write { r in r.objects(KDog.self).first!.name = "Max" }  // not watched
        try write { r in r.objects(KDog.self).first!.age = 4 }
        log.next()
        try write { r in r.objects(KDog.self).first!.owner = nil }
        log.next()
        try write { r in r.delete(r.objects(KDog.self)) }
        log.next()
        try write { r in r.objects(KPerson.self).first!.name = "Jim" }  // after the deletion: nothing
        Thread.sleep(forTimeInterval: 0.2)
        queue.sync {}
        let lines = log.all
        #expect(lines.count == 4)
        #expect(lines.first?.hasPrefix("Rex James true owner.name ") == true)
        #expect(lines.first?.contains("Jim") == true && lines.first?.contains("->") == true)
        #expect(lines.count > 1 && lines[1].hasPrefix("Max James true age ") && lines[1].hasSuffix("4"))
        #expect(lines.count > 2 && lines[2].hasPrefix("Max - true owner.name "))
        #expect(lines.last == "deleted")
        token.invalidate()
    }

    @Test func listKeyPathsFollowOnAQueue() throws {
        let config = try fileConfig([KPerson.self, KDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let jim = try realm.write {
            realm.create(
                KPerson.self,
                value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
        }
        let queue = DispatchQueue(label: "key-path-observer")
        let log = QueueLog()
        let token = jim.observe(keyPaths: ["dogs.age"], on: queue) { change in
            if case .change(let person, let properties) = change {
                log.add("\(person.dogs.map(\.age)) \(properties.map(\.name))")
            }
        }
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.objects(KDog.self).filter("name == 'Rex'").first!.name = "Rex II" }  // not watched
            try r.write { r.objects(KDog.self).filter("name == 'Fido'").first!.age = 7 }
        }
        log.next()
        Thread.sleep(forTimeInterval: 0.1)
        queue.sync {}
        #expect(log.all == ["[1, 7] [\"dogs.age\"]"])
        token.invalidate()
    }

    @Test func observingAFrozenObjectThroughLinksReportsAnError() throws {
        let config = try fileConfig([KPerson.self, KDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let rex = try realm.write { realm.create(KDog.self, value: ["name": "Rex", "owner": ["name": "Jim"]]) }
        var seen: [String] = []
        let token = rex.freeze().observe(keyPaths: ["owner.name"]) { change in
            if case .error(let error) = change { seen.append("\(error)") } else { seen.append("\(change)") }
        }
        pumpRunLoop { !seen.isEmpty }
        #expect(seen.count == 1 && seen[0].contains("frozen"))
        token.invalidate()
    }
}
