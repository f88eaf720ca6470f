import Foundation
import RealmEngine
import Testing

/// The bundled-seed flow as a user runs it, in a real terminal (issue 25): a Realm file (Realm
/// Core's format, as an app bundles it) opened in the explorer, a Decimal128, a set, a
/// dictionary entry, a Mixed value and an embedded object's string edited, the explorer quit —
/// then Realm Core itself (`realm-core-tool`) verifies the file, writes to it, and its dump
/// shows every edit.
@Suite("Explorer edits a Realm file, end to end, proved by Realm Core", .tags(.tmux))
struct ExplorerRealmFileEditTerminalTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "price", type: .decimal128),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "attrs", type: .string, isMap: true),
                Property(name: "m", type: .mixed),
                Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
            ]),
        ObjectSchema(name: "Address", properties: [Property(name: "city", type: .string)], isEmbedded: true),
    ])

    /// `realm-core-tool ARGS…`, its stderr in the failure when it fails.
    static func tool(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLI.Result {
        let tool = try #require(RealmCoreWriteCommandTests.tool)
        let result = try CLI.run([], executable: tool.path, arguments: arguments)
        #expect(
            result.status == 0, "realm-core-tool \(arguments.joined(separator: " ")): \(result.stderr)",
            sourceLocation: sourceLocation)
        return result
    }

    /// The fields of class_Item's only object in Realm Core's dump of `path`.
    static func itemFields(_ path: String) throws -> [String: Any] {
        let dump = try tool(["dump", path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let tables = json["tables"] as? [[String: Any]] ?? []
        let item = try #require(tables.first { $0["name"] as? String == "class_Item" }, "\(dump.stdout.prefix(400))")
        let objects = item["objects"] as? [[String: Any]] ?? []
        try #require(objects.count == 1, "\(objects)")
        return objects[0]["fields"] as? [String: Any] ?? [:]
    }

    /// The value of a dump field as compact JSON text, to compare.
    static func text(_ value: Any?) throws -> String {
        guard let value else { return "missing" }
        return String(
            decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]),
            as: UTF8.self)
    }

    @Test(
        .enabled(
            if: TmuxSession.isAvailable && RealmCoreWriteCommandTests.tool != nil,
            "needs tmux (a real terminal) and ../shared/realm-core/tools/realm-core-tool"))
    func editASeedFileInTheExplorer() throws {
        let s = try Scratch()
        let native = s.path("native.realm")
        let seed = s.path("seed.realm")
        do {
            let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: native), schema: Self.schema))
            try realm.write {
                try realm.create(
                    "Item",
                    value: .dictionary([
                        "id": .value(.int(1)), "price": .value(.decimal128(try Decimal128(string: "9.99"))),
                        "tags": .value(.list([.string("a")])), "attrs": .value(.map(["size": .string("L")])),
                        "m": .value(.int(1)), "address": .dictionary(["city": .value(.string("Bergen"))]),
                    ]))
            }
        }
        // The seed file, as an app bundles it: a Realm file Realm Core verifies.
        let made = try CLI.run(["copy", native, seed, "--format", "realm-core"])
        try #require(made.status == 0, "\(made.stderr)")
        _ = try Self.tool(["verify", seed])
        let before = try Self.itemFields(seed)
        #expect(try Self.text((before["price"] as? [String: Any])?["text"]) == #""9.99""#, "\(before)")
        #expect(try Self.text(before["tags"]) == #"["a"]"#)
        #expect(
            (before["address"] as? [String: Any]).map { try? Self.text($0["fields"]) } == #"{"city":"Bergen"}"#,
            "\(before)")

        let state = s.path("state")
        let tmux = try TmuxSession(
            script: ExplorerEntryTests.script(
                [seed], environment: "LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=\(state)"),
            width: 120, height: 30)
        defer { tmux.close() }
        _ = try tmux.waitFor("editing a Realm file (format 24)")
        try tmux.sendKeys("Enter")  // the Item table
        _ = try tmux.waitFor("row 1 of 1")
        try tmux.sendKeys("Enter", "j", "e", "C-u")  // Item › price (a Decimal128)
        try tmux.type("12.50")
        try tmux.sendKeys("C-s")
        _ = try tmux.waitFor("Item#0.price =")
        try tmux.sendKeys("j", "Enter")  // tags (a set)
        _ = try tmux.waitFor("tags")
        try tmux.sendKeys("a", "C-u")
        try tmux.type("x")
        try tmux.sendKeys("Enter")
        _ = try tmux.waitFor("Item#0.tags changed")
        try tmux.sendKeys("Escape", "j", "e", "C-u")  // attrs: the dictionary as a JSON object
        try tmux.type(#"{"size": "L", "color": "red"}"#)
        try tmux.sendKeys("C-s")
        _ = try tmux.waitFor("Item#0.attrs =")
        try tmux.sendKeys("j", "e")  // m: a Mixed value, its type picked first
        _ = try tmux.waitFor("pick its type")
        try tmux.sendKeys("Enter")  // int, its current type, preselected
        _ = try tmux.waitFor("mixed as int")
        try tmux.sendKeys("C-u")
        try tmux.type("5")
        try tmux.sendKeys("C-s")
        _ = try tmux.waitFor("Item#0.m = 5")
        try tmux.sendKeys("j")  // address: the embedded object, expanded in place
        _ = try tmux.waitFor("▸ ⟨Address⟩ Bergen")
        try tmux.sendKeys("Space")
        _ = try tmux.waitFor("▾ ⟨Address⟩ Bergen")
        try tmux.sendKeys("j", "e", "C-u")  // its city (a string)
        try tmux.type("Oslo")
        try tmux.sendKeys("C-s")
        _ = try tmux.waitFor("Address#0.city = Oslo")
        try tmux.sendKeys("q")
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=0"), "\(text)")

        // Realm Core: the file is consistent, an app can write to it, and the dump shows each edit.
        for command in ["verify", "write-test"] {
            let result = try Self.tool([command, seed])
            #expect(
                result.stdout.contains("\"result\": \"ok\""), "realm-core-tool \(command): \(result.stdout.suffix(400))"
            )
        }
        let after = try Self.itemFields(seed)
        #expect(try Self.text((after["price"] as? [String: Any])?["text"]) == #""12.50""#, "\(after)")
        #expect(try Self.text(after["tags"]) == #"["a","x"]"#, "\(after)")
        #expect(try Self.text(after["attrs"]) == #"{"color":"red","size":"L"}"#, "\(after)")
        #expect(try Self.text(after["m"]) == #"{"type":"int","value":5}"#, "\(after)")
        #expect(
            (after["address"] as? [String: Any]).map { try? Self.text($0["fields"]) } == #"{"city":"Oslo"}"#, "\(after)"
        )
        #expect(try Self.text(after["id"]) == "1")
    }
}
