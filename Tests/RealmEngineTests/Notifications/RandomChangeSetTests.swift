import Foundation
import Testing
@testable import RealmEngine

/// Random commit sequences against live observers: every delivered change set must turn the
/// previously delivered keys into a fresh evaluation of the query, and report as modified
/// exactly the objects present in both whose values (or linked objects' values, 4 deep) changed.
@Suite(.serialized) struct RandomChangeSetTests {
    final class Observer {
        let name: String
        let fresh: (Realm) throws -> [ObjectKey]
        var keys: [ObjectKey] = []
        var version: UInt64 = 0
        var updates = 0
        var failures: [String] = []
        var token: NotificationToken?
        init(name: String, fresh: @escaping (Realm) throws -> [ObjectKey]) {
            self.name = name
            self.fresh = fresh
        }
    }

    /// Fixtures.people plus Dog.friend, so links chain deeper than the 4 hops followed.
    static let schema = Schema([
        Fixtures.people.objectSchemas[0],
        ObjectSchema(
            name: "Dog",
            properties: Fixtures.people.objectSchemas[1].properties + [
                Property(name: "friend", type: .object, objectClassName: "Dog")
            ]),
    ])

    @Test(arguments: [1, 2, 3, 4])
    func randomCommits(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let config = Realm.Configuration(inMemoryIdentifier: "random-\(seed)-\(UUID().uuidString)", schema: Self.schema)
        let writer = try Realm(configuration: config)
        let observed = try Realm(configuration: config)
        var nextId: Int64 = 0
        // Anchors that are never deleted: a person whose list is observed, a dog whose owners are.
        var p0 = ObjectKey(0)
        var d0 = ObjectKey(0)
        try writer.write {
            d0 = try writer.create("Dog", ["name": .string("anchor"), "age": .int(5)]).key
            p0 = try writer.create("Person", ["id": .int(nextId), "name": .string("anchor"), "age": .int(30)]).key
            nextId += 1
        }
        observed.refresh()
        var dumps: [UInt64: Dump] = [:]
        func dump(_ realm: Realm) throws -> Dump {
            if let d = dumps[realm.version] { return d }
            let d = try Dump(realm)
            dumps[realm.version] = d
            return d
        }
        let dogClass = try observed.classIndex("Dog")
        let personClass = try observed.classIndex("Person")
        let queries: [(String, Int, (Realm) throws -> Results)] = [
            ("dogs age > 3", dogClass, { try $0.objects("Dog").filter("age > 3") }),
            (
                "dogs sorted", dogClass,
                {
                    try $0.objects("Dog").sorted(by: [
                        SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name"),
                    ])
                }
            ),
            (
                "people age>=20 by name", personClass,
                { try $0.objects("Person").filter("age >= 20").sorted(byKeyPath: "name") }
            ),
            ("dogs distinct age", dogClass, { try $0.objects("Dog").distinct(by: ["age"]) }),
            ("dogs limited", dogClass, { try $0.objects("Dog").filter("age > 2").sorted(byKeyPath: "name").limit(5) }),
            ("people", personClass, { try $0.objects("Person") }),
            ("people best.age > 4", personClass, { try $0.objects("Person").filter("best.age > 4") }),
            (
                "p0.dogs", dogClass,
                {
                    try $0.object(ofType: "Dog", key: d0) == nil
                        ? $0.objects("Dog") : $0.object(ofType: "Person", key: p0)!.list(forKey: "dogs").objects()
                }
            ),
            ("d0.owners", personClass, { try $0.object(ofType: "Dog", key: d0)!.linkingObjects(forKey: "owners") }),
            ("dogs ANY owners.age > 30", dogClass, { try $0.objects("Dog").filter("ANY owners.age > 30") }),
        ]
        var observers: [Observer] = []
        for (name, classIndex, make) in queries {
            let o = Observer(name: name) { try make($0).keys() }
            let results = try make(observed)
            o.token = results.observe { change in
                do {
                    switch change {
                    case .initial(let r):
                        o.keys = try r.keys()
                        o.version = observed.version
                        _ = try dump(observed)
                        #expect(o.keys == (try o.fresh(observed)), "initial \(name)")
                    case .update(let r, let deletions, let insertions, let modifications):
                        o.updates += 1
                        let new = try o.fresh(observed)
                        let primed = try r.keys()
                        if primed != new { o.failures.append("\(name): delivered keys differ from a fresh run") }
                        if apply(deletions: deletions, insertions: insertions, to: o.keys, new: new) != new {
                            o.failures.append(
                                "\(name) v\(o.version)→\(observed.version): old \(o.keys) new \(new) -\(deletions) +\(insertions)"
                            )
                        }
                        let old = try #require(dumps[o.version])
                        let now = try dump(observed)
                        let newSet = Set(new)
                        let expected = o.keys.indices.filter { i in
                            newSet.contains(o.keys[i]) && now.changed(classIndex, o.keys[i], since: old)
                        }
                        if expected != modifications {
                            o.failures.append(
                                "\(name) v\(o.version)→\(observed.version): modifications \(modifications) expected \(expected) keys \(o.keys)"
                            )
                        }
                        o.keys = new
                        o.version = observed.version
                    case .error(let e):
                        o.failures.append("\(name): error \(e)")
                    }
                } catch {
                    o.failures.append("\(name): \(error)")
                }
            }
            observers.append(o)
        }
        pumpRunLoop { observers.allSatisfy { $0.version != 0 } }
        #expect(observers.allSatisfy { $0.version != 0 })

        let names = ["a", "b", "c", "d", "e", "f"]
        var pumpTime = 0.0
        defer { print("seed \(seed): pumping took \(pumpTime) s") }
        for round in 0..<250 {
            // Each object is changed at most once per round, so values never change and change back.
            var touched = Set<ObjectKey>()
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                try writer.write {
                    for _ in 0..<Int.random(in: 1...4, using: &rng) {
                        let dogs = try writer.objects("Dog").keys()
                        let people = try writer.objects("Person").keys()
                        let op = Int.random(in: 0..<10, using: &rng)
                        do {
                            switch op {
                            case 0, 1:
                                let d = try writer.create(
                                    "Dog",
                                    [
                                        "name": .string(names.randomElement(using: &rng)!),
                                        "age": .int(Int64.random(in: 0...9, using: &rng)),
                                    ])
                                touched.insert(d.key)
                            case 2:
                                var dogList: [ObjectInput] = []
                                for _ in 0..<Int.random(in: 0...3, using: &rng) where !dogs.isEmpty {
                                    dogList.append(.value(.link(dogs.randomElement(using: &rng)!)))
                                }
                                let best: Value =
                                    dogs.isEmpty || Bool.random(using: &rng)
                                    ? .null : .link(dogs.randomElement(using: &rng)!)
                                let p = try writer.create(
                                    "Person",
                                    value: .dictionary([
                                        "id": .value(.int(nextId)),
                                        "name": .value(.string(names.randomElement(using: &rng)!)),
                                        "age": .value(
                                            Bool.random(using: &rng)
                                                ? .null : .int(Int64.random(in: 10...50, using: &rng))),
                                        "dogs": .array(dogList), "best": .value(best),
                                    ]))
                                nextId += 1
                                touched.insert(p.key)
                            case 3:
                                // Delete a dog (not the anchor) whose linking people are untouched.
                                guard let d = dogs.randomElement(using: &rng), d != d0, !touched.contains(d),
                                    let dog = try writer.object(ofType: "Dog", key: d)
                                else { break }
                                let linking = try writer.objects("Person").filter(
                                    "ANY dogs == %@ OR best == %@", .link(d), .link(d)
                                ).keys()
                                let friends = try writer.objects("Dog").filter("friend == %@", .link(d)).keys()
                                guard (linking + friends).allSatisfy({ !touched.contains($0) }) else { break }
                                touched.formUnion(linking + friends)
                                touched.insert(d)
                                try writer.delete(dog)
                            case 4:
                                guard let p = people.randomElement(using: &rng), p != p0, !touched.contains(p),
                                    let person = try writer.object(ofType: "Person", key: p)
                                else { break }
                                touched.insert(p)
                                try writer.delete(person)
                            case 5, 6:
                                guard let d = dogs.randomElement(using: &rng), !touched.contains(d),
                                    let dog = try writer.object(ofType: "Dog", key: d)
                                else { break }
                                touched.insert(d)
                                switch Int.random(in: 0..<3, using: &rng) {
                                case 0:
                                    try dog.setValue(.int(Int64.random(in: 0...9, using: &rng)), forKey: "age")
                                case 1:
                                    try dog.setValue(
                                        Bool.random(using: &rng) ? .null : .link(dogs.randomElement(using: &rng)!),
                                        forKey: "friend")
                                default:
                                    try dog.setValue(.string(names.randomElement(using: &rng)!), forKey: "name")
                                }
                            case 7:
                                guard let p = people.randomElement(using: &rng), !touched.contains(p),
                                    let person = try writer.object(ofType: "Person", key: p)
                                else { break }
                                touched.insert(p)
                                if Bool.random(using: &rng) {
                                    try person.setValue(
                                        Bool.random(using: &rng) ? .null : .int(Int64.random(in: 10...50, using: &rng)),
                                        forKey: "age")
                                } else {
                                    try person.setValue(
                                        dogs.isEmpty || Bool.random(using: &rng)
                                            ? .null : .link(dogs.randomElement(using: &rng)!), forKey: "best")
                                }
                            default:
                                // List edits (p0 half the time, so the observed list moves a lot).
                                let p = Bool.random(using: &rng) ? p0 : (people.randomElement(using: &rng) ?? p0)
                                guard !touched.contains(p), let person = try writer.object(ofType: "Person", key: p)
                                else { break }
                                touched.insert(p)
                                let list = try person.list(forKey: "dogs")
                                let n = list.count
                                switch Int.random(in: 0..<5, using: &rng) {
                                case 0 where !dogs.isEmpty:
                                    try list.append(.value(.link(dogs.randomElement(using: &rng)!)))
                                case 1 where !dogs.isEmpty:
                                    try list.insert(
                                        .value(.link(dogs.randomElement(using: &rng)!)),
                                        at: Int.random(in: 0...n, using: &rng))
                                case 2 where n > 0: try list.remove(at: Int.random(in: 0..<n, using: &rng))
                                case 3 where n > 1:
                                    try list.move(
                                        from: Int.random(in: 0..<n, using: &rng), to: Int.random(in: 0..<n, using: &rng)
                                    )
                                case 4 where n > 0 && !dogs.isEmpty:
                                    try list.replace(
                                        index: Int.random(in: 0..<n, using: &rng),
                                        with: .value(.link(dogs.randomElement(using: &rng)!)))
                                default: break
                                }
                            }
                        } catch {
                            Issue.record("op \(op): \(error)")
                            throw error
                        }
                    }
                }
            }
            // Deliver either through the RunLoop (notifier-computed change sets) or refresh().
            if round % 3 == 0 {
                let latest = writer.version
                let t0 = Date()
                pumpRunLoop { observed.version >= latest }  // no deadline: the delivery is the event
                pumpTime += Date().timeIntervalSince(t0)
            }
            observed.refresh()
            for o in observers where !o.failures.isEmpty {
                Issue.record("seed \(seed) round \(round): \(o.failures.joined(separator: "\n"))")
                return
            }
            for o in observers {
                #expect(o.keys == (try o.fresh(observed)), "\(o.name) after round \(round)")
            }
        }
        for o in observers {
            #expect(o.updates > 0, "\(o.name) saw no update")
            o.token?.invalidate()
        }
    }
}

/// SplitMix64 (shared with the cluster tests), so each seed replays the same commits.
typealias SeededRandom = SeededGenerator
