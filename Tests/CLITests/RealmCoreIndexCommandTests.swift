import Foundation
import Testing

/// `realmtui copy SRC DST --format realm-core` of a Realm with primary keys and indexed
/// properties: the written file carries Realm Core's search indexes, so Realm Core itself finds
/// objects by primary key and writes to the file.
@Suite(.tags(.multiProcess)) struct RealmCoreIndexCommandTests {
    @Test func copyWritesPrimaryKeysAndIndexes() throws {
        let s = try Scratch()
        let file = try s.database()
        let out = s.path("seed.realm")
        let copied = try CLI.run(["copy", file, out, "--format", "realm-core"])
        try #require(copied.status == 0, "\(copied.stderr)")
        let schema = try CLI.run(["schema", out])
        #expect(schema.stdout.contains("Person (2 objects), primary key id"), "\(schema.stdout) \(schema.stderr)")
        let found = try CLI.run(["query", out, "Person", "id == 2", "--format", "count"])
        #expect(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(found.stdout) \(found.stderr)")
        let tool = try RealmCoreWriteCommandTests.requireTool()
        for command in ["verify", "write-test"] {
            let result = try CLI.run([], executable: tool.path, arguments: [command, out])
            #expect(result.status == 0, "realm-core-tool \(command): \(result.stderr)")
        }
        for (className, rql) in [("Person", "id == 2"), ("Dog", "name == '小白'")] {
            let query = try CLI.run([], executable: tool.path, arguments: ["query", out, className, rql])
            #expect(query.stdout.contains("\"count\": 1"), "\(rql): \(query.stdout) \(query.stderr)")
        }
    }
}
