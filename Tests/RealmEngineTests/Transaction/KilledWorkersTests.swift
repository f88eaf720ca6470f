import Foundation
import Testing
@testable import RealmEngine

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 11, "many processes": 4 processes × 4 threads × 250 increments of one counter, each a
/// write transaction (read, +1, commit), while a supervisor SIGKILLs random workers at random
/// moments and restarts them until every increment is acknowledged.
///
/// - No increment lost: every acknowledged value is distinct (two transactions that read the same
///   value would both write value + 1), none is above the final counter (an acknowledged commit
///   rolled back), and the final counter is at least the acknowledged count.
/// - None doubled or invented: the final counter is at most the acknowledged count plus the
///   increments that can be in flight at a kill (committed, not yet logged): one per thread of
///   the killed process.
/// - A killed lock holder never blocks the others: after each kill, some surviving worker gets the
///   write lock (the longest wait is printed; it is not asserted against a clock, which a loaded
///   machine would make flaky: a worker blocked for good would keep the test from finishing).
///
/// Each worker's stderr goes to a file in the test's folder and is shown when the test fails.
///
/// `REALMTUI_MANY_PROCESSES_INCREMENTS` sets the increments per thread (250 at CI size, `TestSize`; e.g.
/// 2500 by hand).
@Suite(.serialized, .tags(.integrity, .multiProcess, .slow)) struct KilledWorkersTests {
    static let processes = 4
    static let threadsPerProcess = 4
    static var incrementsPerThread: Int {
        TestSize.rounds("REALMTUI_MANY_PROCESSES_INCREMENTS", ci: 250)
    }

    /// CLOCK_REALTIME in nanoseconds: the clock the workers stamp their lock grants with.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// A worker's log: lock grant times and acknowledged values.
    struct Log {
        var grants: [Int64] = []
        var acked: [Int64] = []

        init(path: String) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let n = Int64(parts[1]) else { continue }  // a line cut by a kill
                if parts[0] == "lock" { grants.append(n) } else if parts[0] == "ack" { acked.append(n) }
            }
        }
    }

    @Test func killedWorkersLoseNoIncrementAndNeverBlockTheOthers() throws {
        guard let exe = BuiltExecutable.url("realm-torture") else {
            Issue.record("realm-torture was not built next to the tests")
            return
        }
        let dir = TempDir()
        let path = dir.path("counter.realm")
        let perWorker = Self.threadsPerProcess * Self.incrementsPerThread
        let logs = (0..<Self.processes).map { dir.path("worker-\($0).log") }
        // Create the file first: a worker killed while creating it would leave a blank header.
        _ = try BuiltExecutable.run("realm-torture", ["counter", path, dir.path("setup.log"), "1", "0"])

        let errors = (0..<Self.processes).map { dir.path("worker-\($0).err") }
        for file in errors {
            try #require(FileManager.default.createFile(atPath: file, contents: nil), "cannot make \(file)")
        }
        func stderr(_ worker: Int) -> String { (try? String(contentsOfFile: errors[worker], encoding: .utf8)) ?? "" }
        var failed = Set<Int>()

        func start(_ worker: Int) throws -> Process? {
            let remaining = perWorker - Log(path: logs[worker]).acked.count
            guard remaining > 0, !failed.contains(worker) else { return nil }
            let p = Process()
            p.executableURL = exe
            p.arguments = ["counter", path, logs[worker], "\(Self.threadsPerProcess)", "\(remaining)"]
            let errorFile = FileHandle(forWritingAtPath: errors[worker])
            _ = try errorFile?.seekToEnd()
            p.standardError = errorFile
            try p.run()
            return p
        }

        var running: [Process?] = try (0..<Self.processes).map(start)
        var kills: [Int64] = []
        var killedWorkers: [Int] = []
        var rng = SystemRandomNumberGenerator()
        let started = ContinuousClock.now
        while running.contains(where: { $0 != nil }) {
            usleep(UInt32.random(in: 20_000...250_000, using: &rng))
            // Restart the workers that exited (done: nil) and kill one at random; a worker that
            // failed on its own is not restarted (the test then ends with its stderr).
            for w in 0..<Self.processes {
                guard let p = running[w], !p.isRunning else { continue }
                let ok = p.terminationReason == .uncaughtSignal || p.terminationStatus == 0
                #expect(ok, "worker \(w) failed with status \(p.terminationStatus): \(stderr(w))")
                if !ok { failed.insert(w) }
                running[w] = try start(w)
            }
            let alive = (0..<Self.processes).filter { running[$0]?.isRunning == true }
            guard let victim = alive.randomElement(using: &rng), let p = running[victim] else { continue }
            // Kill only when another worker is alive to wait for the lock.
            guard alive.count > 1 else { continue }
            kill(p.processIdentifier, SIGKILL)
            kills.append(Self.now())
            killedWorkers.append(victim)
            p.waitUntilExit()
            running[victim] = try start(victim)
        }
        let elapsed = ContinuousClock.now - started

        let all = logs.map(Log.init(path:))
        let acked = all.flatMap(\.acked)
        let realm = try Realm(path: path)
        _ = try realm.checkIntegrity()
        guard case .int(let counter)? = try realm.object(ofType: "Counter", forPrimaryKey: .int(0))?["value"] else {
            Issue.record("no counter")
            return
        }
        #expect(acked.count == Self.processes * perWorker, "stderr: \((0..<Self.processes).map(stderr).joined())")
        #expect(Set(acked).count == acked.count, "two transactions acknowledged the same value: an increment was lost")
        #expect(counter >= Int64(acked.count), "acknowledged increments are missing")
        // A value acknowledged above the final counter was a commit later lost.
        #expect((acked.max() ?? 0) <= counter, "acknowledged value \(acked.max() ?? 0) is above the counter \(counter)")
        #expect(counter <= Int64(acked.count + kills.count * Self.threadsPerProcess), "more increments than were made")

        // After each kill, the first lock grant to a worker that was not killed at that moment.
        let grants = all.enumerated().flatMap { w, log in log.grants.map { (time: $0, worker: w) } }.sorted {
            $0.time < $1.time
        }
        var longest: Int64 = 0
        for (k, killedAt) in kills.enumerated() {
            // Another worker took the lock after the kill (unless every other one had finished).
            let others = (0..<Self.processes).filter { $0 != killedWorkers[k] }
            let othersWereDone = others.allSatisfy { w in
                (all[w].grants.last ?? 0) < killedAt && all[w].acked.count == perWorker
            }
            guard let next = grants.first(where: { $0.time > killedAt && $0.worker != killedWorkers[k] }) else {
                #expect(othersWereDone, "no other worker got the write lock after kill \(k)")
                continue
            }
            longest = max(longest, next.time - killedAt)
        }
        print(
            "many processes: \(acked.count) increments acknowledged, counter \(counter), \(kills.count) kills, "
                + "\(counter - Int64(acked.count)) in flight at kills, longest lock wait after a kill \(Double(longest) / 1e6) ms, "
                + "\(elapsed)")
    }
}
