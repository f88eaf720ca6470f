import Foundation

/// How big the long harnesses run (power-loss images, killed workers, compaction races, fuzz
/// rounds, open/close cycles).
///
/// `.ci/run` sets `REALMTUI_TEST_SIZE=ci`: each harness runs at the size its test documents.
/// A plain `swift test` on a laptop still runs every test, each long harness at a quarter of
/// that size (at least one round). A harness's own variable, set by hand, wins over both.
public enum TestSize {
    /// Whether this run asked for CI size.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["REALMTUI_TEST_SIZE"] == "ci" }

    /// The size of one harness: `variable` when set to a number, else `ci` at CI size, else a
    /// quarter of it.
    public static func rounds(_ variable: String, ci: Int) -> Int {
        if let text = ProcessInfo.processInfo.environment[variable], let value = Int(text) { return value }
        return isCI ? ci : max(1, ci / 4)
    }
}
