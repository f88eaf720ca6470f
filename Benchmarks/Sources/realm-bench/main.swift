import Foundation
#if canImport(Glibc)
import Glibc
#endif

// realm-bench: the same workload on realmtui and on SQLite (GRDB), medians of several runs.
//
//   realm-bench [--objects N] [--repeat R] [--json] [--only TASK,…] [--dir PATH] [--engine E] [--count-repeat K] [--encrypted]

let allTasks = ["insert_bulk", "insert_txn", "count_filter", "query_string", "enumerate", "pk_lookup",
                "sort_first_page", "changeset_sorted", "changeset_filter", "update_bulk", "delete_bulk", "file_size", "open"]

struct Options {
    var objects = 1_000_000
    var repeats = 5
    var json = false
    var only: Set<String> = Set(allTasks)
    var directory = URL(fileURLWithPath: NSTemporaryDirectory())
    /// Which engines to run (both unless `--engine` says one; ratios need both).
    var engines = ["realmtui", "sqlite"]
    /// How many times `count_filter` counts (fewer makes profiling runs shorter).
    var countRepeat = 100
    /// How many times each read-only task runs per cycle (each time is a sample of the median).
    var readRepeat = 1
    /// `--encrypted`: add the `encrypted` engine to whichever were chosen.
    var encrypted = false

    static let usage = """
        usage: realm-bench [--objects N] [--repeat R] [--json] [--only TASK,…] [--dir PATH] [--engine E] [--count-repeat K] [--read-repeat K]
          --objects N   people to insert (default 1000000)
          --repeat R    runs per task; the median is reported (default 5)
          --json        print {"objects": N, "results": [{"task", "realmtui_s", "sqlite_s", "ratio"}]}
          --only T,…    run only these tasks (the data is still inserted first); tasks:
                        \(allTasks.joined(separator: ", "))
          --dir PATH    where the database files go (default: the temporary directory)
          --engine E,…  run only these engines (realmtui, sqlite, typed: realmtui through the typed
                        RealmSwift API, grdb: SQLite through GRDB's Codable records), e.g. one under
                        a profiler; typed adds a typed/realmtui column, grdb with typed a grdb/typed one
          --count-repeat K  how many times count_filter counts (default 100; for profiling)
          --read-repeat K   run each read-only task (count_filter, query_string, enumerate,
                        pk_lookup, sort_first_page) K times per run, each a sample (default 1;
                        more samples, and a profile of reads not drowned by the inserts)
          --encrypted   also run realmtui on an encrypted file (engine "encrypted"); adds an
                        encrypted/rt column, the overhead of encryption
        """

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var i = 0
        func value(_ flag: String) -> String {
            i += 1
            guard i < args.count else { fail("\(flag) needs a value") }
            return args[i]
        }
        func positive(_ flag: String) -> Int {
            let text = value(flag).replacingOccurrences(of: "_", with: "").replacingOccurrences(of: ",", with: "")
            guard let n = Int(text), n > 0 else { fail("\(flag) needs a positive integer") }
            return n
        }
        while i < args.count {
            switch args[i] {
            case "--objects": o.objects = positive("--objects")
            case "--repeat": o.repeats = positive("--repeat")
            case "--json": o.json = true
            case "--only":
                let names = value("--only").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                for n in names where !allTasks.contains(n) { fail("unknown task '\(n)'; tasks: \(allTasks.joined(separator: ", "))") }
                o.only = Set(names)
            case "--dir": o.directory = URL(fileURLWithPath: value("--dir"))
            case "--count-repeat": o.countRepeat = positive("--count-repeat")
            case "--read-repeat": o.readRepeat = positive("--read-repeat")
            case "--encrypted": o.encrypted = true
            case "--engine":
                let names = value("--engine").split(separator: ",").map(String.init)
                for e in names where !["realmtui", "sqlite", "typed", "grdb", "encrypted"].contains(e) { fail("unknown engine '\(e)'") }
                o.engines = names
            case "-h", "--help": print(usage); exit(0)
            default: fail("unknown option '\(args[i])'")
            }
            i += 1
        }
        if o.encrypted && !o.engines.contains("encrypted") { o.engines.append("encrypted") }
        return o
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("realm-bench: \(message)\n\(Options.usage)\n".utf8))
    exit(2)
}

func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let countFilterTimes = options.countRepeat
let lookupCount = 100_000
let txnCount = 1_000
/// One-object commits timed per run by the change-set tasks.
let changeSetCommits = 9

/// Seconds of each run per task and engine; bytes for `file_size`.
var samples: [String: [String: [Double]]] = [:]
/// Each engine's answer per task (first run), to check the engines agree.
var answers: [String: [String: String]] = [:]

@MainActor func record(_ task: String, _ engine: String, _ value: Double, answer: String? = nil) {
    guard options.only.contains(task) else { return }
    samples[task, default: [:]][engine, default: []].append(value)
    if let answer, answers[task]?[engine] == nil { answers[task, default: [:]][engine] = answer }
}

func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try body()
    let d = clock.now - start
    return (value, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
}

/// One full cycle on a fresh file: insert, measure, read, reopen, update, insert singly, delete.
@MainActor func cycle(_ engine: any BenchEngine, _ name: String, _ data: Dataset, _ lookupIDs: [Int64]) throws {
    let want = options.only
    func run<T>(_ task: String, times: Int = 1, _ body: () throws -> T) throws {
        guard want.contains(task) else { return }
        for _ in 0..<times {
            let (value, seconds) = try timed(body)
            record(task, name, seconds, answer: "\(value)")
        }
    }
    let (_, insertSeconds) = try timed { try engine.insertBulk(data) }
    record("insert_bulk", name, insertSeconds)
    if want.contains("file_size") {
        record("file_size", name, Double(try engine.compactAndMeasure()))
    }
    try run("count_filter", times: options.readRepeat) { try engine.countFilter(times: countFilterTimes) }
    try run("query_string", times: options.readRepeat) { try engine.queryString() }
    try run("enumerate", times: options.readRepeat) { try engine.enumerateAges() }
    try run("pk_lookup", times: options.readRepeat) { try engine.lookup(lookupIDs) }
    try run("sort_first_page", times: options.readRepeat) { try engine.sortFirstPage() }
    for (task, sorted) in [("changeset_sorted", true), ("changeset_filter", false)] where want.contains(task) {
        if let (seconds, answer) = try engine.changeSetLatency(sorted: sorted, commits: changeSetCommits) {
            record(task, name, seconds, answer: answer)
        }
    }
    if want.contains("open") {
        try engine.close()
        try run("open") { try engine.openAndCount() }
    }
    try run("update_bulk") { try engine.updateBulk(score: 42.5) }
    try run("insert_txn") { try engine.insertSingles(data, firstID: Int64(data.count) + 1, count: txnCount) }
    try run("delete_bulk") { try engine.deleteHalf() }
    try engine.close()
}

let root = options.directory.appendingPathComponent("realm-bench-\(getpid())")
note("realm-bench: \(options.objects) objects, \(options.repeats) runs, files in \(root.path)")
let (data, genSeconds) = timed { Dataset.generate(count: options.objects) }
let lookupIDs = Dataset.lookupIDs(count: lookupCount, among: options.objects)
note(String(format: "generated the data in %.2f s", genSeconds))

let engines: [any BenchEngine.Type] = [RealmSide.self, SQLiteSide.self, TypedSide.self, RecordSide.self, EncryptedSide.self]
    .filter { options.engines.contains($0.name) }
do {
    for r in 0..<options.repeats {
        // Alternate which engine goes first, so neither always runs on a warmer machine.
        let order = r % 2 == 0 ? engines : engines.reversed()
        for type in order {
            let dir = root.appendingPathComponent("run\(r)-\(type.name)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let (_, s) = try timed { try cycle(type.init(directory: dir), type.name, data, lookupIDs) }
            note(String(format: "run %d/%d %@: %.2f s", r + 1, options.repeats, type.name, s))
            try FileManager.default.removeItem(at: dir)
        }
    }
    try? FileManager.default.removeItem(at: root)
} catch {
    try? FileManager.default.removeItem(at: root)
    note("realm-bench: failed: \(error)")
    exit(1)
}

for (task, byEngine) in answers.sorted(by: { $0.key < $1.key }) {
    if let a = byEngine[RealmSide.name], let b = byEngine[SQLiteSide.name], a != b {
        note("warning: \(task): the engines disagree: realmtui \(a.prefix(200)), sqlite \(b.prefix(200))")
    }
    if let a = byEngine[RealmSide.name], let e = byEngine[EncryptedSide.name], a != e {
        note("warning: \(task): encrypted and plain disagree: realmtui \(a.prefix(200)), encrypted \(e.prefix(200))")
    }
    if let a = byEngine[RealmSide.name], let t = byEngine[TypedSide.name], a != t {
        note("warning: \(task): typed and dynamic disagree: realmtui \(a.prefix(200)), typed \(t.prefix(200))")
    }
    if let a = byEngine[SQLiteSide.name], let g = byEngine[RecordSide.name], a != g {
        note("warning: \(task): GRDB records and SQL disagree: sqlite \(a.prefix(200)), grdb \(g.prefix(200))")
    }
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    if s.isEmpty { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
let peakBytes = Int(usage.ru_maxrss) * 1024 // Linux reports KiB

struct Row { var task: String; var ours: Double; var sqlite: Double; var ratio: Double; var typed: Double; var grdb: Double; var encrypted: Double }
let rows: [Row] = allTasks.filter(options.only.contains).map { task in
    let ours = median(samples[task]?[RealmSide.name] ?? [])
    let sqlite = median(samples[task]?[SQLiteSide.name] ?? [])
    let typed = median(samples[task]?[TypedSide.name] ?? [])
    let grdb = median(samples[task]?[RecordSide.name] ?? [])
    let encrypted = median(samples[task]?[EncryptedSide.name] ?? [])
    return Row(task: task, ours: ours, sqlite: sqlite, ratio: sqlite / ours, typed: typed, grdb: grdb, encrypted: encrypted)
}
let showTyped = options.engines.contains(TypedSide.name)
let showRecords = options.engines.contains(RecordSide.name)
let showEncrypted = options.engines.contains(EncryptedSide.name)

if options.json {
    func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }
    let results = rows.map {
        "{\"task\": \"\($0.task)\", \"realmtui_s\": \(number($0.ours)), \"sqlite_s\": \(number($0.sqlite)), \"ratio\": \(number($0.ratio))"
            + (showTyped ? ", \"typed_s\": \(number($0.typed))" : "") + (showRecords ? ", \"grdb_s\": \(number($0.grdb))" : "")
            + (showEncrypted ? ", \"encrypted_s\": \(number($0.encrypted))" : "") + "}"
    }
    print("{\"objects\": \(options.objects), \"results\": [\(results.joined(separator: ", "))]}")
    note("peak memory (ru_maxrss): \(peakBytes) bytes")
} else {
    func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return left ? s + fill : fill + s
    }
    func show(_ task: String, _ x: Double) -> String {
        if !x.isFinite { return "-" }
        if task == "file_size" { return String(format: "%.1f MiB", x / 1_048_576) }
        return x < 1 ? String(format: "%.1f ms", x * 1000) : String(format: "%.3f s", x)
    }
    print("realm-bench: \(options.objects) objects, median of \(options.repeats) run(s)")
    print("ratio = sqlite / realmtui (above 1: realmtui is faster or smaller)")
    if showTyped { print("typed/rt = typed / realmtui (the typed API's cost over the dynamic one)") }
    if showRecords && showTyped { print("grdb/typed = GRDB records / typed (above 1: the typed API is faster)") }
    print("")
    let typedHeader = (showTyped ? " \(pad("typed", 12)) \(pad("typed/rt", 9))" : "")
        + (showRecords ? " \(pad("grdb", 12))" + (showTyped ? " \(pad("grdb/typed", 11))" : "") : "")
        + (showEncrypted ? " \(pad("encrypted", 12)) \(pad("enc/rt", 9))" : "")
    print("\(pad("task", 16, left: true)) \(pad("realmtui", 12)) \(pad("sqlite", 12)) \(pad("ratio", 8))" + typedHeader)
    print(String(repeating: "-", count: 51 + (showTyped ? 23 : 0) + (showRecords ? 13 + (showTyped ? 12 : 0) : 0) + (showEncrypted ? 23 : 0)))
    for r in rows {
        func ratio(_ x: Double, _ width: Int) -> String { pad(x.isFinite ? String(format: "%.2f", x) : "-", width) }
        let typedCells = (showTyped ? " \(pad(show(r.task, r.typed), 12)) \(ratio(r.typed / r.ours, 9))" : "")
            + (showRecords ? " \(pad(show(r.task, r.grdb), 12))" + (showTyped ? " \(ratio(r.grdb / r.typed, 11))" : "") : "")
            + (showEncrypted ? " \(pad(show(r.task, r.encrypted), 12)) \(ratio(r.encrypted / r.ours, 9))" : "")
        print("\(pad(r.task, 16, left: true)) \(pad(show(r.task, r.ours), 12)) \(pad(show(r.task, r.sqlite), 12)) \(pad(r.ratio.isFinite ? String(format: "%.2f", r.ratio) : "-", 8))" + typedCells)
    }
    print("")
    print(String(format: "peak memory (ru_maxrss): %.1f MiB", Double(peakBytes) / 1_048_576))
}
