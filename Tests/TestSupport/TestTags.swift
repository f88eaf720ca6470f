import Testing

/// The tiers of the suite. `swift test` runs every tier; the tags say what a test needs and
/// costs, so a slow or flaky tier can be told apart in a report and run alone by name.
extension Tag {
    /// Damage, crash and power-loss safety: the file's invariants under faults.
    @Tag public static var integrity: Self
    /// Starts other processes (writers, watchers, the command line).
    @Tag public static var multiProcess: Self
    /// Drives the real binary in tmux.
    @Tag public static var tmux: Self
    /// Takes more than about 10 s on a loaded 2-core machine: a long harness whose size
    /// `TestSize` sets, or a walk over many files or fixtures.
    @Tag public static var slow: Self
}
