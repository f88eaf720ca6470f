import Foundation
import Testing

/// Realm's own files through both directions: a Realm Core file copied to realmtui's format,
/// then written back with `--format realm-core`, holds what the original holds — Realm Core's
/// dumps of the two agree class by class, column by column, object by object (table and
/// column keys aside, which the writer numbers afresh) — and Realm Core verifies and writes to
/// the copy.
@Suite(.tags(.multiProcess)) struct RealmCoreRoundTripCLITests {
    /// Embedded objects, links and lists of links (Swift), 420 objects with link lists (Kotlin),
    /// a set of Mixed in embedded objects (.NET).
    @Test(
        .enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"),
        arguments: [
            "realm-swift_migration_default-v5.realm", "realm-kotlin_benchmarks_default.realm",
            "realm-dotnet_guids.realm",
        ])
    func fixtureWrittenBackDumpsEqual(_ name: String) throws {
        let tool = try #require(RealmCoreWriteCommandTests.tool)
        let s = try Scratch()
        let (path, _, _) = try RealmCoreFileTests.copy(name, into: s)
        let native = s.path("native.realm")
        let out = s.path("out.realm")
        let toNative = try CLI.run(["copy", path, native])
        try #require(toNative.status == 0, "\(toNative.stderr)")
        let back = try CLI.run(["copy", native, out, "--format", "realm-core"])
        try #require(back.status == 0, "\(back.stderr)")
        for command in ["verify", "write-test"] {
            let result = try CLI.run([], executable: tool.path, arguments: [command, out])
            #expect(result.status == 0, "realm-core-tool \(command): \(result.stderr)")
        }
        let original = try Self.classes(CLI.run([], executable: tool.path, arguments: ["dump", path]))
        let written = try Self.classes(CLI.run([], executable: tool.path, arguments: ["dump", out]))
        #expect(!original.isEmpty)
        #expect(original.keys.sorted() == written.keys.sorted())
        for (table, content) in original {
            #expect(content == written[table], "\(table) differs")
        }
    }

    /// Every type in every collection, read → realmtui's format → written back: Realm Core's
    /// dump of the copy equals the original's, class by class and object by object, float and
    /// double sets holding a NaN included. Realm Core keeps a NaN in a float or double set
    /// where its insertion left it (`std::lower_bound` under IEEE `<`); the writer puts it
    /// last, the one place where Realm Core's binary search still finds every other element
    /// (object 3's sets, where Realm Core left it last too, come back byte for byte). Object
    /// 2's sets hold it first, where Realm Core cannot find their other element: those come
    /// back with the NaN moved last, and nothing else differs.
    @Test(.enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func everyTypeWrittenBackDumpsEqual() throws {
        let tool = try #require(RealmCoreWriteCommandTests.tool)
        let s = try Scratch()
        let (path, _, _) = try RealmCoreFileTests.copy("generated-alltypes.realm", into: s)
        let native = s.path("native.realm")
        let out = s.path("out.realm")
        let toNative = try CLI.run(["copy", path, native])
        try #require(toNative.status == 0, "\(toNative.stderr)")
        let back = try CLI.run(["copy", native, out, "--format", "realm-core"])
        try #require(back.status == 0, "\(back.stderr)")
        let originalDump = try CLI.run([], executable: tool.path, arguments: ["dump", path])
        let original = try Self.classes(originalDump, nanLast: false)
        let expected = try Self.classes(originalDump, nanLast: true)
        let written = try Self.classes(CLI.run([], executable: tool.path, arguments: ["dump", out]), nanLast: false)
        #expect(original.keys.sorted() == written.keys.sorted() && original.count >= 5)
        for (table, content) in expected {
            let differences = content == written[table] ? [] : try Self.differences(content, written[table] ?? "{}")
            #expect(content == written[table], "\(table) differs: \(differences)")
        }
        // Only AllTypes' object 2 had a NaN elsewhere than last; object 3's NaNs were last already.
        #expect(original.filter { expected[$0.key] != $0.value }.map(\.key) == ["class_AllTypes"])
        let sets = try Self.nanSets(originalDump)
        #expect(sets.contains { $0.key == 3 && $0.nanLast } && sets.contains { $0.key == 2 && !$0.nanLast }, "\(sets)")
    }

    /// Where two tables of `classes(_:)` differ: the columns, or the first objects' fields
    /// that differ (a short message, not two whole tables).
    static func differences(_ a: String, _ b: String) throws -> [String] {
        let x = try JSONSerialization.jsonObject(with: Data(a.utf8)) as? [String: Any] ?? [:]
        let y = try JSONSerialization.jsonObject(with: Data(b.utf8)) as? [String: Any] ?? [:]
        func text(_ v: Any?) -> String {
            guard let v,
                let data = try? JSONSerialization.data(withJSONObject: v, options: [.sortedKeys, .fragmentsAllowed])
            else { return "missing" }
            return String(decoding: data, as: UTF8.self).prefix(200) + ""
        }
        if text(x["columns"]) != text(y["columns"]) || text(x["type"]) != text(y["type"]) { return ["columns or type"] }
        let xs = x["objects"] as? [[String: Any]] ?? []
        let ys = y["objects"] as? [[String: Any]] ?? []
        var out = xs.count == ys.count ? [] : ["\(xs.count) objects, written \(ys.count)"]
        for (o, p) in zip(xs, ys) {
            let f = o["fields"] as? [String: Any] ?? [:]
            let g = p["fields"] as? [String: Any] ?? [:]
            for name in Set(f.keys).union(g.keys).sorted() where text(f[name]) != text(g[name]) {
                out.append("object \(text(o["_key"])) \(name): \(text(f[name])) written \(text(g[name]))")
            }
            if out.count >= 10 { break }
        }
        return out
    }

    /// The float and double sets holding a NaN in a dump: their object's key, and whether the
    /// NaNs stand last.
    static func nanSets(_ dump: CLI.Result) throws -> [(key: Int, nanLast: Bool)] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var out: [(Int, Bool)] = []
        for case let table as [String: Any] in json["tables"] as? [Any] ?? [] {
            let setColumns = Set(
                (table["columns"] as? [[String: Any]] ?? []).filter { c in
                    c["collection"] as? String == "set" && ["float", "double"].contains(c["type"] as? String ?? "")
                }.compactMap { $0["name"] as? String })
            for case let object as [String: Any] in table["objects"] as? [Any] ?? [] {
                for (name, value) in object["fields"] as? [String: Any] ?? [:] where setColumns.contains(name) {
                    guard let items = value as? [Any], let first = items.firstIndex(where: { $0 as? String == "NaN" })
                    else { continue }
                    out.append((object["_key"] as? Int ?? -1, items[first...].allSatisfy { $0 as? String == "NaN" }))
                }
            }
        }
        return out
    }

    /// Every type in every collection: its set of Mixed comes back as Realm Core stored it and
    /// Realm Core's queries on it answer as on the original.
    @Test(.enabled(if: RealmCoreWriteCommandTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func fixtureSetOfMixedWrittenBackInRealmCoresOrder() throws {
        let tool = try #require(RealmCoreWriteCommandTests.tool)
        let s = try Scratch()
        let (path, _, _) = try RealmCoreFileTests.copy("generated-alltypes.realm", into: s)
        let native = s.path("native.realm")
        let out = s.path("out.realm")
        let toNative = try CLI.run(["copy", path, native])
        try #require(toNative.status == 0, "\(toNative.stderr)")
        let back = try CLI.run(["copy", native, out, "--format", "realm-core"])
        try #require(back.status == 0, "\(back.stderr)")
        for command in ["verify", "write-test"] {
            let result = try CLI.run([], executable: tool.path, arguments: [command, out])
            #expect(result.status == 0, "realm-core-tool \(command): \(result.stderr)")
        }
        func mixedSets(_ dump: CLI.Result) throws -> [String] {
            try #require(dump.status == 0, "realm-core-tool dump: \(dump.stderr)")
            var found: [String] = []
            func walk(_ x: Any) throws {
                if let d = x as? [String: Any] {
                    for (k, v) in d.sorted(by: { $0.key < $1.key }) {
                        if k == "mixedSet" {
                            found.append(
                                String(
                                    decoding: try JSONSerialization.data(withJSONObject: v, options: [.sortedKeys]),
                                    as: UTF8.self))
                        } else {
                            try walk(v)
                        }
                    }
                } else if let a = x as? [Any] {
                    for v in a { try walk(v) }
                }
            }
            try walk(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)))
            return found
        }
        let original = try mixedSets(CLI.run([], executable: tool.path, arguments: ["dump", path]))
        let written = try mixedSets(CLI.run([], executable: tool.path, arguments: ["dump", out]))
        #expect(original.filter { $0.count > 2 }.count >= 2)
        #expect(original == written)
        // Realm Core's queries on the set of Mixed answer as on the original.
        for predicate in [
            "mixedSet.@count > 0", "ANY mixedSet == 4294967296", "ANY mixedSet == false", "ANY mixedSet == -123.456",
            "ANY mixedSet > 0",
        ] {
            let a = try CLI.run([], executable: tool.path, arguments: ["query", path, "AllTypes", predicate])
            let b = try CLI.run([], executable: tool.path, arguments: ["query", out, "AllTypes", predicate])
            // The answers past the file's name.
            func answer(_ r: CLI.Result) -> Substring? {
                r.stdout.range(of: "\"table\"").map { r.stdout[$0.lowerBound...] }
            }
            #expect(
                a.status == 0 && b.status == 0 && answer(a) != nil && answer(a) == answer(b)
                    && !a.stdout.contains("\"count\": 0"),
                "\(predicate): \(a.stdout) \(a.stderr) vs \(b.stdout) \(b.stderr)")
        }
    }

    /// Each `class_` table of a dump: its type, its columns (name, type, nullability,
    /// collection) and its objects (key, fields), as JSON text to compare.
    /// `nanLast`: each float and double set with its NaNs moved last (the writer's order).
    static func classes(_ dump: CLI.Result, nanLast: Bool = false) throws -> [String: String] {
        try #require(dump.status == 0, "realm-core-tool dump: \(dump.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var out: [String: String] = [:]
        for case let table as [String: Any] in json["tables"] as? [Any] ?? [] {
            guard let name = table["name"] as? String, name.hasPrefix("class_") else { continue }
            let columns = (table["columns"] as? [[String: Any]] ?? []).map { c in
                [
                    "name": c["name"] ?? NSNull(), "type": c["type"] ?? NSNull(), "nullable": c["nullable"] ?? NSNull(),
                    "collection": c["collection"] ?? NSNull(),
                ]
            }
            let nanSets = Set(
                (table["columns"] as? [[String: Any]] ?? []).filter { c in
                    nanLast && c["collection"] as? String == "set"
                        && ["float", "double"].contains(c["type"] as? String ?? "")
                }.compactMap { $0["name"] as? String })
            let objects = (table["objects"] as? [[String: Any]] ?? []).map { o in
                var fields = o["fields"] as? [String: Any] ?? [:]
                for name in nanSets {
                    guard let items = fields[name] as? [Any] else { continue }
                    func isNaN(_ x: Any) -> Bool { x as? String == "NaN" }
                    fields[name] = items.filter { !isNaN($0) } + items.filter(isNaN)
                }
                return ["_key": o["_key"] ?? NSNull(), "fields": fields]
            }
            let shape: [String: Any] = ["type": table["type"] ?? NSNull(), "columns": columns, "objects": objects]
            out[name] = String(
                decoding: try JSONSerialization.data(withJSONObject: shape, options: [.sortedKeys]), as: UTF8.self)
        }
        return out
    }
}
