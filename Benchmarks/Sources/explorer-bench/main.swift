import BenchSupport
import Foundation
import RealmEngine
import RealmTUI
#if canImport(Glibc)
import Glibc
#endif

// explorer-bench: the explorer driven headless (no terminal) on a big file, timed per key press.
//
//   explorer-bench [--objects N] [--file PATH] [--presses K]
//   explorer-bench --cliff [--rounds R]      (Cliff.swift: 999,999 vs 1,000,001 objects)
//   explorer-bench --links N [--rounds R]    (LinkQuery.swift: a query through links on N books)
//
// Creates PATH (default: $TMPDIR/explorer-bench-N.realm) with N `Person` objects of five
// properties (id primary key, name, age, score, createdAt) when it does not exist yet, then
// reports: open to first frame, first frame of the class's table, page down / G / g / a cursor
// move within the window (median and 95th percentile over K presses), typing one more character
// into a query on an unindexed integer column (until the count shows), sorting by a string
// column (first page), and the process's anonymous memory (RssAnon: not the mapped file) after
// each step; then the live rows: commit → frame, key presses under a flood of commits, and a
// cursor move in the changes pane listing those commits.

struct Options {
    var objects = 10_000_000
    var file: String?
    var presses = 1_000
    var cliff = false
    var links: Int?
    var rounds = 5

    static func parse(_ args: [String]) -> Options {
        var options = Options()
        var i = 0
        while i < args.count {
            func value() -> String {
                i += 1
                guard i < args.count else { fail("\(args[i - 1]) needs a value") }
                return args[i]
            }
            switch args[i] {
            case "--objects": options.objects = Int(value().replacingOccurrences(of: "_", with: "")) ?? 0
            case "--file": options.file = value()
            case "--presses": options.presses = Int(value()) ?? 0
            case "--cliff": options.cliff = true
            case "--links": options.links = Int(value().replacingOccurrences(of: "_", with: "")) ?? 0
            case "--rounds": options.rounds = Int(value()) ?? 0
            default: fail("unknown option \(args[i]); usage: explorer-bench [--objects N] [--file PATH] [--presses K] | --cliff | --links N [--rounds R]")
            }
            i += 1
        }
        if options.objects <= 0 || options.presses <= 0 || options.rounds <= 0 || (options.links ?? 1) <= 0 {
            fail("--objects, --presses, --rounds and --links need positive integers")
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(64)
}

@_silgen_name("malloc_trim") func trimHeap(_ pad: Int) -> Int32

/// Anonymous resident memory in KiB (the heap; the mapped file is not counted).
func anonymousKiB() -> Int {
    _ = trimHeap(0)  // count what is live, not what malloc keeps for reuse
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("RssAnon:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    return -1
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func formatted(_ s: Double) -> String {
    s < 1e-3 ? String(format: "%.1f µs", s * 1e6) : s < 1 ? String(format: "%.2f ms", s * 1e3) : String(format: "%.2f s", s)
}

/// Median and 95th percentile of `samples`.
func percentiles(_ samples: [Double]) -> (p50: Double, p95: Double) {
    let sorted = samples.sorted()
    return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 95 / 100)])
}

let schema = Schema([
    ObjectSchema(name: "Person", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "name", type: .string),
        Property(name: "age", type: .int),
        Property(name: "score", type: .double),
        Property(name: "createdAt", type: .date),
    ]),
])

func createFile(_ path: String, objects: Int) throws {
    let surnames = ["王", "李", "张", "刘", "陈", "Rossi", "Smith", "Müller", "Garcia", "Kim"]
    let given = ["芳", "娜", "伟", "Anna", "Emma", "Li", "Noah", "Sofia", "强", "Mia"]
    var generator = SplitMix64(seed: 42)
    let realm = try Realm(path: path, schema: schema)
    let batch = 1_000_000
    var done = 0
    while done < objects {
        let end = min(objects, done + batch)
        try realm.write {
            for id in done..<end {
                let r = generator.next()
                let name = "\(surnames[Int(r % 10)]) \(given[Int((r >> 8) % 10)]) \(r >> 40 % 10_000)"
                _ = try realm.create("Person", [
                    "id": .int(Int64(id)), "name": .string(name), "age": .int(Int64((r >> 16) % 100)),
                    "score": .double(Double((r >> 24) % 10_000) / 100),
                    "createdAt": .date(Timestamp(seconds: 1_600_000_000 + Int64((r >> 32) % 100_000_000))),
                ])
            }
        }
        done = end
        FileHandle.standardError.write(Data("created \(done) objects\n".utf8))
    }
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
if options.cliff {
    try cliffBenchmark(sizes: [ExplorerDriver.liveChangeSetLimit - 1, ExplorerDriver.liveChangeSetLimit + 1], rounds: options.rounds)
    exit(0)
}
if let books = options.links {
    try linkQueryBenchmark(books: books, rounds: options.rounds)
    exit(0)
}
let path = options.file ?? (NSTemporaryDirectory() + "explorer-bench-\(options.objects).realm")
if !FileManager.default.fileExists(atPath: path) {
    let clock = ContinuousClock()
    let took = try clock.measure { try createFile(path, objects: options.objects) }
    print("created \(path) in \(formatted(seconds(took)))")
}

let clock = ContinuousClock()
let baseline = anonymousKiB()
var driver: ExplorerDriver!
var results: [(String, String)] = []
@MainActor func report(_ name: String, _ value: String) {
    results.append((name, value))
    print(name.padding(toLength: 44, withPad: " ", startingAt: 0) + " " + value)
}

let opened = try clock.measure {
    let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
    let session = ExplorerSession(realm: realm, path: path, readOnly: true, environment: [:])
    driver = try session.makeDriver(width: 120, height: 40, hasColor: true)
    _ = driver.screen
}
report("open file → first frame (class list)", formatted(seconds(opened)))
let table = clock.measure {
    driver.press(.enter)
    _ = driver.screen
}
report("Enter → first frame of the table", formatted(seconds(table)))
let stored = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
    .objects("Person").checkedCount()
let grouped = stored.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
guard stored >= options.objects, driver.screen.lines.last?.contains("\(grouped) objects") == true else {
    fail("the table does not show the file's \(stored) objects:\n\(driver.screen.lines.joined(separator: "\n"))")
}

@MainActor func timePresses(_ name: String, _ keys: [Key]) {
    var samples: [Double] = []
    for i in 0..<options.presses {
        let key = keys[i % keys.count]
        samples.append(seconds(clock.measure {
            driver.press(key)
            _ = driver.screen
        }))
    }
    let (p50, p95) = percentiles(samples)
    report(name, "p50 \(formatted(p50)), p95 \(formatted(p95))")
}
timePresses("page down (\(options.presses) presses)", [.pageDown])
timePresses("G then g (\(options.presses) presses)", [.character("G"), .character("g")])
timePresses("down then up (\(options.presses) presses)", [.down, .up])
report("anonymous memory after paging", "\(anonymousKiB() - baseline) KiB above the start")

// Typing a query one character at a time: "age > 5" then "age > 50", the count on screen.
driver.press(.character("/"))
for ch in "age > 5" { driver.press(.character(ch)) }
driver.press(.enter)
_ = driver.screen
let typed = clock.measure {
    driver.press(.character("/"), .end, .character("0"), .enter)
    _ = driver.screen
}
let countLine = driver.screen.lines.last ?? ""
report("query: one more character → count shown", formatted(seconds(typed)) + "  (\(countLine.split(separator: "·").dropFirst(3).first ?? ""))")
report("anonymous memory after the query", "\(anonymousKiB() - baseline) KiB above the start")
driver.press(.character("/"), .control("u"), .enter)

let sorted = clock.measure {
    driver.press(.character("l"), .character("s"))
    _ = driver.screen
}
report("sort by a string column → first page", formatted(seconds(sorted)))
report("anonymous memory at the end", "\(anonymousKiB() - baseline) KiB above the start")

// Live updates: another writer commits one object at a time; the explorer's loop (as the
// session runs it: a thread sleeping on the commit counter wakes it, it refreshes and draws)
// measures commit → frame latency, then a flood of commits with key presses in between.
final class LiveWriter: @unchecked Sendable {
    let path: String
    let lock = NSLock()
    var commitTimes: [UInt64: ContinuousClock.Instant] = [:]
    init(path: String) { self.path = path }

    /// Commits `count` one-object commits, `perSecond` a second, recording when each landed.
    func run(count: Int, perSecond: Double, firstID: Int) {
        guard let realm = try? Realm(path: path) else { return }
        let clock = ContinuousClock()
        let start = clock.now
        for i in 0..<count {
            let due = start.advanced(by: .seconds(Double(i) / perSecond))
            if clock.now < due { Thread.sleep(forTimeInterval: Double((clock.now.duration(to: due)).components.attoseconds) / 1e18) }
            // Timed from the start of the write: the latency includes the durable commit.
            _ = realm.refresh()
            let started = clock.now
            lock.withLock { commitTimes[realm.version + 1] = started }
            try? realm.write {
                _ = try realm.create("Person", ["id": .int(Int64(firstID + i)), "name": .string("Live \(i)"), "age": .int(Int64(i % 100)),
                                                "score": .double(1), "createdAt": .date(Timestamp(seconds: 0))])
            }
        }
    }
}

@MainActor func liveBenchmark() throws {
    let livePath = NSTemporaryDirectory() + "explorer-live-\(getpid()).realm"
    defer { try? Realm.deleteFiles(for: livePath) }
    try? Realm.deleteFiles(for: livePath)
    try createFile(livePath, objects: min(options.objects, 1_000_000))
    let realm = try Realm(path: livePath)
    let session = ExplorerSession(realm: realm, path: livePath, readOnly: false, environment: [:])
    var live = try session.makeDriver(width: 120, height: 40, hasColor: true)
    live.press(.enter, .character("/"))
    for ch in "age < 50" { live.press(.character(ch)) }
    live.press(.enter, .character("l"), .character("s"))   // sorted by name with `s`
    _ = live.screen
    let watcher = CommitWatcher(realm)
    let woken = DispatchSemaphore(value: 0)
    final class Flag: @unchecked Sendable { let lock = NSLock(); var stop = false }
    let flag = Flag()
    let watching = Thread {
        var seen = watcher.counter
        while !flag.lock.withLock({ flag.stop }) {
            let now = watcher.wait(since: seen, timeoutMilliseconds: 200)
            if now != seen { woken.signal() }
            seen = now
        }
    }
    watching.start()
    defer { flag.lock.withLock { flag.stop = true } }

    // 1. Latency of single commits, 20 a second.
    let writer = LiveWriter(path: livePath)
    let commits = 100
    let firstID = 50_000_000
    let writing = Thread { writer.run(count: commits, perSecond: 20, firstID: firstID) }
    writing.start()
    var latencies: [Double] = []
    let clock = ContinuousClock()
    while latencies.count < commits {
        guard woken.wait(timeout: .now() + 5) == .success else { break }
        let wokeAt = clock.now
        let moved = live.refresh()
        _ = live.screen
        let drawn = clock.now
        if ProcessInfo.processInfo.environment["EXPLORER_BENCH_DEBUG"] != nil, moved,
           let landed = writer.lock.withLock({ writer.commitTimes[realm.version] }) {
            print("v\(realm.version) woke after \(formatted(seconds(landed.duration(to: wokeAt)))), refresh+draw \(formatted(seconds(wokeAt.duration(to: drawn))))")
        }
        // Only frames that moved to a new version (the counter also moves on other wake-ups).
        if moved, let landed = writer.lock.withLock({ writer.commitTimes[realm.version] }) {
            latencies.append(seconds(landed.duration(to: drawn)))
        }
    }
    let (p50, _) = percentiles(latencies)
    if ProcessInfo.processInfo.environment["EXPLORER_BENCH_DEBUG"] != nil { print(latencies.map { formatted($0) }) }
    let p99 = latencies.sorted()[min(latencies.count - 1, latencies.count * 99 / 100)]
    report("commit → frame (sorted+filtered 1M, \(latencies.count) commits)", "p50 \(formatted(p50)), p99 \(formatted(p99))")

    // 2. A flood: 1,000 one-object commits a second for 3 s; a key press every 20 ms.
    let flood = LiveWriter(path: livePath)
    let floodThread = Thread { flood.run(count: 3000, perSecond: 1000, firstID: firstID + commits) }
    floodThread.start()
    var keyLatencies: [Double] = []
    var frames = 0
    let floodStart = clock.now
    var lastFrame = clock.now
    while seconds(floodStart.duration(to: clock.now)) < 4 {
        if woken.wait(timeout: .now() + .milliseconds(20)) == .success, seconds(lastFrame.duration(to: clock.now)) >= 1.0 / 30 {
            live.refresh()
            _ = live.screen
            frames += 1
            lastFrame = clock.now
        }
        keyLatencies.append(seconds(clock.measure {
            live.press(.character(keyLatencies.count % 2 == 0 ? "j" : "k"))
            _ = live.screen
        }))
    }
    Thread.sleep(forTimeInterval: 0.5)
    live.refresh()
    let shown = live.screen.lines.last ?? ""
    let expected = try realm.objects("Person").filter("age < 50").checkedCount()
    let (k50, k95) = percentiles(keyLatencies)
    report("key press under a 1,000-commit/s flood", "p50 \(formatted(k50)), p95 \(formatted(k95)), max \(formatted(keyLatencies.max() ?? 0))")
    report("frames during the 4 s flood (coalesced)", "\(frames)")
    let grouped = expected.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    report("count after the flood matches a fresh query", shown.contains("\(grouped) objects") ? "yes (\(grouped))" : "NO: \(shown)")

    // 3. The changes pane (`c`) over the commits of the flood: a cursor move in it.
    live.press(.character("c"))
    var paneSamples: [Double] = []
    for i in 0..<options.presses {
        paneSamples.append(seconds(clock.measure {
            live.press(.character(i % 2 == 0 ? "j" : "k"))
            _ = live.screen
        }))
    }
    let (c50, c95) = percentiles(paneSamples)
    report("changes pane, \(commits + 3000) commits: down then up", "p50 \(formatted(c50)), p95 \(formatted(c95))")
    live.press(.escape)
}
try liveBenchmark()
