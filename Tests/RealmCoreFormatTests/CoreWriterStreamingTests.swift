import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// The writer's streaming form (what Realm's `writeCopy` and compaction write): the top ref in
/// a footer ending in Realm Core's cookie, plain or encrypted (the footer at the end of the
/// last page). Realm Core reads it as streaming, verifies it, writes to it (converting it on
/// that first read-write open) and dumps the same tables as from the committed form.
@Suite struct CoreWriterStreamingTests {
    typealias Column = RealmCoreWriterTable.Column
    typealias Object = RealmCoreWriterTable.Object

    static func tables() -> [RealmCoreWriterTable] {
        let targets = RealmCoreWriterTable(
            name: "class_T", columns: [Column(name: "n", type: .int, nullable: false)],
            objects: (0..<300).map { Object(key: Int64($0), values: [.int(Int64($0 * 3))]) })
        let columns = [
            Column(name: "_id", type: .string, nullable: false), Column(name: "when", type: .timestamp, nullable: true),
            Column(name: "tags", type: .string, nullable: false, isSet: true),
            Column(name: "t", type: .link, nullable: true, linkTarget: "class_T"),
        ]
        var objects: [Object] = []
        for i in 0..<40 {
            let when: CoreValue = i % 3 == 0 ? .null : .timestamp(seconds: Int64(i) * 1000, nanoseconds: 5)
            let tags: CoreValue = .set([.string("b\(i % 4)"), .string("a")])
            objects.append(
                Object(
                    key: Int64(i * 2), values: [.string("p\(i)"), when, tags, .link(tableKey: 1, key: Int64(i * 7))]))
        }
        var people = RealmCoreWriterTable(name: "class_P", columns: columns, objects: objects)
        people.primaryKey = "_id"
        return [targets, people]
    }

    /// The JSON of Realm Core's dump's tables (the file's version and name aside).
    static func dumpTables(_ tool: URL, _ path: String, key: String? = nil) throws -> String {
        let dump = try CoreProcess.run(tool, ["dump", path] + (key.map { ["--key", $0] } ?? []))
        let json = try #require(
            try CoreJSONCompare.parse(dump.stdout) as? [String: Any], "dump \(path): \(dump.stderr)")
        return String(
            decoding: try JSONSerialization.data(withJSONObject: json["tables"] ?? [], options: [.sortedKeys]),
            as: UTF8.self)
    }

    @Test func theStreamingFormIsReadByThisReader() throws {
        let image = try RealmCoreWriter.image(tables: Self.tables(), schemaVersion: 3, streaming: true)
        #expect(image.prefix(8).allSatisfy { $0 == 0xFF })
        let cookie = image.suffix(8).enumerated().reduce(UInt64(0)) {
            $0 | UInt64($1.element) << (8 * UInt64($1.offset))
        }
        #expect(cookie == 0x3034_1252_37E5_26C8)
        let file = try RealmCoreFile(image: RealmCoreImage(copying: Data(image)), name: "streaming.realm")
        #expect(try file.schemaVersion() == 3)
        #expect(try #require(file.table(named: "class_P")).objectCount == 40)
        let committed = try RealmCoreWriter.image(tables: Self.tables(), schemaVersion: 3)
        // The same nodes at the same refs: only the header and the footer differ.
        #expect(image.count == committed.count + 16)
        #expect(image[24..<committed.count] == committed[24...])
    }

    @Test(.enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"))
    func realmCoreReadsVerifiesAndWritesTheStreamingForm() throws {
        let tool = try #require(CoreFixtures.tool())
        let dir = TempDir("core-writer-streaming")
        let key = (0..<64).map { UInt8(($0 * 13 + 5) & 0xFF) }
        let hex = key.map { String(format: "%02x", $0) }.joined()
        let committed = dir.path("committed.realm")
        try RealmCoreWriter.write(tables: Self.tables(), schemaVersion: 3, toFile: committed, encryptionKey: nil)
        let expected = try Self.dumpTables(tool, committed)
        for encrypted in [false, true] {
            let path = dir.path(encrypted ? "streaming-encrypted.realm" : "streaming.realm")
            try RealmCoreWriter.write(
                tables: Self.tables(), schemaVersion: 3, toFile: path, encryptionKey: encrypted ? Data(key) : nil,
                streaming: true)
            let keyArguments = encrypted ? ["--key", hex] : []
            let info = try CoreProcess.run(tool, ["info", path] + keyArguments)
            let facts = try #require(try CoreJSONCompare.parse(info.stdout) as? [String: Any], "info: \(info.stderr)")
            #expect(facts["streaming_form"] as? Bool == true, "\(facts)")
            #expect(facts["schema_version"] as? Int == 3, "\(facts)")
            for command in ["verify", "write-test"] {
                let result = try CoreProcess.run(tool, [command, path] + keyArguments)
                #expect(
                    String(decoding: result.stdout, as: UTF8.self).contains("\"result\": \"ok\""),
                    "\(encrypted ? "encrypted " : "")realm-core-tool \(command): \(result.stderr)")
            }
            #expect(try Self.dumpTables(tool, path, key: encrypted ? hex : nil) == expected)
            if encrypted {
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count % 4096 == 0)
                // Realm Core refuses it without the key (the tool exits 1).
                #expect(throws: (any Error).self) { try CoreProcess.run(tool, ["verify", path]) }
            }
        }
    }
}
