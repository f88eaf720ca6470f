import Foundation

// Realms confined to an actor: `try await Realm(actor: self)` inside an actor, or
// `Realm(actor: MainActor.shared)`.
//
// Why this is sound under Swift 6's strict concurrency: `Realm`, its objects and collections
// are not `Sendable`, so the compiler refuses to let them leave the actor — through the
// initializer's result (called from elsewhere, `Realm(actor:)` does not compile), a method's
// result or a capture — short of an unchecked escape (`nonisolated(unsafe)`, an
// `@unchecked Sendable` box) or Swift 5 mode. For those, every entry point also checks at run
// time that it runs isolated to the actor (`Actor.preconditionIsolated`) and stops with a
// message if not, before touching any state, as the thread check does for thread-confined
// Realms. The actor's jobs may run on any
// thread; the engine instance is not tied to one. Notifications (and `autorefresh`) are
// delivered by a task isolated to the actor, since a cooperative thread has no RunLoop.
//
// A Realm opened on the main thread with `Realm(configuration:)` is already usable from
// `@MainActor` code (the main actor runs on the main thread, whose RunLoop delivers).

extension Realm {
    /// Opens a Realm confined to `actor`: usable from code isolated to it, on whichever thread
    /// the actor runs; use from anywhere else stops the program with a message. Notifications
    /// registered through it, and `autorefresh`, are delivered on the actor.
    ///
    /// ```swift
    /// actor DogStore {
    ///     var realm: Realm!
    ///     func open() async throws { realm = try await Realm(configuration: config, actor: self) }
    ///     func add(_ name: String) throws { try realm.write { realm.add(Dog(value: ["name": name])) } }
    /// }
    /// ```
    ///
    /// Each call opens an instance of its own (actor-confined instances are not shared the way
    /// a thread's are). Throws what `Realm(configuration:)` throws.
    public convenience init(configuration: Configuration = .defaultConfiguration, actor: isolated any Actor)
        async throws
    {
        let engine = try configuration.openNew { try RealmEngine.Realm(configuration: $0, confinedTo: actor) }
        engine.autorefresh = true
        self.init(wrapping: engine, configuration: configuration)
    }
}
