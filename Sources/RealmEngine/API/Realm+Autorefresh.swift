import Foundation

extension Realm {
    /// Whether the instance moves to each newer version on its thread's RunLoop — commits made
    /// by other instances, threads or processes — whether or not anything observes it, as a
    /// RealmSwift Realm does. Off by default for the dynamic API (an instance reads one snapshot
    /// until `refresh()`); the typed API turns it on for the Realms it opens.
    ///
    /// It works through the same notifier as `observe` (a registration that reports nothing),
    /// so it costs nothing on a thread whose RunLoop does not run, and a write transaction is
    /// never interrupted: the move happens when the RunLoop next turns outside one. A frozen
    /// instance never refreshes, so setting it there does nothing.
    public var autorefresh: Bool {
        get { autorefreshToken != nil }
        set {
            guard newValue != autorefresh else { return }
            if newValue {
                let token = observe { _, _ in }
                if token.registration != nil { autorefreshToken = token }
            } else {
                autorefreshToken?.invalidate()
                autorefreshToken = nil
            }
        }
    }
}
