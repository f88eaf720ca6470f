// realm-notify-probe: a helper for notification tests and measurements across processes.
//
//   realm-notify-probe write PATH COUNT INTERVAL_MS    commit COUNT ticks (t = CLOCK_MONOTONIC ns)
//   realm-notify-probe crash PATH                      begin a write, create objects, die by SIGKILL
//   realm-notify-probe latency PATH COUNT INTERVAL_MS  spawn a writer process, observe, print p50/p99
//   realm-notify-probe bench COUNT                     cost of one notification on a COUNT-object result
//
// With REALM_NOTIFY_PROBE_KEY set (128 hex digits), `write` and `crash` open the file encrypted.
import Foundation
import RealmEngine
#if canImport(Glibc)
    import Glibc
#endif

let tickSchema = Schema([
    ObjectSchema(
        name: "Tick",
        properties: [
            Property(name: "n", type: .int, isIndexed: true),
            Property(name: "t", type: .int),
        ])
])

func monotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func runRunLoop(seconds: Double, until done: () -> Bool = { false }) {
    let end = Date().addingTimeInterval(seconds)
    // A far timer keeps the RunLoop blocking (instead of spinning) while nothing is due.
    RunLoop.current.add(Timer(timeInterval: 1e6, repeats: false) { _ in }, forMode: .default)
    // Short slices: run(mode:before:) returns after an input source, not after a timer (which
    // is how notifications arrive), so `done` is checked every 10 ms.
    while !done() && Date() < end {
        _ = RunLoop.current.run(mode: .default, before: min(end, Date().addingTimeInterval(0.01)))
    }
}

/// The file at `path` with the tick schema, encrypted when REALM_NOTIFY_PROBE_KEY holds a key.
func openTicks(_ path: String) throws -> Realm {
    var key: Data?
    if let hex = ProcessInfo.processInfo.environment["REALM_NOTIFY_PROBE_KEY"] {
        var bytes = [UInt8]()
        var chars = Array(hex.utf8)[...]
        while chars.count >= 2, let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) {
            bytes.append(b)
            chars = chars.dropFirst(2)
        }
        key = Data(bytes)
    }
    return try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: tickSchema, encryptionKey: key))
}

func write(path: String, count: Int, intervalMs: Int) throws {
    let realm = try openTicks(path)
    var report = ""
    for i in 0..<count {
        try realm.write { try realm.create("Tick", ["n": .int(Int64(i)), "t": .int(monotonicNanoseconds())]) }
        // When the commit returned (published): the start of the commit→callback latency.
        report += "\(i) \(monotonicNanoseconds())\n"
        if intervalMs > 0 { usleep(UInt32(intervalMs * 1000)) }
    }
    FileHandle.standardOutput.write(Data(report.utf8))
}

func crash(path: String) throws {
    let realm = try openTicks(path)
    try realm.beginWrite()
    for i in 0..<1000 { try realm.create("Tick", ["n": .int(Int64(-1 - i)), "t": .int(0)]) }
    FileHandle.standardOutput.write(Data("writing\n".utf8))
    kill(getpid(), SIGKILL)
}

func latency(path: String, count: Int, intervalMs: Int) throws {
    let realm = try Realm(path: path, schema: tickSchema)
    let ticks = try realm.objects("Tick").filter("n >= 0")
    var received: [Int64: Int64] = [:]
    var seen = 0
    var last = try ticks.keys().count
    var callbacks = 0
    let token = ticks.observe { change in
        guard case .update(let r, _, let insertions, _) = change else { return }
        let now = monotonicNanoseconds()
        for i in insertions {
            if let n = try? r.object(at: i).value(forKey: "n"), case .int(let n) = n { received[n] = now }
        }
        seen += insertions.count
        last = r.count
        callbacks += 1
    }
    // Idle cost: nothing commits for two seconds.
    runRunLoop(seconds: 0.2)
    let cpu0 = cpuSeconds()
    runRunLoop(seconds: 2)
    let idleCPU = cpuSeconds() - cpu0
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["write", path, "\(count)", "\(intervalMs)"]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    runRunLoop(seconds: Double(count * max(intervalMs, 1)) / 1000 + 10) { seen >= count }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    token.invalidate()
    var latencies: [Double] = []
    for line in output.split(separator: "\n") {
        let parts = line.split(separator: " ").compactMap { Int64($0) }
        if parts.count == 2, let at = received[parts[0]] { latencies.append(Double(at - parts[1]) / 1e6) }
    }
    say(
        String(
            format:
                "cross-process commit returned→callback over %d commits (%d callbacks): p50 %.3f ms, p99 %.3f ms, max %.3f ms; idle CPU over 2 s: %.4f s (count %d)",
            latencies.count, callbacks, percentile(latencies, 0.5), percentile(latencies, 0.99),
            latencies.max() ?? .nan, idleCPU, last))
}

func bench(count: Int) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notify-bench-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("bench.realm").path
    let writer = try Realm(path: path, schema: tickSchema)
    var start = Date()
    try writer.write {
        for i in 0..<count { try writer.create("Tick", ["n": .int(Int64(i)), "t": .int(0)]) }
    }
    say(String(format: "created %d objects in %.2f s", count, Date().timeIntervalSince(start)))
    let observed = try Realm(path: path)
    let cases: [(String, Results)] = [
        ("all objects", try observed.objects("Tick")),
        ("filtered n >= 0 (incremental)", try observed.objects("Tick").filter("n >= 0")),
        ("filtered t >= 0 AND n >= 0", try observed.objects("Tick").filter("t >= 0 AND n >= 0")),
        (
            "sorted by t descending (re-run + sort)",
            try observed.objects("Tick").sorted(byKeyPath: "t", ascending: false)
        ),
    ]
    let keys = try writer.objects("Tick").keys()
    var stamp: Int64 = 0
    for (name, results) in cases {
        var delivered = 0
        var deliveredAt = Date()
        var changes = ""
        start = Date()
        let token = results.observe { change in
            delivered += 1
            deliveredAt = Date()
            if case .update(_, let d, let i, let m) = change { changes = "d\(d.count) i\(i.count) m\(m)" }
        }
        runRunLoop(seconds: 120) { delivered == 1 }
        let initial = deliveredAt.timeIntervalSince(start)
        var times: [Double] = []
        for round in 0..<10 {
            let object = try require_(writer.object(ofType: "Tick", key: keys[(round * 7919) % keys.count]))
            stamp += 1  // a new value each time, or nothing changes and nothing is delivered
            try writer.write { try object.setValue(.int(stamp), forKey: "t") }
            let t0 = Date()
            runRunLoop(seconds: 60) { delivered == round + 2 }
            times.append(deliveredAt.timeIntervalSince(t0) * 1000)
        }
        token.invalidate()
        say(
            String(
                format: "%@: initial %.0f ms; one object changed → callback p50 %.1f ms, max %.1f ms (last: %@)",
                name, initial * 1000, percentile(times, 0.5), times.max() ?? 0, changes))
    }
}

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func require_<T>(_ value: T?) throws -> T {
    guard let value else { throw RealmError.invalidatedObject }
    return value
}

let args = CommandLine.arguments
/// The integer argument at `i`, or 0 (which every mode treats as "nothing to do").
func number(_ i: Int) -> Int { i < args.count ? Int(args[i]) ?? 0 : 0 }
do {
    switch args.count > 1 ? args[1] : "" {
    case "write" where args.count == 5: try write(path: args[2], count: number(3), intervalMs: number(4))
    case "crash" where args.count == 3: try crash(path: args[2])
    case "latency" where args.count == 5: try latency(path: args[2], count: number(3), intervalMs: number(4))
    case "bench" where args.count == 3: try bench(count: number(2))
    default:
        FileHandle.standardError.write(Data("usage: realm-notify-probe write|crash|latency|bench …\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("realm-notify-probe: \(error)\n".utf8))
    exit(1)
}
