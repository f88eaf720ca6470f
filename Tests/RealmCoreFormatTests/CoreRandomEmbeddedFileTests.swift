import Foundation
@testable import RealmCoreFormat
import RealmEngine
import Testing

/// Random embedded objects made into a `.realm` file by Realm Core itself (`realm-core-tool
/// make`), then read and converted: an embedded class holding every kind of column the
/// conversion keeps (scalars, a list, a set and a dictionary, Mixed, a link and a list of links
/// to a top-level class, and an embedded class of its own), owned through a to-one link, a list
/// and a dictionary. Our dump must equal Realm Core's (embedded objects inline), the converted
/// values the reader's, and each parent must own exactly the keys Realm Core's dump shows.
@Suite(
    .enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"),
    .tags(.multiProcess))
struct CoreRandomEmbeddedFileTests {
    static func document(seed: UInt64, parents: Int) -> [String: Any] {
        var g = CoreRandomFileTests.Generator(rng: CoreDamageTests.Xorshift(state: seed))
        func sub() -> Any {
            g.chance(0.3)
                ? NSNull()
                : ["fields": ["n": g.int(-5...5), "text": g.chance(0.2) ? NSNull() as Any : g.string() as Any]]
        }
        func part() -> [String: Any] {
            var f: [String: Any] = ["label": g.string(), "score": g.chance(0.2) ? NSNull() : g.value("double")]
            f["ints"] = (0..<g.int(0...4)).map { _ in g.value("int") }
            f["tags"] = Array(Set((0..<g.int(0...4)).map { _ in "t\(g.int(0...9))" }))
            f["attrs"] = Dictionary(
                uniqueKeysWithValues: (0..<g.int(0...3)).map { k in ("k\(k)", g.chance(0.2) ? NSNull() : g.value("int"))
                })
            f["any"] = g.chance(0.3) ? NSNull() : g.mixed()
            f["target"] = g.chance(0.3) ? NSNull() : ["table": "class_Target", "key": g.int(0...2)]
            f["targets"] = (0..<g.int(0...3)).map { _ in ["table": "class_Target", "key": g.int(0...2)] }
            f["sub"] = sub()
            return ["fields": f]
        }
        let partColumns: [[String: Any]] = [
            ["name": "label", "type": "string"], ["name": "score", "type": "double", "nullable": true],
            ["name": "ints", "type": "int", "collection": "list"],
            ["name": "tags", "type": "string", "collection": "set"],
            ["name": "attrs", "type": "int", "collection": "dictionary", "nullable": true],
            ["name": "any", "type": "mixed", "nullable": true],
            ["name": "target", "type": "link", "nullable": true, "link_target": "class_Target"],
            ["name": "targets", "type": "link", "collection": "list", "link_target": "class_Target"],
            ["name": "sub", "type": "link", "nullable": true, "link_target": "class_Sub"],
        ]
        var rows: [[String: Any]] = []
        for i in 0..<parents {
            var f: [String: Any] = ["_id": i]
            f["one"] = g.chance(0.2) ? NSNull() : part()
            f["many"] = (0..<g.int(0...3)).map { _ in part() }
            f["byName"] = Dictionary(
                uniqueKeysWithValues: (0..<g.int(0...2)).map { k in ("p\(k)", g.chance(0.2) ? NSNull() : part() as Any)
                })
            rows.append(["fields": f])
        }
        return [
            "tables": [
                [
                    "name": "class_Target", "columns": [["name": "n", "type": "int"]],
                    "objects": (0..<3).map { ["_key": $0, "fields": ["n": $0]] },
                ],
                [
                    "name": "class_Owner", "primary_key": "_id",
                    "columns": [
                        ["name": "_id", "type": "int"],
                        ["name": "one", "type": "link", "nullable": true, "link_target": "class_Part"],
                        ["name": "many", "type": "link", "collection": "list", "link_target": "class_Part"],
                        [
                            "name": "byName", "type": "link", "collection": "dictionary", "nullable": true,
                            "link_target": "class_Part",
                        ],
                    ], "objects": rows,
                ],
                ["name": "class_Part", "type": "embedded", "columns": partColumns],
                [
                    "name": "class_Sub", "type": "embedded",
                    "columns": [["name": "n", "type": "int"], ["name": "text", "type": "string", "nullable": true]],
                ],
            ]
        ]
    }

    /// The embedded object keys a dump value names (inline objects), in order.
    static func inlineKeys(_ json: Any) -> [Int64?] {
        if json is NSNull { return [nil] }
        if let array = json as? [Any] { return array.flatMap(inlineKeys) }
        if let object = json as? [String: Any] {
            if let key = (object["_key"] as? NSNumber)?.int64Value { return [key] }
            return object.keys.sorted().flatMap { inlineKeys(object[$0] ?? NSNull()) }
        }
        return []
    }

    /// The embedded object keys a converted value names, in the same order.
    static func keys(_ value: Value) -> [Int64?] {
        switch value {
        case .null: return [nil]
        case .link(let k): return [k.rawValue]
        case .list(let items): return items.flatMap(keys)
        case .map(let entries): return entries.keys.sorted().flatMap { keys(entries[$0] ?? .null) }
        default: return []
        }
    }

    @Test(arguments: [UInt64(0x2424_0001), UInt64(0xE3BE_DDED)])
    func randomEmbeddedObjectsConvertAsRealmCoreReadsThem(seed: UInt64) throws {
        let tool = try #require(CoreFixtures.tool())
        let scratch = TempDir("core-random-embedded")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.url
        let doc = dir.appendingPathComponent("doc.json")
        try JSONSerialization.data(withJSONObject: Self.document(seed: seed, parents: 40)).write(to: doc)
        let realmURL = dir.appendingPathComponent("random.realm")
        _ = try CoreProcess.run(tool, ["make", realmURL.path, "--from", doc.path])
        let expected = dir.appendingPathComponent("expected.json")
        try CoreProcess.run(tool, ["dump", realmURL.path]).stdout.write(to: expected)
        // Our reader's dump (embedded objects inline) equals Realm Core's.
        try CoreDumpConformanceTests.checkText(realm: realmURL, expectedJSON: expected)

        let file = try CoreDumpConformanceTests.open(realmURL)
        var conversion = try RealmCoreConversion(file: file)
        #expect(conversion.omissions.isEmpty, "\(conversion.omissions)")
        #expect(conversion.schema["Part"]?.isEmbedded == true && conversion.schema["Sub"]?.isEmbedded == true)
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "random-embedded-\(UUID().uuidString)", schema: conversion.schema))
        try realm.write { try conversion.copy(into: realm) }
        try CoreConversionTests.expectSameContent(file, conversion, realm)
        #expect(try realm.checkIntegrity().warnings.isEmpty)

        // Each owner holds exactly the embedded objects Realm Core's dump shows inline.
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: expected)) as? [String: Any])
        let tables = try #require(dump["tables"] as? [[String: Any]])
        let owners = try #require(
            tables.first { $0["name"] as? String == "class_Owner" }?["objects"] as? [[String: Any]])
        var owned = 0
        for object in owners {
            let key = try #require((object["_key"] as? NSNumber)?.int64Value)
            let fields = try #require(object["fields"] as? [String: Any])
            let converted = try #require(try realm.object(ofType: "Owner", key: ObjectKey(key)))
            for name in ["one", "many", "byName"] {
                let expectedKeys = Self.inlineKeys(fields[name] ?? NSNull())
                #expect(Self.keys(try converted.value(forKey: name)) == expectedKeys, "Owner \(key).\(name)")
                owned += expectedKeys.compactMap { $0 }.count
            }
        }
        let parts = try #require(file.table(named: "class_Part")).objectCount
        #expect(owned == parts && parts > 40, "\(owned) owned of \(parts)")
        #expect(
            try conversion.checkEmbeddedObjects() == parts + (try #require(file.table(named: "class_Sub")).objectCount))
    }
}
