import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#endif

/// `resources PATH N`: the open/close cycle test's worker (issue 11). Runs 100 warm-up cycles,
/// prints `before FDS REALM-MAPS ALL-MAPS THREADS`, runs N cycles of a mix — plain open, read, write,
/// observe (`.initial` delivered on a queue, then the token invalidated) and a `CommitWatcher`
/// — each opening the file and dropping every instance, then prints `after …` likewise
/// once the counts settled (threads and mappings of the last instance may take a moment to go)
/// or after 10 s, and `seconds S` for the cycles.
///
/// It runs in its own process so that nothing else (other tests) opens descriptors or threads
/// while it counts.
func runResourceCycles(path: String, schema: Schema, cycles: Int) {
    func count(_ dir: String) -> Int { (try? FileManager.default.contentsOfDirectory(atPath: dir).count) ?? -1 }
    /// Mappings of the database's folder (the file, its lock file: what a leaked Realm keeps),
    /// and all mappings (also libraries, whose lines the kernel may split or merge, malloc arenas
    /// and thread stacks).
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
    func mapCounts() -> (realm: Int, all: Int) {
        guard let text = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return (-1, -1) }
        let lines = text.split(separator: "\n")
        return (lines.filter { $0.contains(folder + "/") }.count, lines.count)
    }
    /// Descriptors, mappings of the database's files, all mappings, threads.
    func snapshot() -> [Int] {
        let maps = mapCounts()
        return [count("/proc/self/fd"), maps.realm, maps.all, count("/proc/self/task")]
    }
    // REALM_TORTURE_DUMP=1: also print what the descriptors and mappings are, to find a leak.
    func dump(_ label: String) {
        guard ProcessInfo.processInfo.environment["REALM_TORTURE_DUMP"] != nil else { return }
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)) ?? "?"
            print("\(label) fd \(fd) \(target)")
        }
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        for line in maps.split(separator: "\n") { print("\(label) map \(line)") }
    }

    let queue = DispatchQueue(label: "realm-torture.resources")
    func cycle(_ i: Int) throws {
        let realm = try Realm(path: path, schema: schema)
        switch i % 5 {
        case 0:
            break
        case 1:
            var sum: Int64 = 0
            for value in try realm.objects("Counter").value(forKey: "value") {
                if case .int(let v) = value { sum &+= v }
            }
            if sum < 0 { fail("negative sum") }
        case 2:
            try incrementCounter(in: realm)
        case 3:
            let delivered = DispatchSemaphore(value: 0)
            let token = try realm.objects("Counter").observe(on: queue) { change in
                if case .initial = change { delivered.signal() }
            }
            if delivered.wait(timeout: .now() + 10) == .timedOut { fail("no initial notification in 10 s") }
            token.invalidate()
        default:
            let watcher = CommitWatcher(realm)
            _ = watcher.wait(since: watcher.counter, timeoutMilliseconds: 0)
        }
    }
    do {
        // Warm-up: the runtime's one-time state (libdispatch's epoll, eventfd and timerfd, the
        // stacks glibc keeps cached for exited threads, malloc arenas) is made here, not counted.
        for i in 0..<100 { try cycle(i) }
        // libdispatch makes its event machinery (an epoll, an eventfd and a timerfd) the first
        // time anything waits on a timer. The engine does so only on rare paths (a bounded wait
        // that a loaded machine reaches), so without this the three descriptors could appear
        // during the counted cycles: "5 before, 8 after" under load, never alone.
        let timerFired = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { timerFired.signal() }
        timerFired.wait()
        // The last instance may still be going away on a notifier thread or the delivery queue:
        // wait until the engine closed every file (an event, not a delay; the bound only keeps
        // a leak from hanging the test), then until the thread count settles.
        if !Realm.waitUntilFilesAreClosed(timeout: .seconds(300)) { fail("a Realm file stayed open after the warm-up") }
        var before = snapshot()
        let quiet = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < quiet {
            usleep(500_000)
            let now = snapshot()
            if now == before { break }
            before = now
        }
        print("before " + before.map(String.init).joined(separator: " "))
        dump("before")
        let start = ContinuousClock.now
        for i in 0..<cycles { try cycle(i) }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        if !Realm.waitUntilFilesAreClosed(timeout: .seconds(300)) { fail("a Realm file stayed open after the cycles") }
        var after = snapshot()
        let settle = ContinuousClock.now + .seconds(10)
        // All mappings are not waited for: glibc keeps new arenas and cached stacks.
        while [0, 1, 3].contains(where: { after[$0] > before[$0] }) && ContinuousClock.now < settle {
            usleep(50_000)
            after = snapshot()
        }
        dump("after")
        print("after " + after.map(String.init).joined(separator: " "))
        print("seconds \(seconds)")
    } catch {
        fail("\(error)")
    }
}
