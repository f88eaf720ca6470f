import Foundation
import Testing
@testable import RealmEngine

/// `realmtui watch` sees a change to a set, a dictionary, a Mixed value holding a list and an
/// embedded object as a modification of the object holding it (issue 23: "`watch` change
/// sets"), one update line per commit made by `realmtui update`.
@Suite(.serialized, .tags(.multiProcess)) struct WatchNewTypesTests {
    @Test func changesInsideSetsMapsMixedAndEmbeddedObjectsAreModifications() throws {
        let scratch = try Scratch()
        let file = scratch.path("w.realm")
        let schema = scratch.path("s.json")
        let data = scratch.path("d.json")
        try Data(
            #"""
            [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "tags": "string<>", "attrs": "string{}",
                                                                "m": "mixed", "address": "Address"}},
             {"name": "Address", "embedded": true, "properties": {"city": "string"}}]
            """#.utf8
        ).write(to: URL(fileURLWithPath: schema))
        try Data(
            #"""
            {"Item": [{"id": 1, "tags": ["a"], "attrs": {"size": "L"}, "m": [1, 2], "address": {"city": "Bergen"}},
                      {"id": 2, "tags": [], "attrs": {}, "m": null, "address": null}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: data))
        let exe = try #require(WatchCommandTests.realmtui())
        #expect(try WatchCommandTests.run(exe, ["create", file, "--schema", schema]) == 0)
        #expect(try WatchCommandTests.run(exe, ["import", file, data]) == 0)
        let watcher = Process()
        watcher.executableURL = exe
        watcher.arguments = ["watch", file, "Item", "--sort", "id", "--count-events", "4"]
        let out = Pipe()
        let err = Pipe()
        watcher.standardOutput = out
        watcher.standardError = err
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        let collected = WatchCommandTests.UncheckedData.reading(out.fileHandleForReading)
        let errors = WatchCommandTests.UncheckedData.reading(err.fileHandleForReading)
        #expect(collected.waitForLines(1), "watch printed no initial line; stderr: \(errors.text)")
        // One commit at a time, each waited for (commits that land together may be coalesced).
        for (n, assignment) in ["tags+=b", "attrs.color=red", "m=[1, 2, 3]", "address.city=Oslo"].enumerated() {
            #expect(
                try WatchCommandTests.run(exe, ["update", file, "Item", "id == 1", "--set", assignment]) == 0,
                "\(assignment)")
            #expect(collected.waitForLines(n + 2), "no update after \(assignment); stderr: \(errors.text)")
        }
        watcher.waitUntilExit()
        let stderr = errors.waitForEnd()
        _ = collected.waitForEnd()
        let lines = String(decoding: collected.snapshot(), as: UTF8.self)
            .split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        #expect(lines.count == 5, "\(lines) stderr: \(stderr)")
        for line in lines.dropFirst() {
            #expect(line["event"] as? String == "update" && line["count"] as? Int == 2, "\(line)")
            #expect(
                line["modifications"] as? [Int] == [0] && line["insertions"] as? [Int] == []
                    && line["deletions"] as? [Int] == [],
                "\(line)")
        }
        #expect(watcher.terminationStatus == 0, "\(stderr)")
        // Each change is stored: the query finds all four.
        let query = try CLI.run([
            "query", file, "Item",
            "ANY tags == 'b' AND attrs['color'] == 'red' AND m[2] == 3 AND address.city == 'Oslo'", "--format", "count",
        ])
        #expect(query.stdout == "1\n", "\(query.stderr)")
    }
}
