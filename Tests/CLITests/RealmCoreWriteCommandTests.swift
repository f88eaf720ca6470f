import Foundation
import Testing

/// `realmtui copy SRC DST --format realm-core`: a Realm file (Realm Core format 24) that this
/// reader and Realm Core itself read; what cannot be written yet is refused by name.
@Suite(.tags(.multiProcess)) struct RealmCoreWriteCommandTests {
    static let schemaJSON = """
        [{"name": "Item", "properties": {"n": "int", "name": "string", "note": "string?", "ratio": "double", "ok": "bool?", "when": "date?"}}]
        """
    static let dataJSON = """
        {"Item": [{"n": 1, "name": "一", "note": null, "ratio": 0.5, "ok": true, "when": "2020-01-02T03:04:05.250Z"},
                  {"n": 2, "name": "", "note": "a note longer than sixty-four bytes, so it is a big string in Realm Core", "ratio": -1, "ok": null, "when": null},
                  {"n": 3, "name": "three", "note": "", "ratio": 1e300, "ok": false, "when": "1960-05-06T00:00:00Z"}]}
        """

    /// `tool`; without it the current test is cancelled (shown as skipped), never passed
    /// without Realm Core's word.
    static func requireTool() throws -> URL {
        guard let tool else { try Test.cancel("../shared/realm-core/tools/realm-core-tool is absent") }
        return tool
    }

    static var tool: URL? {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/realm-core/tools/realm-core-tool")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    @Test func copyWritesARealmFile() throws {
        let s = try Scratch()
        let schema = try s.write("schema.json", Self.schemaJSON)
        let native = s.path("native.realm")
        let created = try CLI.run(["create", native, "--schema", schema])
        try #require(created.status == 0, "\(created.stderr)")
        let imported = try CLI.run(["import", native, "-"], stdin: Self.dataJSON)
        try #require(imported.status == 0, "\(imported.stderr)")
        let out = s.path("seed.realm")
        let copied = try CLI.run(["copy", native, out, "--format", "realm-core"])
        #expect(copied.status == 0, "\(copied.stderr)")
        let schemaOut = try CLI.run(["schema", out])
        #expect(schemaOut.stdout.contains("a Realm file (format 24)"), "\(schemaOut.stdout) \(schemaOut.stderr)")
        #expect(schemaOut.stdout.contains("Item (3 objects)"), "\(schemaOut.stdout)")
        let count = try CLI.run(["query", out, "Item", "ratio > 0 AND note != nil", "--format", "count"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(count.stdout) \(count.stderr)")
        let tool = try Self.requireTool()
        for command in ["verify", "write-test"] {
            let result = try CLI.run([], executable: tool.path, arguments: [command, out])
            #expect(result.status == 0, "realm-core-tool \(command): \(result.stderr)")
        }
        let query = try CLI.run(
            [], executable: tool.path, arguments: ["query", out, "Item", "when < 2000-01-01@00:00:00"])
        #expect(query.stdout.contains("\"count\": 1"), "\(query.stdout) \(query.stderr)")
    }

    @Test func whatCannotBeWrittenIsRefusedByName() throws {
        let s = try Scratch()
        let schema = try s.write("bag.json", #"[{"name": "Bag", "properties": {"n": "int", "tags": "mixed<>"}}]"#)
        let file = s.path("bag.realm")
        let created = try CLI.run(["create", file, "--schema", schema])
        try #require(created.status == 0, "\(created.stderr)")
        // A set of Mixed holding two values realmtui tells apart and Realm Core takes as one
        // (it converts the float to a decimal of 7 digits).
        let imported = try CLI.run(
            ["import", file, "-"],
            stdin: #"{"Bag": [{"n": 1, "tags": [{"$float": 0.1}, {"$decimal": "0.1"}]}]}"#)
        try #require(imported.status == 0, "\(imported.stderr)")
        let out = s.path("seed.realm")
        let refused = try CLI.run(["copy", file, out, "--format", "realm-core"])
        expectFailure(refused, contains: "Bag.tags")
        #expect(!FileManager.default.fileExists(atPath: out))
        let keyed = try CLI.run([
            "copy", file, out, "--format", "realm-core", "--new-key", String(repeating: "ab", count: 64),
        ])
        expectFailure(keyed, contains: "Bag.tags")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `--new-key HEX` with `--format realm-core`: Realm's encryption layout, which this reader
    /// and Realm Core open with the key and nothing opens without it.
    @Test func copyWritesAnEncryptedRealmFile() throws {
        let s = try Scratch()
        let schema = try s.write("schema.json", Self.schemaJSON)
        let native = s.path("native.realm")
        let created = try CLI.run(["create", native, "--schema", schema])
        try #require(created.status == 0, "\(created.stderr)")
        let imported = try CLI.run(["import", native, "-"], stdin: Self.dataJSON)
        try #require(imported.status == 0, "\(imported.stderr)")
        let key = (0..<64).map { String(format: "%02x", ($0 * 53 + 7) & 0xFF) }.joined()
        let out = s.path("seed.realm")
        let copied = try CLI.run(["copy", native, out, "--format", "realm-core", "--new-key", key])
        #expect(copied.status == 0, "\(copied.stderr)")
        let count = try CLI.run(["query", out, "Item", "ratio > 0 AND note != nil", "--format", "count", "--key", key])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(count.stdout) \(count.stderr)")
        let withoutKey = try CLI.run(["query", out, "Item", "TRUEPREDICATE", "--format", "count"])
        #expect(withoutKey.status != 0, "\(withoutKey.stdout)")
        let short = try CLI.run([
            "copy", native, s.path("short.realm"), "--format", "realm-core", "--new-key", String(key.prefix(64)),
        ])
        expectFailure(short, status: 64, contains: "--new-key takes a 64-byte key as 128 hex digits")
        #expect(!FileManager.default.fileExists(atPath: s.path("short.realm")))
        let tool = try Self.requireTool()
        for command in ["verify", "write-test"] {
            let result = try CLI.run([], executable: tool.path, arguments: [command, out, "--key", key])
            #expect(result.status == 0, "realm-core-tool \(command): \(result.stderr)")
        }
        let query = try CLI.run(
            [], executable: tool.path, arguments: ["query", out, "Item", "when < 2000-01-01@00:00:00", "--key", key])
        #expect(query.stdout.contains("\"count\": 1"), "\(query.stdout) \(query.stderr)")
        let wrong = try CLI.run(
            [], executable: tool.path, arguments: ["verify", out, "--key", String(repeating: "0", count: 128)])
        #expect(wrong.status != 0, "Realm Core opened the copy with a wrong key")
    }

    /// `--streaming`: the form Realm's `writeCopy` makes (top ref in a footer ending in Realm
    /// Core's cookie), which Realm Core reports as streaming, verifies, writes to (converting it
    /// on that first read-write open) and dumps as the source, plain and encrypted.
    @Test func copyWritesTheStreamingForm() throws {
        let tool = try Self.requireTool()
        let s = try Scratch()
        let (source, _, _) = try RealmCoreFileTests.copy("generated-dogs.realm", into: s)
        let expected = try RealmCoreRoundTripCLITests.classes(
            CLI.run([], executable: tool.path, arguments: ["dump", source]))
        let key = (0..<64).map { String(format: "%02x", ($0 * 29 + 3) & 0xFF) }.joined()
        for keyed in [false, true] {
            let out = s.path(keyed ? "streaming-encrypted.realm" : "streaming.realm")
            let keyArguments = keyed ? ["--key", key] : []
            let copied = try CLI.run(
                ["copy", source, out, "--format", "realm-core", "--streaming"] + (keyed ? ["--new-key", key] : []))
            try #require(copied.status == 0, "\(copied.stderr)")
            let info = try CLI.run([], executable: tool.path, arguments: ["info", out] + keyArguments)
            let facts = try #require(
                try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any], "info: \(info.stderr)"
            )
            #expect(facts["streaming_form"] as? Bool == true, "\(facts)")
            for command in ["verify", "write-test"] {
                let result = try CLI.run([], executable: tool.path, arguments: [command, out] + keyArguments)
                #expect(
                    result.status == 0, "realm-core-tool \(command)\(keyed ? " (encrypted)" : ""): \(result.stderr)")
            }
            let written = try RealmCoreRoundTripCLITests.classes(
                CLI.run([], executable: tool.path, arguments: ["dump", out] + keyArguments))
            #expect(!expected.isEmpty && written == expected)
            // This reader reads it too.
            let count = try CLI.run(["query", out, "Dog", "TRUEPREDICATE", "--format", "count"] + keyArguments)
            #expect(
                count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "\(RealmCoreWriteCommandTests.objectCount(expected["class_Dog"]))",
                "\(count.stdout) \(count.stderr)")
        }
        let refused = try CLI.run(["copy", source, s.path("native-streaming.realm"), "--streaming"])
        expectFailure(refused, status: 64, contains: "--streaming")
    }

    /// The number of objects of a table of `RealmCoreRoundTripCLITests.classes(_:)`.
    static func objectCount(_ table: String?) -> Int {
        let json = table.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return (json?["objects"] as? [Any])?.count ?? -1
    }
}
