import Foundation
import Testing
@testable import RealmEngine

/// Issue 11: after many open/close cycles of a Realm (plain open, read, write, observe then
/// invalidate, a `CommitWatcher`), the process's file descriptors, mappings and threads are back
/// where they started. Counted in a child process (`realm-torture resources`), where no other
/// test opens anything meanwhile.
///
/// Descriptors and mappings of the database's files must come back exactly, threads to at most
/// as many. All mappings together may grow by a bounded few that do not scale with the cycles —
/// glibc's malloc arenas (one per contended thread, at most 8 per core), the stacks it caches for
/// exited threads, library mappings the kernel splits — but a leaked mapping or thread stack per
/// cycle would show.
///
/// `REALMTUI_RESOURCE_CYCLES` sets the number of cycles (1,000 at CI size, `TestSize`; 10,000 by hand).
@Suite(.tags(.multiProcess, .slow)) struct ResourceCycleTests {
    @Test func openCloseCyclesLeaveNoDescriptorMappingOrThread() throws {
        let cycles = TestSize.rounds("REALMTUI_RESOURCE_CYCLES", ci: 1000)
        let dir = TempDir()
        let (status, out, err) = try BuiltExecutable.run(
            "realm-torture", ["resources", dir.path("cycles.realm"), "\(cycles)"])
        #expect(status == 0, "\(err)")
        var counts: [String: [Int]] = [:]
        for line in out.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if let name = parts.first { counts[String(name)] = parts.dropFirst().compactMap { Int($0) } }
        }
        let before = try #require(counts["before"])
        let after = try #require(counts["after"])
        try #require(before.count == 4 && after.count == 4, "\(out)")
        #expect(after[0] == before[0], "file descriptors: \(before[0]) before, \(after[0]) after \(cycles) cycles")
        #expect(
            after[1] == before[1],
            "mappings of the database's files: \(before[1]) before, \(after[1]) after \(cycles) cycles")
        #expect(after[2] <= before[2] + 16, "mappings: \(before[2]) before, \(after[2]) after \(cycles) cycles")
        #expect(after[3] <= before[3], "threads: \(before[3]) before, \(after[3]) after \(cycles) cycles")
        print("resources: \(cycles) cycles, \(out.split(separator: "\n").joined(separator: ", "))")
    }
}
