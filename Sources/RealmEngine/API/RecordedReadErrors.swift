// Read failures found by a layer above (the typed API's subscripts), recorded where the
// engine's own non-throwing members record theirs, so one `error` tells them all.

extension Results {
    /// Records a failure to read the objects (a damaged file) in `error`, as `count` does; nil
    /// records a read that succeeded.
    public func recordReadError(_ error: RealmError?) { self.error = error }
}

extension DynamicList {
    /// Records a failure to read the elements (a damaged file) in `error`, as `count` does; nil
    /// records a read that succeeded.
    public func recordReadError(_ error: RealmError?) { self.error = error }
}
