import Foundation
import Testing
import RealmSwift

@Suite struct RealmActorTests {
    final class ActorDog: Object { @Persisted var name = "" }

    /// An actor holding a Realm confined to it.
    actor DogStore {
        var realm: Realm?
        var log: [String] = []
        var token: NotificationToken?

        func open(_ config: Realm.Configuration) async throws {
            let realm = try await Realm(configuration: config, actor: self)
            self.realm = realm
            token = realm.objects(ActorDog.self).observe { [weak self] change in
                // Delivered on the actor (checked by assumeIsolated, which would stop otherwise).
                guard let self else { return }
                let entry: String
                switch change {
                case .initial(let dogs): entry = "initial \(dogs.count)"
                case .update(let dogs, _, let insertions, _): entry = "\(dogs.count) i\(insertions)"
                case .error(let error): entry = "error \(error)"
                }
                self.assumeIsolated { $0.log.append(entry) }
            }
        }

        func add(_ name: String) throws {
            guard let realm else { return }
            try realm.write { realm.add(ActorDog(value: ["name": name])) }
        }

        func names() -> [String] { realm?.objects(ActorDog.self).map(\.name) ?? [] }
        func close() {
            token?.invalidate()
            token = nil
            realm = nil
        }
    }

    /// Polls the actor's log until `done` holds: no deadline (a loaded machine runs the actor
    /// late; the expectations after the wait check what the log holds).
    static func waitFor(_ store: DogStore, _ done: @escaping @Sendable ([String]) -> Bool) async throws {
        while !done(await store.log) { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func aRealmConfinedToAnActorWorksOnWhicheverThreadItRuns() async throws {
        let config = try fileConfig([ActorDog.self])
        defer { removeFolder(of: config) }
        let store = DogStore()
        try await store.open(config)
        try await Self.waitFor(store) { $0 == ["initial 0"] }
        try await store.add("rex")
        #expect(await store.names() == ["rex"])
        try await Self.waitFor(store) { $0.count == 2 }
        // Another thread's commit: picked up on the actor (autorefresh) and reported there.
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.add(ActorDog(value: ["name": "fido"])) }
        }
        try await Self.waitFor(store) { $0.count == 3 }
        let log = await store.log
        #expect(log == ["initial 0", "1 i[0]", "2 i[1]"], "\(log)")
        #expect(await store.names() == ["rex", "fido"])
        await store.close()
    }

    /// A registration refused on the actor (inside a write transaction) reports its error there;
    /// before, it went to a timer on the thread's RunLoop, which nothing runs on an actor.
    @Test func aRefusedRegistrationReportsItsErrorOnTheActor() async throws {
        let config = try fileConfig([ActorDog.self])
        defer { removeFolder(of: config) }
        actor Refused {
            var log: [String] = []
            var token: NotificationToken?
            var realm: Realm?
            func observeInsideAWrite(_ config: Realm.Configuration) async throws {
                let realm = try await Realm(configuration: config, actor: self)
                self.realm = realm
                try realm.write {
                    token = realm.objects(ActorDog.self).observe { [weak self] change in
                        guard let self else { return }
                        let entry = if case .error = change { "error" } else { "delivered" }
                        self.assumeIsolated { $0.log.append(entry) }
                    }
                }
            }
        }
        let store = Refused()
        try await store.observeInsideAWrite(config)
        while await store.log.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await store.log == ["error"])
    }

    @Test func usingItOutsideTheActorStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class XDog: Object { @Persisted var name = "" }
            // Swift 6 refuses to let the Realm out of the actor (its initializer's result or a
            // method's); only an unchecked escape does, and the run-time check stops its use.
            final class Escape: @unchecked Sendable { var realm: Realm? }
            actor Holder {
                func open(into escape: Escape) async throws {
                    escape.realm = try await Realm(
                        configuration: Realm.Configuration(inMemoryIdentifier: "x", objectTypes: [XDog.self]),
                        actor: self)
                }
            }
            let escape = Escape()
            try await Holder().open(into: escape)
            _ = escape.realm?.objects(XDog.self).count
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        // The runtime's message (Linux drops preconditionIsolated's own), naming the actor.
        #expect(message.contains("Incorrect actor executor assumption") && message.contains("Holder"), "\(message)")
    }
}
