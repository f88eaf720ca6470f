import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Property-based files beyond scalars and lists (`CoreWriterRandomTests`): random tables with
/// a primary key, indexed columns, sets, dictionaries, Mixed values (lists nested in them),
/// links, lists and sets of links — seeded, `REALMTUI_CORE_WRITER_COLLECTION_FILES` files (100
/// at CI size, a quarter on a laptop's plain `swift test`; `REALMTUI_CORE_WRITER_SEED` replays one). Each is written by this writer and
/// checked as `CoreWriterTests.roundTrip` checks: this reader reads back exactly what was
/// written, Realm Core verifies it (indexes and backlinks included), writes to it, and its
/// dump equals this reader's. A failure names the seed to replay.
@Suite struct CoreWriterRandomCollectionsTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    /// Element types of sets, each with an order simple to state (Realm Core's `operator<`).
    static let setTypes: [CoreColumnType] = [
        .int, .bool, .string, .binary, .timestamp, .float, .double, .objectId, .uuid,
    ]
    static let indexable: [CoreColumnType] = [.int, .bool, .string, .timestamp, .objectId, .uuid]

    /// Realm Core's set order for `setTypes`: null first; numbers by value with float and
    /// double NaNs last (where the writer puts them: `CoreSetOrder`); bools false first;
    /// strings, binaries, ObjectIds and UUIDs by unsigned bytes (a prefix first); timestamps by
    /// seconds then nanoseconds.
    static func setOrder(_ items: [CoreValue]) -> [CoreValue] {
        func rank(_ v: CoreValue) -> Int {
            switch v {
            case .null: 0
            case .float(let f) where f.isNaN: 2
            case .double(let d) where d.isNaN: 2
            default: 1
            }
        }
        func bytes(_ v: CoreValue) -> [UInt8]? {
            switch v {
            case .string(let s): Array(s.utf8)
            case .binary(let d), .objectId(let d), .uuid(let d): Array(d)
            default: nil
            }
        }
        return items.sorted { a, b in
            if rank(a) != rank(b) { return rank(a) < rank(b) }
            switch (a, b) {
            case (.int(let x), .int(let y)): return x < y
            case (.bool(let x), .bool(let y)): return !x && y
            case (.float(let x), .float(let y)): return x < y
            case (.double(let x), .double(let y)): return x < y
            case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)): return s1 != s2 ? s1 < s2 : n1 < n2
            default:
                guard let x = bytes(a), let y = bytes(b) else { return false }
                return x.lexicographicallyPrecedes(y)
            }
        }
    }

    /// Whether Realm Core takes two set elements as one (`0.0` and `-0.0` too).
    static func sameElement(_ a: CoreValue, _ b: CoreValue) -> Bool {
        switch (a, b) {
        case (.float(let x), .float(let y)): x == y || (x.isNaN && y.isNaN)
        case (.double(let x), .double(let y)): x == y || (x.isNaN && y.isNaN)
        default: a == b
        }
    }

    /// A random dictionary key: no leading `$`, no `.` (Realm's rules), some non-ASCII.
    static func key(_ g: inout SeededGenerator) -> String {
        let parts = ["a", "k", "键", "0", " ", "é", "z"]
        return (0..<Int.random(in: 0...4, using: &g)).map { _ in parts.randomElement(using: &g) ?? "a" }.joined()
    }

    /// A random Mixed value: any scalar kind, null, or a list nested in it.
    static func mixed(_ g: inout SeededGenerator, depth: Int = 0) -> CoreValue {
        let pick = Int.random(in: 0..<12, using: &g)
        if pick == 11, depth < 2 {
            return .list((0..<Int.random(in: 0...4, using: &g)).map { _ in mixed(&g, depth: depth + 1) })
        }
        let types = CoreWriterRandomTests.types
        return CoreWriterRandomTests.value(types[pick % types.count], nullable: true, &g)
    }

    static func table(_ t: Int, target: (name: String, keys: [Int64])?, _ g: inout SeededGenerator)
        -> RealmCoreWriterTable
    {
        var columns: [Column] = [Column(name: "_id", type: .int, nullable: false)]
        for c in 0..<Int.random(in: 1...7, using: &g) {
            switch Int.random(in: 0..<6, using: &g) {
            case 0:
                var column = Column(
                    name: "i\(c)", type: Self.indexable.randomElement(using: &g) ?? .int,
                    nullable: Bool.random(using: &g))
                column.isIndexed = true
                columns.append(column)
            case 1:
                columns.append(
                    Column(
                        name: "s\(c)", type: Self.setTypes.randomElement(using: &g) ?? .int,
                        nullable: Bool.random(using: &g), isSet: true))
            case 2:
                columns.append(
                    Column(
                        name: "d\(c)", type: CoreWriterRandomTests.types.randomElement(using: &g) ?? .int,
                        nullable: Bool.random(using: &g), isDictionary: true))
            case 3: columns.append(Column(name: "m\(c)", type: .mixed, nullable: true))
            default:
                guard let target else { continue }
                let kind = Int.random(in: 0..<3, using: &g)
                columns.append(
                    Column(
                        name: "l\(c)", type: .link, nullable: kind == 0, isList: kind == 1, isSet: kind == 2,
                        linkTarget: target.name))
            }
        }
        let count = [0, 1, 9, 300].randomElement(using: &g) ?? 0
        var key = Int64.random(in: 0...3, using: &g)
        var ids = Set<Int64>()
        var objects: [Object] = []
        for _ in 0..<count {
            var id = Int64.random(in: -1_000_000...1_000_000, using: &g)
            while !ids.insert(id).inserted { id += 1 }
            let values: [CoreValue] = columns.map { column in
                if column.name == "_id" { return .int(id) }
                if column.type == .link {
                    // The target's table key: 1 (the `metadata` table is 0).
                    guard let target, !target.keys.isEmpty else {
                        return column.isList ? .list([]) : column.isSet ? .set([]) : .null
                    }
                    func link() -> CoreValue { .link(tableKey: 1, key: target.keys.randomElement(using: &g) ?? 0) }
                    if column.isList { return .list((0..<Int.random(in: 0...4, using: &g)).map { _ in link() }) }
                    if column.isSet {
                        let keys = Set(
                            (0..<Int.random(in: 0...4, using: &g)).map { _ in target.keys.randomElement(using: &g) ?? 0
                            })
                        return .set(keys.sorted().map { .link(tableKey: 1, key: $0) })
                    }
                    return Bool.random(using: &g) ? link() : .null
                }
                if column.type == .mixed { return Self.mixed(&g) }
                if column.isSet {
                    var items: [CoreValue] = []
                    for _ in 0..<([0, 1, 3, 8].randomElement(using: &g) ?? 0) {
                        let v = CoreWriterRandomTests.value(column.type, nullable: column.nullable, &g)
                        if !items.contains(where: { Self.sameElement($0, v) }) { items.append(v) }
                    }
                    return .set(Self.setOrder(items))
                }
                if column.isDictionary {
                    var entries: [String: CoreValue] = [:]
                    for _ in 0..<([0, 1, 4].randomElement(using: &g) ?? 0) {
                        entries[Self.key(&g)] = CoreWriterRandomTests.value(column.type, nullable: column.nullable, &g)
                    }
                    // In key order (unsigned bytes), as the dictionary's B+tree holds them.
                    return .dictionary(
                        entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
                            .map { CoreDictionaryEntry(key: $0.key, value: $0.value) })
                }
                return CoreWriterRandomTests.value(column.type, nullable: column.nullable, &g)
            }
            objects.append(Object(key: key, values: values))
            key += Int.random(in: 0..<4, using: &g) == 0 ? Int64.random(in: 2...900, using: &g) : 1
        }
        var table = RealmCoreWriterTable(name: "class_R\(t)", columns: columns, objects: objects)
        table.primaryKey = "_id"
        return table
    }

    @Test(.enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"))
    func randomCollectionsLinksAndIndexes() async throws {
        let suite = "CoreWriterRandomCollectionsTests"
        let seeds = CoreWriterRandomHarness.seeds(
            count: TestSize.rounds("REALMTUI_CORE_WRITER_COLLECTION_FILES", ci: 100))
        await CoreWriterRandomHarness.forEachSeed(seeds, suite: suite) { seed in
            var g = SeededGenerator(seed: 0xC011_0000 + seed)
            let first = Self.table(0, target: nil, &g)
            let second = Self.table(1, target: (first.name, first.objects.map(\.key)), &g)
            try await CoreWriterRandomHarness.roundTrip(
                [first, second], schemaVersion: UInt64.random(in: 0...9, using: &g),
                TempDir("core-writer-random-collections"), name: "collections-\(seed).realm",
                context: CoreWriterRandomHarness.context(seed: seed, suite: suite))
        }
    }
}
