import BenchSupport
import CSQLite3
import Foundation
import RealmEngine

// collection-bench: membership queries over a set property and a dictionary property, on
// realmtui and on SQLite's two nearest forms — a JSON column searched with json_each /
// json_extract, and join tables with an index — every answer checked against the generated data.
//
//   collection-bench [--objects N] [--repeat R] [--dir PATH]

struct Options {
    var objects = 1_000_000
    var repeats = 5
    var directory = URL(fileURLWithPath: NSTemporaryDirectory())

    static let usage = """
        usage: collection-bench [--objects N] [--repeat R] [--dir PATH]
          --objects N   items to insert (default 1000000)
          --repeat R    runs of each query; the median is reported (default 5)
          --dir PATH    where the database files go (default: the temporary directory)
        """

    static func parse(_ args: [String]) -> Options {
        var options = Options()
        var index = 0
        func positive(_ flag: String) -> Int {
            index += 1
            guard index < args.count, let n = Int(args[index].replacingOccurrences(of: "_", with: "")), n > 0 else {
                fail("\(flag) needs a positive integer")
            }
            return n
        }
        while index < args.count {
            switch args[index] {
            case "--objects": options.objects = positive("--objects")
            case "--repeat": options.repeats = positive("--repeat")
            case "--dir":
                index += 1
                guard index < args.count else { fail("--dir needs a path") }
                options.directory = URL(fileURLWithPath: args[index])
            case "-h", "--help": print(usage); exit(0)
            default: fail("unknown option '\(args[index])'")
            }
            index += 1
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("collection-bench: \(message)\n\(Options.usage)\n".utf8))
    exit(2)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The items: each has 0–4 distinct tags out of 64 (a set of strings) and 0–4 of four
/// attribute keys with values 0–99 (a dictionary of integers).
struct Items {
    static let tagWords = (0..<64).map { "tag\($0)" }
    static let attributeKeys = ["color", "size", "weight", "rank"]
    var tags: [[String]] = []
    var attributes: [[(key: String, value: Int64)]] = []

    static func generate(count: Int) -> Items {
        var rng = SplitMix64(seed: 0xC011_EC71)
        var items = Items()
        for _ in 0..<count {
            var chosen: [String] = []
            for _ in 0..<Int(rng.next() % 5) {
                let word = tagWords[Int(rng.next() % 64)]
                if !chosen.contains(word) { chosen.append(word) }
            }
            items.tags.append(chosen)
            var attributes: [(key: String, value: Int64)] = []
            for key in attributeKeys where rng.next() % 2 == 0 {
                attributes.append((key, Int64(rng.next() % 100)))
            }
            items.attributes.append(attributes)
        }
        return items
    }
}

/// One query both engines answer: a count, and the answer computed from the data.
struct Task {
    var name: String
    /// realmtui's predicate (Realm Query Language).
    var predicate: String
    /// SQLite's query on the JSON column.
    var jsonSQL: String
    /// SQLite's query on the join tables.
    var joinSQL: String
    var expected: Int
}

func tasks(_ items: Items) -> [Task] {
    let count = items.tags.count
    func counting(_ test: (Int) -> Bool) -> Int { (0..<count).filter(test).count }
    return [
        Task(name: "set_contains", predicate: "ANY tags == 'tag7'",
             jsonSQL: "SELECT count(*) FROM item WHERE EXISTS (SELECT 1 FROM json_each(item.tags) WHERE value = 'tag7')",
             joinSQL: "SELECT count(DISTINCT item) FROM item_tag WHERE tag = 'tag7'",
             expected: counting { items.tags[$0].contains("tag7") }),
        Task(name: "set_in_either", predicate: "ANY tags IN {'tag3', 'tag40'}",
             jsonSQL: "SELECT count(*) FROM item WHERE EXISTS (SELECT 1 FROM json_each(item.tags) WHERE value IN ('tag3', 'tag40'))",
             joinSQL: "SELECT count(DISTINCT item) FROM item_tag WHERE tag IN ('tag3', 'tag40')",
             expected: counting { items.tags[$0].contains("tag3") || items.tags[$0].contains("tag40") }),
        Task(name: "set_size", predicate: "tags.@count >= 3",
             jsonSQL: "SELECT count(*) FROM item WHERE json_array_length(tags) >= 3",
             joinSQL: "SELECT count(*) FROM (SELECT item FROM item_tag GROUP BY item HAVING count(*) >= 3)",
             expected: counting { items.tags[$0].count >= 3 }),
        Task(name: "map_key_value", predicate: "attrs['color'] == 42",
             jsonSQL: "SELECT count(*) FROM item WHERE json_extract(attrs, '$.color') = 42",
             joinSQL: "SELECT count(*) FROM item_attr WHERE key = 'color' AND value = 42",
             expected: counting { items.attributes[$0].contains { $0.key == "color" && $0.value == 42 } }),
        Task(name: "map_any_value", predicate: "ANY attrs.@values == 42",
             jsonSQL: "SELECT count(*) FROM item WHERE EXISTS (SELECT 1 FROM json_each(item.attrs) WHERE value = 42)",
             joinSQL: "SELECT count(DISTINCT item) FROM item_attr WHERE value = 42",
             expected: counting { items.attributes[$0].contains { $0.value == 42 } }),
        Task(name: "map_has_key", predicate: "ANY attrs.@keys == 'rank'",
             jsonSQL: "SELECT count(*) FROM item WHERE json_type(attrs, '$.rank') IS NOT NULL",
             joinSQL: "SELECT count(*) FROM item_attr WHERE key = 'rank'",
             expected: counting { items.attributes[$0].contains { $0.key == "rank" } }),
    ]
}

// MARK: - realmtui

final class RealmItems {
    static let schema = Schema([
        ObjectSchema(name: "Item", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "tags", type: .string, isSet: true),
            Property(name: "attrs", type: .int, isMap: true),
        ]),
    ])
    let path: String
    init(directory: URL) { path = directory.appendingPathComponent("items.realm").path }

    func open() throws -> Realm { try Realm(path: path, schema: RealmItems.schema) }

    func insert(_ items: Items) throws {
        let realm = try open()
        try realm.write {
            for index in 0..<items.tags.count {
                var attributes: [String: ObjectInput] = [:]
                for (key, value) in items.attributes[index] { attributes[key] = .value(.int(value)) }
                try realm.create("Item", value: .array([
                    .value(.int(Int64(index))),
                    .array(items.tags[index].map { .value(.string($0)) }),
                    .dictionary(attributes),
                ]))
            }
        }
    }

    func count(_ task: Task) throws -> Int { try open().objects("Item").filter(task.predicate).count }
}

// MARK: - SQLite

final class SQLiteItems {
    let path: String
    private var db: OpaquePointer?
    /// Makes SQLite copy a bound string (Swift's pointer to it is valid only for the call).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    init(directory: URL) { path = directory.appendingPathComponent("items.sqlite").path }
    deinit { sqlite3_close_v2(db) }

    func open() throws {
        sqlite3_close_v2(db)
        db = nil
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw BenchError("sqlite3_open_v2 \(path): \(rc)")
        }
        db = handle
        try exec("PRAGMA journal_mode = WAL")
        try exec("PRAGMA synchronous = FULL")
    }

    func exec(_ sql: String) throws {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))") }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw BenchError("prepare \(sql): \(String(cString: sqlite3_errmsg(db)))") }
        return statement
    }

    func step(_ statement: OpaquePointer) throws {
        let rc = sqlite3_step(statement)
        guard rc == SQLITE_DONE else { throw BenchError("step: \(String(cString: sqlite3_errmsg(db)))") }
        sqlite3_reset(statement)
    }

    /// Both forms in one file: `item(id, tags JSON, attrs JSON)`, and the join tables
    /// `item_tag(item, tag)` and `item_attr(item, key, value)` with the indexes their queries use.
    func insert(_ items: Items) throws {
        try open()
        try exec("""
            CREATE TABLE item (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, attrs TEXT NOT NULL);
            CREATE TABLE item_tag (item INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (tag, item)) WITHOUT ROWID;
            CREATE TABLE item_attr (item INTEGER NOT NULL, key TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (item, key)) WITHOUT ROWID;
            CREATE INDEX item_attr_key_value ON item_attr (key, value);
            CREATE INDEX item_attr_value ON item_attr (value);
            """)
        let item = try prepare("INSERT INTO item (id, tags, attrs) VALUES (?, ?, ?)")
        let tag = try prepare("INSERT INTO item_tag (item, tag) VALUES (?, ?)")
        let attribute = try prepare("INSERT INTO item_attr (item, key, value) VALUES (?, ?, ?)")
        defer { sqlite3_finalize(item); sqlite3_finalize(tag); sqlite3_finalize(attribute) }
        try exec("BEGIN")
        for index in 0..<items.tags.count {
            let tagsJSON = "[" + items.tags[index].map { "\"\($0)\"" }.joined(separator: ",") + "]"
            let attrsJSON = "{" + items.attributes[index].map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
            sqlite3_bind_int64(item, 1, Int64(index))
            sqlite3_bind_text(item, 2, tagsJSON, -1, SQLiteItems.transient)
            sqlite3_bind_text(item, 3, attrsJSON, -1, SQLiteItems.transient)
            try step(item)
            for word in items.tags[index] {
                sqlite3_bind_int64(tag, 1, Int64(index))
                sqlite3_bind_text(tag, 2, word, -1, SQLiteItems.transient)
                try step(tag)
            }
            for (key, value) in items.attributes[index] {
                sqlite3_bind_int64(attribute, 1, Int64(index))
                sqlite3_bind_text(attribute, 2, key, -1, SQLiteItems.transient)
                sqlite3_bind_int64(attribute, 3, value)
                try step(attribute)
            }
        }
        try exec("COMMIT")
        try exec("ANALYZE")
    }

    func count(_ sql: String) throws -> Int {
        try open()
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("\(sql): no row: \(String(cString: sqlite3_errmsg(db)))") }
        return Int(sqlite3_column_int64(statement, 0))
    }
}

// MARK: - The run

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func show(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.3f s", seconds)
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let root = options.directory.appendingPathComponent("collection-bench-\(getpid())")
let loadBefore = loadAverage()
do {
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let items = Items.generate(count: options.objects)
    let realm = RealmItems(directory: root)
    let sqlite = SQLiteItems(directory: root)
    let (_, realmInsert) = try timed { try realm.insert(items) }
    let (_, sqliteInsert) = try timed { try sqlite.insert(items) }
    print("collection-bench: \(options.objects) items, median of \(options.repeats) run(s); load \(loadBefore)")
    print("best/rt = the faster SQLite form / realmtui: above 1 realmtui is faster")
    print("")
    print("insert (one transaction): realmtui \(show(realmInsert)), sqlite (JSON column and join tables together) \(show(sqliteInsert))")
    print("")
    let header = "task".padding(toLength: 16, withPad: " ", startingAt: 0)
        + ["realmtui", "sqlite-json", "sqlite-join", "best/rt"].map { $0.leftPadded(to: 12) }.joined(separator: " ")
    print(header)
    print(String(repeating: "-", count: header.count))
    for task in tasks(items) {
        var samples: [[Double]] = [[], [], []]
        for run in 0..<options.repeats {
            // Alternate the order, so no form always runs on a warmer cache.
            let order = run % 2 == 0 ? [0, 1, 2] : [2, 1, 0]
            for form in order {
                let (answer, seconds) = try timed { () throws -> Int in
                    switch form {
                    case 0: return try realm.count(task)
                    case 1: return try sqlite.count(task.jsonSQL)
                    default: return try sqlite.count(task.joinSQL)
                    }
                }
                guard answer == task.expected else {
                    throw BenchError("\(["realmtui", "sqlite-json", "sqlite-join"][form]) answered \(task.name) with \(answer), expected \(task.expected)")
                }
                samples[form].append(seconds)
            }
        }
        let medians = samples.map(median)
        let ratio = min(medians[1], medians[2]) / medians[0]
        print(task.name.padding(toLength: 16, withPad: " ", startingAt: 0)
              + (medians.map(show) + [String(format: "%.2f", ratio)]).map { $0.leftPadded(to: 12) }.joined(separator: " "))
    }
    print("")
    print("load after: \(loadAverage()); every answer matched the data")
} catch {
    FileHandle.standardError.write(Data("collection-bench: FAILED: \(error)\n".utf8))
    exit(1)
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
