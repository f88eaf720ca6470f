/// Keeps a notification registration alive: callbacks are delivered while the token exists and
/// until `invalidate()`. Releasing the token ends the registration too.
///
/// After `invalidate()` returns, the callback is never called again — also when it is delivered
/// on a queue and `invalidate()` runs on another thread (it then waits for a running callback,
/// unless the calling thread is inside a write transaction of the file: that callback may be
/// waiting to write, so it is left to finish).
public final class NotificationToken: @unchecked Sendable {
    // `registration` is only cleared once, under the registration's own lock.
    let registration: Registration?

    init(_ registration: Registration?) {
        self.registration = registration
    }

    /// Ends the registration. Safe to call more than once, and from the callback itself.
    public func invalidate() {
        registration?.invalidate()
    }

    /// Alias of `invalidate()`.
    public func stop() { invalidate() }

    deinit { registration?.invalidate() }
}
