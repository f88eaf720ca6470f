import Foundation
import RealmCoreFormat
import Testing

/// Random documents made into `.realm` files by Realm Core itself (`realm-core-tool make`,
/// committed and streaming forms), then read by this reader and by Realm Core: the two dumps
/// must be the same text. The documents reach what the fixtures do not: collections and
/// backlink lists over 1,000 elements (inner B+tree nodes), every string length class, nulls
/// in every kind of column, Mixed holding every type.
@Suite(
    .enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"),
    .tags(.multiProcess))
struct CoreRandomFileTests {
    struct Generator {
        var rng: CoreDamageTests.Xorshift

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

        mutating func string() -> String {
            // Short (≤ 15), medium (16–63) and long (≥ 64) strings, some non-ASCII.
            let length = [int(0...15), int(16...63), int(64...700)][int(0...2)]
            // A random rotation of a fixed text, cut to length (cheap in a debug build).
            let text = Self.text
            let start = int(0...(text.count - 1))
            return String((text[start...] + text).prefix(length))
        }

        static let text = Array(String(repeating: "abcXYZ 0123456789-_é标签😀 ", count: 30))

        mutating func binary() -> String {
            let length = [int(0...20), int(21...200), int(201...3000)][int(0...2)]
            let seed = UInt8(truncatingIfNeeded: int(0...255))
            return Data((0..<length).map { UInt8(truncatingIfNeeded: $0) &* 31 &+ seed }).base64EncodedString()
        }

        mutating func hex(_ digits: Int) -> String {
            String((0..<digits).map { _ in Array("0123456789abcdef")[int(0...15)] })
        }

        mutating func value(_ type: String) -> Any {
            switch type {
            case "int": return [int(-5...5), int(-200_000...200_000), int(Int.min / 2...Int.max / 2)][int(0...2)]
            case "bool": return chance(0.5)
            case "double": return Double(int(-1_000_000...1_000_000)) / 64.0
            case "string": return string()
            case "binary": return binary()
            case "timestamp":
                // Realm's Timestamp: the nanoseconds carry the sign of the seconds.
                let seconds = int(-100_000_000...100_000_000)
                let nanos = int(0...999_999_999)
                return ["seconds": seconds, "nanoseconds": seconds < 0 ? -nanos : nanos]
            case "object_id": return hex(24)
            case "uuid":
                let h = hex(32)
                let c = Array(h)
                return
                    "\(String(c[0..<8]))-\(String(c[8..<12]))-\(String(c[12..<16]))-\(String(c[16..<20]))-\(String(c[20..<32]))"
            default: return NSNull()
            }
        }

        mutating func mixed() -> Any {
            let type = ["int", "bool", "double", "string", "binary", "timestamp", "object_id", "uuid"][int(0...7)]
            return ["type": type, "value": value(type)]
        }
    }

    static let scalarTypes = ["int", "bool", "double", "string", "binary", "timestamp", "object_id", "uuid"]

    static func document(seed: UInt64, objects: Int) -> [String: Any] {
        var g = Generator(rng: CoreDamageTests.Xorshift(state: seed))
        var columns: [[String: Any]] = [["name": "_id", "type": "int"]]
        for type in scalarTypes {
            columns.append(["name": "req_\(type)", "type": type])
            columns.append(["name": "opt_\(type)", "type": type, "nullable": true])
        }
        for kind in ["list", "set", "dictionary"] {
            for type in ["int", "string", "double"] {
                columns.append([
                    "name": "\(kind)_\(type)", "type": type, "collection": kind, "nullable": kind == "dictionary",
                ])
            }
        }
        columns.append(["name": "mix", "type": "mixed", "nullable": true])
        columns.append(["name": "mixList", "type": "mixed", "nullable": true, "collection": "list"])
        columns.append(["name": "target", "type": "link", "nullable": true, "link_target": "class_Target"])
        columns.append(["name": "targets", "type": "link", "collection": "list", "link_target": "class_Target"])
        var rows: [[String: Any]] = []
        for i in 0..<objects {
            var f: [String: Any] = ["_id": i * 3 + 1]
            for type in scalarTypes {
                f["req_\(type)"] = g.value(type)
                f["opt_\(type)"] = g.chance(0.3) ? NSNull() : g.value(type)
            }
            for kind in ["list", "set", "dictionary"] {
                for type in ["int", "string", "double"] {
                    // Mostly small; the first object's are large enough for inner B+tree nodes.
                    let n = i == 0 ? 1_100 : g.int(0...4)
                    if kind == "dictionary" {
                        var d: [String: Any] = [:]
                        for k in 0..<n { d["k\(k)-\(g.int(0...99))"] = g.chance(0.1) ? NSNull() : g.value(type) }
                        f["\(kind)_\(type)"] = d
                    } else {
                        f["\(kind)_\(type)"] = (0..<n).map { _ in g.value(type) }
                    }
                }
            }
            f["mix"] = g.chance(0.2) ? NSNull() : g.mixed()
            f["mixList"] = (0..<g.int(0...4)).map { _ in g.chance(0.2) ? NSNull() : g.mixed() }
            // Every object links to target 0: its backlink list outgrows one B+tree leaf.
            f["target"] = g.chance(0.05) ? NSNull() : ["table": "class_Target", "key": 0]
            f["targets"] = (0..<g.int(0...3)).map { _ in ["table": "class_Target", "key": g.int(0...2)] }
            rows.append(["fields": f])
        }
        let targets: [String: Any] = [
            "name": "class_Target", "columns": [["name": "n", "type": "int"]],
            "objects": (0..<3).map { ["_key": $0, "fields": ["n": $0]] },
        ]
        let main: [String: Any] = ["name": "class_Random", "primary_key": "_id", "columns": columns, "objects": rows]
        return ["tables": [targets, main]]
    }

    @Test(arguments: [(UInt64(0x1234_5678), false), (UInt64(0x9ABC_DEF0), true)])
    func randomFileReadsAsRealmCoreReadsIt(seed: UInt64, streaming: Bool) throws {
        let tool = try CoreFixtures.requireTool()
        let scratch = TempDir("core-random")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.url
        let doc = dir.appendingPathComponent("doc.json")
        try JSONSerialization.data(withJSONObject: Self.document(seed: seed, objects: 1_150)).write(to: doc)
        let realm = dir.appendingPathComponent("random.realm")
        _ = try CoreProcess.run(tool, ["make", realm.path, "--from", doc.path] + (streaming ? ["--streaming"] : []))
        let expected = dir.appendingPathComponent("expected.json")
        try CoreProcess.run(tool, ["dump", realm.path]).stdout.write(to: expected)
        try CoreDumpConformanceTests.checkText(realm: realm, expectedJSON: expected)
    }
}
