import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Random schemas and values (seeded; `REALMTUI_CORE_WRITER_FILES` files, 200 at CI size;
/// `REALMTUI_CORE_WRITER_SEED` replays one)
/// written and checked as `CoreWriterTests.roundTrip` checks them: Realm Core's verify,
/// write-test, dump (equal to this reader's) and counts, and this reader's values.
@Suite(.tags(.multiProcess)) struct CoreWriterRandomTests {
    static let types: [CoreColumnType] = [
        .int, .bool, .string, .binary, .timestamp, .float, .double, .decimal128, .objectId, .uuid,
    ]

    static func value(_ type: CoreColumnType, nullable: Bool, _ g: inout SeededGenerator) -> CoreValue {
        if nullable, Int.random(in: 0..<5, using: &g) == 0 { return .null }
        func bytes(_ n: Int) -> Data { Data((0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }) }
        func text() -> String {
            let alphabet: [String] = ["a", "Z", "0", " ", "\u{0}", "é", "ß", "中", "🐶", "\n", "\""]
            let length = [0, 1, 3, 15, 16, 63, 64, 200].randomElement(using: &g) ?? 0
            var s = ""
            while s.utf8.count < length { s += alphabet.randomElement(using: &g) ?? "a" }
            return s
        }
        switch type {
        case .int:
            return .int(
                [Int64.min, .max, 0, -1, 1, 15, 16, -129, Int64.random(in: .min ... .max, using: &g)].randomElement(
                    using: &g) ?? 0)
        case .bool: return .bool(Bool.random(using: &g))
        case .string: return .string(text())
        case .binary: return .binary(bytes([0, 1, 64, 65, 300].randomElement(using: &g) ?? 0))
        case .timestamp:
            let s = Int64.random(in: -4_000_000_000...4_000_000_000, using: &g)
            let ns = Int32.random(in: 0..<1_000_000_000, using: &g)
            return .timestamp(seconds: s, nanoseconds: s < 0 ? -ns : s == 0 ? (Bool.random(using: &g) ? ns : -ns) : ns)
        case .float:
            return .float(
                [
                    Float.nan, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude,
                    Float(Int.random(in: -1000...1000, using: &g)) / 7,
                ]
                .randomElement(using: &g) ?? 0)
        case .double:
            return .double(
                [
                    Double.nan, -0.0, .infinity, .greatestFiniteMagnitude,
                    Double(bitPattern: UInt64.random(in: 0...(1 << 62), using: &g)),
                ]
                .randomElement(using: &g) ?? 0)
        case .decimal128:
            return .decimal128(
                low: UInt64.random(in: 0...UInt64.max, using: &g),
                high: 0x3040_0000_0000_0000 | UInt64.random(in: 0...0xFFFF, using: &g))
        case .objectId: return .objectId(bytes(12))
        case .uuid: return .uuid(bytes(16))
        default: return .null
        }
    }

    /// One seed's tables: 1–3 tables of 0–8 random columns (scalars and lists) and 0–600
    /// objects with sparse keys.
    static func tables(seed: UInt64) -> (tables: [RealmCoreWriterTable], schemaVersion: UInt64) {
        var g = SeededGenerator(seed: 0xC0DE_0000 + seed)
        var tables: [RealmCoreWriterTable] = []
        for t in 0..<Int.random(in: 1...3, using: &g) {
            let columns = (0..<Int.random(in: 0...8, using: &g)).map { c in
                RealmCoreWriterTable.Column(
                    name: "c\(c)", type: Self.types.randomElement(using: &g) ?? .int,
                    nullable: Bool.random(using: &g),
                    isList: Int.random(in: 0..<4, using: &g) == 0)
            }
            var key: Int64 = Int64.random(in: 0...3, using: &g)
            let count = [0, 1, 7, 256, 257, 600].randomElement(using: &g) ?? 0
            let objects = (0..<count).map { _ in
                defer { key += Int.random(in: 0..<4, using: &g) == 0 ? Int64.random(in: 2...5000, using: &g) : 1 }
                return RealmCoreWriterTable.Object(
                    key: key,
                    values: columns.map { column in
                        guard column.isList else { return Self.value(column.type, nullable: column.nullable, &g) }
                        let n = [0, 0, 1, 5, 40].randomElement(using: &g) ?? 0
                        return .list((0..<n).map { _ in Self.value(column.type, nullable: column.nullable, &g) })
                    })
            }
            tables.append(RealmCoreWriterTable(name: "class_T\(t)", columns: columns, objects: objects))
        }
        return (tables, UInt64.random(in: 0...100, using: &g))
    }

    @Test(.enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"))
    func randomSchemasAndValues() async throws {
        let seeds = CoreWriterRandomHarness.seeds(count: TestSize.rounds("REALMTUI_CORE_WRITER_FILES", ci: 200))
        await CoreWriterRandomHarness.forEachSeed(seeds, suite: "CoreWriterRandomTests") { seed in
            let (tables, schemaVersion) = Self.tables(seed: seed)
            try await CoreWriterRandomHarness.roundTrip(
                tables, schemaVersion: schemaVersion, TempDir("core-writer-random"), name: "random-\(seed).realm",
                context: CoreWriterRandomHarness.context(seed: seed, suite: "CoreWriterRandomTests"))
        }
    }
}
