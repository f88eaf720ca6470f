import Foundation
import Testing
import RealmSwift

@Suite struct NotificationTests {
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }
    final class Person: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var dogs: List<Dog>
    }

    @Test func realmNotification() throws {
        let config = try fileConfig([Dog.self, Person.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        var realmNotes = 0
        let token = realm.observe { notification, r in
            #expect(notification == .didChange && r === realm)
            realmNotes += 1
        }
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.add(Dog()) }
        }
        realm.refresh()
        #expect(realmNotes == 1)
        token.invalidate()
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.add(Dog()) }
        }
        realm.refresh()
        #expect(realmNotes == 1)
    }

    @Test func resultsNotification() throws {
        let config = try fileConfig([Dog.self, Person.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        try realm.write {
            realm.create(Person.self, value: ["name": "a", "age": 10])
            realm.create(Person.self, value: ["name": "b", "age": 20])
        }
        let results = realm.objects(Person.self).filter("age > 5").sorted(byKeyPath: "age")
        var log: [String] = []
        let t2 = results.observe { changes in
            switch changes {
            case .initial(let r): log.append("initial \(r.count)")
            case .update(let r, let deletions, let insertions, let modifications):
                #expect(r.map(\.age) == [15, 21])
                log.append("d\(deletions) i\(insertions) m\(modifications)")
            case .error(let error): Issue.record(error)
            }
        }
        realm.refresh()
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write {
                r.create(Person.self, value: ["name": "c", "age": 15])
                r.objects(Person.self).filter("age == 20").first!.age = 21
                r.delete(r.objects(Person.self).filter("age == 10"))
            }
        }
        realm.refresh()
        #expect(log == ["initial 2", "d[0] i[0] m[1]"])
        t2.invalidate()
    }

    @Test func listNotification() throws {
        let config = try fileConfig([Dog.self, Person.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let person = try realm.write { realm.create(Person.self, value: ["name": "p", "dogs": [["name": "a"]]]) }
        var log: [String] = []
        let token = person.dogs.observe { change in
            switch change {
            case .initial(let list): log.append("initial \(list.count)")
            case .update(let list, let d, let i, let m): log.append("\(list.count) d\(d) i\(i) m\(m)")
            case .error(let e): Issue.record(e)
            }
        }
        realm.refresh()
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.objects(Person.self).first!.dogs.append(Dog(value: ["name": "b"])) }
        }
        realm.refresh()
        #expect(log == ["initial 1", "2 d[] i[1] m[]"])
        token.invalidate()
    }

    @Test func objectNotificationWithKeyPaths() throws {
        let config = try fileConfig([Dog.self, Person.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let dog = try realm.write { realm.create(Dog.self, value: ["name": "d", "age": 1]) }
        var log: [String] = []
        let t3 = dog.observe(keyPaths: ["age"]) { change in
            switch change {
            case .change(let object, let properties):
                #expect(object === dog)
                log.append(properties.map { "\($0.name) \($0.oldValue!)->\($0.newValue!)" }.joined())
            case .deleted: log.append("deleted")
            case .error(let e): Issue.record(e)
            }
        }
        let change: (@escaping @Sendable (Realm) -> Void) throws -> Void = { body in
            try onOtherThread {
                let r = try Realm(configuration: config)
                try r.write { body(r) }
            }
            realm.refresh()
        }
        try change { r in
            let d = r.objects(Dog.self).first!
            for age in 2...10 { d.age = age }
        }
        #expect(log == ["age 1->10"])
        try change { r in r.objects(Dog.self).first!.name = "other" }
        #expect(log == ["age 1->10"])
        try change { r in r.delete(r.objects(Dog.self).first!) }
        #expect(log == ["age 1->10", "deleted"])
        t3.invalidate()
    }
}

@Suite struct WithoutNotifyingTests {
    final class Item: Object { @Persisted var name = "" }

    @Test func skipsOnlyTheGivenTokens() throws {
        let config = try fileConfig([Item.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let items = realm.objects(Item.self)
        var quiet: [String] = []
        var loud: [String] = []
        func record(_ into: @escaping (String) -> Void) -> (RealmCollectionChange<Results<Item>>) -> Void {
            { change in
                switch change {
                case .initial(let r): into("initial \(r.count)")
                case .update(_, let d, let i, let m): into("d\(d) i\(i) m\(m)")
                case .error(let e): Issue.record(e)
                }
            }
        }
        let t1 = items.observe(record { quiet.append($0) })
        let t2 = items.observe(record { loud.append($0) })
        realm.refresh()
        try realm.write(withoutNotifying: [t1]) { realm.create(Item.self, value: ["name": "a"]) }
        realm.refresh()
        #expect(quiet == ["initial 0"] && loud == ["initial 0", "d[] i[0] m[]"])
        try realm.write { realm.create(Item.self, value: ["name": "b"]) }
        realm.refresh()
        #expect(quiet == ["initial 0", "d[] i[1] m[]"] && loud.last == "d[] i[1] m[]")
        t1.invalidate()
        t2.invalidate()
    }
}

@Suite struct QueueDeliveryTests {
    final class Item: Object {
        @Persisted var name = ""
        @Persisted var n = 0
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ s: String) { lock.withLock { lines.append(s) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func resultsAndObjectsDeliverOnAQueue() throws {
        let config = try fileConfig([Item.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let item = try realm.write { realm.create(Item.self, value: ["name": "a", "n": 1]) }
        let queue = DispatchQueue(label: "typed-notifications")
        let log = Log()
        let got = DispatchSemaphore(value: 0)
        let t1 = realm.objects(Item.self).sorted(byKeyPath: "name").observe(on: queue) { change in
            switch change {
            case .initial(let r): log.add("initial \(r.map(\.name))")
            case .update(let r, _, let i, _): log.add("update \(r.map(\.name)) i\(i)")
            case .error(let e): log.add("error \(e)")
            }
            got.signal()
        }
        let t2 = item.observe(keyPaths: ["n"], on: queue) { change in
            if case .change(let object, let properties) = change {
                log.add("object \(object.name) \(properties.map(\.name))")
                got.signal()
            }
        }
        got.wait()
        try realm.write {
            realm.create(Item.self, value: ["name": "b"])
            item.n = 2
        }
        got.wait()
        got.wait()
        let lines = log.all
        #expect(lines.contains("initial [\"a\"]"))
        #expect(lines.contains("update [\"a\", \"b\"] i[1]"))
        #expect(lines.contains("object a [\"n\"]"))
        t1.invalidate()
        t2.invalidate()
    }
}
