import Foundation
import RealmEngine
import Testing

/// End to end in a real terminal, issue 23: the explorer edits a set (adds an element), a
/// dictionary (puts a key), a Mixed value and an embedded object's field; after it quits,
/// `realmtui query` finds each change.
@Suite("Explorer edits sets, dictionaries, Mixed and embedded objects, end to end", .tags(.tmux, .multiProcess))
struct ExplorerNewTypesEditTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "attrs", type: .string, isMap: true),
                Property(name: "m", type: .mixed),
                Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
            ]),
        ObjectSchema(name: "Address", properties: [Property(name: "city", type: .string)], isEmbedded: true),
    ])

    @Test(
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func editsEachNewTypeInTheRealExplorer() throws {
        let s = try Scratch()
        let db = s.path("items.realm")
        do {
            let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: db), schema: Self.schema))
            try realm.write {
                try realm.create(
                    "Item",
                    value: .dictionary([
                        "id": .value(.int(1)), "tags": .value(.list([.string("a")])),
                        "attrs": .value(.map(["size": .string("L")])),
                        "m": .value(.int(1)), "address": .dictionary(["city": .value(.string("Bergen"))]),
                    ]))
            }
        }
        // Before: none of the edits is there (so each count below can only come from the explorer).
        #expect(try count(db, "Item", "ANY tags == 'x'") == 0)
        #expect(try count(db, "Item", "attrs['color'] == 'red'") == 0)
        #expect(try count(db, "Item", "m == '5'") == 0)
        #expect(try count(db, "Item", "m.@type == 'string'") == 0)
        #expect(try count(db, "Item", "address.city == 'Oslo'") == 0)

        let tmux = try TmuxSession(script: ExplorerEntryTests.script([db]), width: 120, height: 30)
        defer { tmux.close() }
        _ = try tmux.waitFor("Item · primary key id")
        try tmux.sendKeys("Enter")  // the Item table
        _ = try tmux.waitFor("row 1 of 1")
        try tmux.sendKeys("Enter", "j", "Enter")  // Item › tags (a set)
        _ = try tmux.waitFor("tags")
        try tmux.sendKeys("a", "C-u")
        try tmux.type("x")
        try tmux.sendKeys("Enter")
        _ = try tmux.waitFor("Item#0.tags changed")
        try tmux.sendKeys("Escape", "j", "e", "C-u")  // attrs: the dictionary as a JSON object
        try tmux.type(#"{"size": "L", "color": "red"}"#)
        try tmux.sendKeys("C-s")  // ^S writes in every editor (Enter is a new line in some)
        _ = try tmux.waitFor("Item#0.attrs =")
        try tmux.sendKeys("j", "e")  // m: a Mixed value, its type picked first
        _ = try tmux.waitFor("pick its type")
        try tmux.sendKeys("s", "Enter")  // string (m holds the int 1): 5 is then text, not a number
        _ = try tmux.waitFor("mixed as string")
        try tmux.sendKeys("C-u")
        try tmux.type("5")
        try tmux.sendKeys("C-s")
        _ = try tmux.waitFor(#"Item#0.m = "5""#)
        try tmux.sendKeys("j")  // address: the embedded object, expanded in place
        _ = try tmux.waitFor("▸ ⟨Address⟩ Bergen")
        try tmux.sendKeys("Space")
        _ = try tmux.waitFor("▾ ⟨Address⟩ Bergen")
        try tmux.sendKeys("j", "e", "C-u")  // its city (the multi-line string editor: ^S writes)
        try tmux.type("Oslo")
        try tmux.sendKeys("C-s")
        _ = try tmux.waitFor("Address#0.city = Oslo")
        try tmux.sendKeys("q")
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=0"), "\(text)")

        #expect(try count(db, "Item", "ANY tags == 'x'") == 1)
        #expect(try count(db, "Item", "ANY tags == 'a'") == 1)
        #expect(try count(db, "Item", "attrs['color'] == 'red'") == 1)
        #expect(try count(db, "Item", "attrs['size'] == 'L'") == 1)
        #expect(try count(db, "Item", "m == '5'") == 1)
        #expect(try count(db, "Item", "m.@type == 'string'") == 1)
        #expect(try count(db, "Item", "address.city == 'Oslo'") == 1)
        #expect(try CLI.run(["check", db]).status == 0)
    }

    /// `realmtui query … --format count`; its stderr in the failure when it does not print a count.
    private func count(
        _ db: String, _ className: String, _ query: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let result = try CLI.run(["query", db, className, query, "--format", "count"])
        guard let n = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Issue.record(
                "query \(className) \(query): status \(result.status), stderr: \(result.stderr)",
                sourceLocation: sourceLocation)
            return -1
        }
        return n
    }
}
