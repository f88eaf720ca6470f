import Foundation
import Testing

/// `watch` names changed objects by primary key (or key) and takes --arg, --distinct, --limit.
@Suite(.serialized, .tags(.multiProcess)) struct WatchIdentityTests {
    /// Runs `watch args…` until it has printed `count` lines (or ended), doing `steps` after
    /// each line; returns the lines parsed.
    func watch(_ args: [String], lines count: Int, steps: [() throws -> Void]) throws -> [[String: Any]] {
        let watcher = Process()
        watcher.executableURL = CLI.executable
        watcher.arguments = ["watch"] + args
        let out = Pipe()
        let err = Pipe()
        watcher.standardOutput = out
        watcher.standardError = err
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        let collected = WatchCommandTests.UncheckedData.reading(out.fileHandleForReading)
        let errors = WatchCommandTests.UncheckedData.reading(err.fileHandleForReading)
        for (i, step) in steps.enumerated() {
            #expect(
                collected.waitForLines(i + 1), "watch printed only \(collected.lineCount) lines; stderr: \(errors.text)"
            )
            try step()
        }
        #expect(
            collected.waitForLines(count), "watch printed only \(collected.lineCount) lines; stderr: \(errors.text)")
        watcher.terminate()
        watcher.waitUntilExit()
        return String(decoding: collected.snapshot(), as: UTF8.self).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func updatesNameObjectsByPrimaryKeyAndTakeArguments() throws {
        let s = try Scratch()
        let db = try s.database()
        let lines = try watch(
            [db, "Person", "id > $0", "--arg", "1", "--sort", "id"], lines: 3,
            steps: [
                { () throws in
                    #expect(
                        try CLI.run(
                            ["import", db, "-"], stdin: #"{"Person": [{"id": 7, "name": "七"}, {"id": 0, "name": "零"}]}"#
                        ).status == 0)
                },
                { () throws in #expect(try CLI.run(["update", db, "Person", "id == 2", "--set", "name=二"]).status == 0)
                },
            ])
        try #require(lines.count == 3, "\(lines)")
        #expect(lines[1]["insertions"] as? [Int] == [1])
        #expect(lines[1]["inserted"] as? [Int] == [7])
        #expect(lines[2]["modifications"] as? [Int] == [0])
        #expect(lines[2]["modified"] as? [Int] == [2])
    }

    @Test func deletionsNameObjectsWithoutPrimaryKeyByKey() throws {
        let s = try Scratch()
        let db = try s.database()
        let lines = try watch(
            [db, "Dog", "--sort", "age", "--limit", "1"], lines: 2,
            steps: [
                { () throws in #expect(try CLI.run(["delete", db, "Dog", "age == 1"]).status == 0) }
            ])
        try #require(lines.count == 2, "\(lines)")
        #expect(lines[0]["count"] as? Int == 1, "--limit 1")
        #expect(lines[1]["deletions"] as? [Int] == [0])
        let deleted = (lines[1]["deleted"] as? [[String: Any]])?.first
        #expect(deleted?["key"] is Int, "\(lines[1])")
        #expect(lines[1]["insertions"] as? [Int] == [0], "the next dog moves into the limit")
    }

    @Test func distinctIsApplied() throws {
        let s = try Scratch()
        let db = try s.database()
        _ = try CLI.run(["import", db, "-"], stdin: #"{"Dog": [{"name": "大黄", "age": 9}]}"#)
        let lines = try watch([db, "Dog", "--distinct", "name", "--count-events", "0"], lines: 1, steps: [])
        #expect(lines.first?["count"] as? Int == 2, "\(lines)")
    }
}
