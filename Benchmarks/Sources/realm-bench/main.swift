import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// realm-bench: the same workload on realmtui and on SQLite (through GRDB and through its C API,
// each on its default settings and tuned), every answer checked; min / median / max of several runs.
// Beside the people, as many items with a set and a dictionary (`CollectionData`): realmtui's
// set and dictionary properties against SQLite's JSON column (`<task>`) and join tables
// (`<task>_join`).
//
//   realm-bench [--objects N] [--repeat R] [--json] [--only TASK,…] [--dir PATH] [--engine E] [--count-repeat K] [--encrypted]

/// Read-only tasks: each runs on a fresh connection/instance (opened untimed just before), and
/// again as `<task>_cold` after the files' pages were dropped from the page cache.
let readTasks = ["count_filter", "query_string", "enumerate", "pk_lookup", "sort_first_page", "count"]
let allTasks = ["insert_bulk", "insert_txn"] + readTasks + readTasks.map { $0 + "_cold" }
    + ["changeset_sorted", "changeset_filter", "update_bulk", "delete_bulk", "file_size", "open", "open_cold"]
    + CollectionTask.rowNames
/// Every engine, in the table's column order.
let allEngines: [any BenchEngine.Type] = [RealmSide.self, SQLiteSide.self, SQLiteTunedSide.self, CAPISide.self, CAPITunedSide.self,
                                          TypedSide.self, RecordSide.self, EncryptedSide.self]

struct Options {
    var objects = 1_000_000
    var repeats = 5
    var json = false
    var only: Set<String> = Set(allTasks)
    var directory = URL(fileURLWithPath: NSTemporaryDirectory())
    /// Which engines to run (`--engine`): by default realmtui and the four SQLite columns.
    var engines = ["realmtui", "sqlite", "sqlite-tuned", "capi", "capi-tuned"]
    /// How many times `count_filter` counts (fewer makes profiling runs shorter).
    var countRepeat = 100
    /// How many times each read-only task runs per cycle (each time is a sample of the median).
    var readRepeat = 1
    /// `--profile T`: run task T's timed part inside `profiledTask` (for callgrind's
    /// `--toggle-collect`, see `Scripts/callgrind-check.py`).
    var profile: String?
    /// `--encrypted`: add the `encrypted` engine to whichever were chosen.
    var encrypted = false

    static let usage = """
        usage: realm-bench [--objects N] [--repeat R] [--json] [--only TASK,…] [--dir PATH] [--engine E] [--count-repeat K] [--read-repeat K]
          --objects N   people to insert (default 1000000)
          --repeat R    runs per task; the median is reported (default 5)
          --json        print {"objects", "runs", "load", "peak_bytes", "results": [{"task", "ratio",
                        "best_sqlite", "engines": {E: {"min", "median", "max"}}}]} (seconds; bytes for file_size)
          --only T,…    run only these tasks (the data is still inserted first); tasks:
                        \(allTasks.joined(separator: ", "))
          --dir PATH    where the database files go (default: the temporary directory)
          --engine E,…  run only these engines (default realmtui,sqlite,sqlite-tuned,capi,capi-tuned;
                        sqlite: GRDB's SQL statements, capi: SQLite's C API, -tuned: mmap and a page
                        cache holding the file; typed: realmtui through the typed RealmSwift API,
                        grdb: SQLite through GRDB's Codable records), e.g. one alone for its own
                        peak memory or under a profiler; typed adds a typed/rt column, grdb with
                        typed a grdb/typed one
          --count-repeat K  how many times count_filter counts (default 100; for profiling)
          --read-repeat K   run each read-only task (count_filter, query_string, enumerate,
                        pk_lookup, sort_first_page, and the set and dictionary counts) K times
                        per run, each a sample (default 1; more samples, and a profile of reads
                        not drowned by the inserts)
          --profile T   run task T's timed part inside the function profiledTask, so that
                        valgrind --tool=callgrind --toggle-collect='*profiledTask*' counts it alone
          --encrypted   also run realmtui on an encrypted file (engine "encrypted"); adds an
                        encrypted/rt column, the overhead of encryption
        """

    @MainActor static func parse(_ args: [String]) -> Options {
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
            case "--profile":
                let task = value("--profile")
                guard allTasks.contains(task) else { fail("unknown task '\(task)'") }
                o.profile = task
            case "--engine":
                let names = value("--engine").split(separator: ",").map(String.init)
                for e in names where !allEngines.contains(where: { $0.name == e }) {
                    fail("unknown engine '\(e)'; engines: \(allEngines.map { $0.name }.joined(separator: ", "))")
                }
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

@MainActor func record(_ task: String, _ engine: String, _ value: Double) {
    guard options.only.contains(task) else { return }
    samples[task, default: [:]][engine, default: []].append(value)
}

/// The timed part of the task `--profile` names runs inside this function (and nothing else
/// does), so callgrind can collect exactly that task's instructions.
@inline(never)
func profiledTask<T>(_ body: () throws -> T) rethrows -> T { try body() }

/// `timed`, for the task `task` (through `profiledTask` when it is the one profiled).
@MainActor func measure<T>(_ task: String, _ body: () throws -> T) rethrows -> (T, Double) {
    if task == options.profile { return try timed { try profiledTask(body) } }
    return try timed(body)
}

let root = options.directory.appendingPathComponent("realm-bench-\(getpid())")

/// A task's answer differs from the reference: the run fails (exit 1).
@MainActor func wrongAnswer(_ task: String, _ engine: String, got: String, expected: String) -> Never {
    try? FileManager.default.removeItem(at: root)
    note("realm-bench: FAILED: \(engine) answered \(task) wrongly: got \(got.prefix(300)), expected \(expected.prefix(300))")
    exit(1)
}

/// One full cycle on a fresh file: insert, measure, read (warm and cold, each on a fresh
/// connection), reopen, update, insert singly, delete. Every answer is checked against `ref`.
@MainActor func cycle(_ engine: any BenchEngine, _ name: String, _ directory: URL, _ data: Dataset, _ ref: Reference,
                      _ lookupIDs: [Int64]) throws {
    let want = options.only
    func check<T: Equatable>(_ task: String, _ got: T, _ expected: T) {
        if got != expected { wrongAnswer(task, name, got: "\(got)", expected: "\(expected)") }
    }
    /// A read task, warm then cold, each sample on a freshly opened connection or instance.
    func read<T: Equatable>(_ task: String, expected: T, _ body: () throws -> T) throws {
        for cold in [false, true] {
            let label = cold ? task + "_cold" : task
            guard want.contains(label) else { continue }
            for _ in 0..<options.readRepeat {
                try engine.close()
                if cold { try dropPageCache(directory) }
                try engine.prepare()
                let (value, seconds) = try measure(label, body)
                check(label, value, expected)
                record(label, name, seconds)
            }
        }
    }
    let (_, insertSeconds) = try measure("insert_bulk") { try engine.insertBulk(data) }
    record("insert_bulk", name, insertSeconds)
    check("insert_bulk", try engine.count(), ref.people)
    if want.contains("file_size") {
        record("file_size", name, Double(try engine.compactAndMeasure()))
    }
    try read("count_filter", expected: ref.countFilter) { try engine.countFilter(times: countFilterTimes) }
    try read("query_string", expected: ref.queryString) { try engine.queryString() }
    try read("enumerate", expected: ref.ageSum) { try engine.enumerateAges() }
    try read("pk_lookup", expected: ref.lookupSum) { try engine.lookup(lookupIDs) }
    try read("sort_first_page", expected: ref.firstPage) { try engine.sortFirstPage() }
    try read("count", expected: ref.people) { try engine.count() }
    for (task, sorted) in [("changeset_sorted", true), ("changeset_filter", false)] where want.contains(task) {
        try engine.prepare()
        if let (seconds, _) = try engine.changeSetLatency(sorted: sorted, commits: changeSetCommits) {
            record(task, name, seconds)
        }
    }
    for cold in [false, true] {
        let label = cold ? "open_cold" : "open"
        guard want.contains(label) else { continue }
        try engine.close()
        if cold { try dropPageCache(directory) }
        let (_, seconds) = try measure(label) { try engine.open() }
        record(label, name, seconds)
        check(label, try engine.count(), ref.people)
    }
    // The writes start on a fresh, checked connection (not timed).
    try engine.prepare()
    if want.contains("update_bulk") {
        let (_, seconds) = try measure("update_bulk") { try engine.updateBulk(score: 42.5) }
        record("update_bulk", name, seconds)
        check("update_bulk", try engine.countScore(42.5), ref.people)
    }
    if want.contains("insert_txn") {
        let (_, seconds) = try measure("insert_txn") { try engine.insertSingles(data, firstID: Int64(data.count) + 1, count: txnCount) }
        record("insert_txn", name, seconds)
        check("insert_txn", try engine.count(), ref.afterInsertTxn(true))
    }
    if want.contains("delete_bulk") {
        let (_, seconds) = try measure("delete_bulk") { try engine.deleteHalf() }
        record("delete_bulk", name, seconds)
        check("delete_bulk", try engine.count(), ref.afterDelete(insertTxnRan: want.contains("insert_txn")))
    }
    if let collections {
        try collectionCycle(engine, name, collections)
    }
    try engine.close()
}

/// The set and dictionary tasks, after the people's (their files are separate, so the people's
/// tasks see exactly the files they saw without them): for each form the engine has, insert
/// the items, then each count on a fresh connection, checked against the data.
@MainActor func collectionCycle(_ engine: any BenchEngine, _ name: String, _ data: CollectionData) throws {
    let want = options.only
    for form in type(of: engine).collectionForms {
        let insertRows = form.rows(CollectionTask.insertName)
        let taskRows = CollectionTask.all.map { form.rows($0.name) }
        guard (insertRows + taskRows.joined()).contains(where: want.contains) else { continue }
        let (_, insertSeconds) = try measure(insertRows[0]) { try engine.insertCollections(data, form: form) }
        for row in insertRows { record(row, name, insertSeconds) }
        let items = try engine.countItems(form: form)
        if items != data.count { wrongAnswer(insertRows[0], name, got: "\(items) items", expected: "\(data.count)") }
        for (task, rows) in zip(CollectionTask.all, taskRows) where rows.contains(where: want.contains) {
            let expected = collectionAnswers[task.name] ?? -1
            for _ in 0..<options.readRepeat {
                try engine.prepareCollections(form: form)
                let (answer, seconds) = try measure(rows[0]) { try engine.countCollection(task, form: form) }
                if answer != expected { wrongAnswer(rows[0], name, got: "\(answer)", expected: "\(expected)") }
                for row in rows { record(row, name, seconds) }
            }
        }
    }
}

func peakBytes() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss) * 1024 // Linux reports KiB
}

let loadBefore = loadAverage()
note("realm-bench: \(options.objects) objects, \(options.repeats) runs, files in \(root.path), load \(loadBefore)")
let (data, genSeconds) = timed { Dataset.generate(count: options.objects) }
let lookupIDs = Dataset.lookupIDs(count: lookupCount, among: options.objects)
let reference = Reference(data, lookupIDs: lookupIDs, txnCount: txnCount)
/// The items of the set and dictionary tasks and their answers, made only when one of those
/// tasks is asked for (so the other tasks' runs and peak memory are as they were without them).
let collections: CollectionData? = CollectionTask.rowNames.contains(where: options.only.contains)
    ? CollectionData.generate(count: options.objects) : nil
let collectionAnswers: [String: Int] = collections.map { data in
    Dictionary(uniqueKeysWithValues: CollectionTask.all.map { ($0.name, $0.expected(data)) })
} ?? [:]
let peakAfterData = peakBytes()
note(String(format: "generated the data and its reference answers in %.2f s", genSeconds))

let engines = allEngines.filter { options.engines.contains($0.name) }
do {
    for r in 0..<options.repeats {
        // Alternate the order, so no engine always runs on a warmer (or busier) machine.
        let order = r % 2 == 0 ? engines : engines.reversed()
        for type in order {
            let dir = root.appendingPathComponent("run\(r)-\(type.name)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let (_, s) = try timed { try cycle(type.init(directory: dir), type.name, dir, data, reference, lookupIDs) }
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
let loadAfter = loadAverage()

struct Spread { var min: Double; var median: Double; var max: Double }
func spread(_ xs: [Double]) -> Spread? {
    let s = xs.sorted()
    guard !s.isEmpty else { return nil }
    let median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    return Spread(min: s[0], median: median, max: s[s.count - 1])
}

struct Row {
    var task: String
    var byEngine: [String: Spread]
    /// The SQLite column with the smallest median, and best ÷ realmtui.
    var best: String?
    var ratio: Double
}
let rows: [Row] = allTasks.filter(options.only.contains).map { task in
    var byEngine: [String: Spread] = [:]
    for e in engines { byEngine[e.name] = spread(samples[task]?[e.name] ?? []) }
    let best = engines.filter { $0.isSQLite }.compactMap { e in byEngine[e.name].map { (e.name, $0.median) } }.min { $0.1 < $1.1 }
    let ours = byEngine[RealmSide.name]?.median ?? .nan
    return Row(task: task, byEngine: byEngine, best: best?.0, ratio: (best?.1 ?? .nan) / ours)
}
let peak = peakBytes()

if options.json {
    func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }
    let results = rows.map { row in
        let cells = engines.compactMap { e in
            row.byEngine[e.name].map { "\"\(e.name)\": {\"min\": \(number($0.min)), \"median\": \(number($0.median)), \"max\": \(number($0.max))}" }
        }
        return "{\"task\": \"\(row.task)\", \"ratio\": \(number(row.ratio)), \"best_sqlite\": \(row.best.map { "\"\($0)\"" } ?? "null"), "
            + "\"engines\": {\(cells.joined(separator: ", "))}}"
    }
    print("{\"objects\": \(options.objects), \"runs\": \(options.repeats), \"load\": [\"\(loadBefore)\", \"\(loadAfter)\"], "
        + "\"peak_bytes\": \(peak), \"peak_bytes_after_data\": \(peakAfterData), \"results\": [\(results.joined(separator: ", "))]}")
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
    func ratio(_ x: Double) -> String { x.isFinite ? String(format: "%.2f", x) : "-" }
    // Extra ratio columns: (label, numerator engine, denominator engine).
    let extra = [("typed/rt", TypedSide.name, RealmSide.name), ("grdb/typed", RecordSide.name, TypedSide.name),
                 ("enc/rt", EncryptedSide.name, RealmSide.name)]
        .filter { options.engines.contains($0.1) && options.engines.contains($0.2) }
    let hasRatio = options.engines.contains(RealmSide.name) && engines.contains { $0.isSQLite }
    print("realm-bench: \(options.objects) objects, median of \(options.repeats) run(s); load \(loadBefore) -> \(loadAfter)")
    if hasRatio { print("best/rt = the fastest (smallest) SQLite column / realmtui: above 1 realmtui is faster or smaller") }
    print("")
    var header = pad("task", 20, left: true) + engines.map { pad($0.name, 12) }.joined(separator: " ")
    if hasRatio { header += " " + pad("best/rt", 8) + "  " + pad("best", 12, left: true) }
    for x in extra { header += " " + pad(x.0, 10) }
    print(header)
    print(String(repeating: "-", count: header.count))
    for r in rows {
        var line = pad(r.task, 20, left: true) + engines.map { pad(show(r.task, r.byEngine[$0.name]?.median ?? .nan), 12) }.joined(separator: " ")
        if hasRatio { line += " " + pad(ratio(r.ratio), 8) + "  " + pad(r.best ?? "-", 12, left: true) }
        for x in extra {
            line += " " + pad(ratio((r.byEngine[x.1]?.median ?? .nan) / (r.byEngine[x.2]?.median ?? .nan)), 10)
        }
        print(line)
    }
    if options.repeats > 1 {
        print("")
        print("min - max of the \(options.repeats) runs:")
        print(pad("task", 20, left: true) + engines.map { pad($0.name, 21) }.joined(separator: " "))
        for r in rows {
            print(pad(r.task, 20, left: true) + engines.map { e in
                pad(r.byEngine[e.name].map { "\(show(r.task, $0.min)) - \(show(r.task, $0.max))" } ?? "-", 21)
            }.joined(separator: " "))
        }
    }
    print("")
    print(String(format: "peak memory (ru_maxrss): %.1f MiB (%.1f MiB after generating the data, before any engine ran)",
                 Double(peak) / 1_048_576, Double(peakAfterData) / 1_048_576))
}
note("every answer matched the reference")
