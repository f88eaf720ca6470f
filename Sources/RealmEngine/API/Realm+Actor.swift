import Foundation

// Realms confined to an actor.
//
// An actor's jobs may run on any thread of the cooperative pool, one at a time, so an instance
// confined to a thread cannot serve it; an instance confined to the actor can. Every entry
// point's confinement check (`checkThread`) then asks the runtime whether the caller runs
// isolated to that actor (`preconditionIsolated`), and stops the program when not — with the
// runtime's message naming the expected actor ("Incorrect actor executor assumption"): the same guarantee as thread confinement, checked at run time. (Swift 6's static
// checks do most of the work: `Realm` is not `Sendable`, so code isolated to the actor cannot
// hand it to another isolation domain without an unchecked escape.) Notifications and
// `autorefresh` are delivered by a task isolated to the actor, instead of a RunLoop.

extension Realm {
    /// Opens an instance confined to `actor`: it may be used from code isolated to `actor`
    /// (whichever thread runs it) and from nowhere else — use from elsewhere stops the program
    /// with a message. Call it from code isolated to `actor`; notifications registered through
    /// the instance are delivered on the actor.
    ///
    /// ```swift
    /// actor Store {
    ///     var realm: Realm?
    ///     func open() throws { realm = try Realm(configuration: config, confinedTo: self) }
    /// }
    /// ```
    public convenience init(configuration: Configuration, confinedTo actor: any Actor) throws {
        try self.init(configuration: configuration)
        confinementActor = actor
    }

    /// Stops the program when called from outside the instance's actor; throws `wrongThread`
    /// from outside its thread or queue (`closed` once closed). For layers that keep state of
    /// their own next to an instance and must check before touching it.
    public func checkConfinement() throws { try checkThread() }
}
