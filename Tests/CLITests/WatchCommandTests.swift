import Foundation
import Testing
@testable import RealmEngine
#if canImport(Glibc)
    import Glibc
#endif

/// `realmtui watch` as a script sees it: JSON lines, one per change, ending on SIGTERM or after
/// `--count-events`.
@Suite(.serialized, .tags(.multiProcess)) struct WatchCommandTests {
    /// A new folder holding `w.realm`, made by `realmtui create` with one class, Dog (name,
    /// age), and the built `realmtui`.
    static func emptyDogFile() throws -> (dir: URL, file: String, exe: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("w.realm").path
        let schema = dir.appendingPathComponent("s.json")
        try Data(#"[{"name": "Dog", "properties": {"name": "string", "age": "int"}}]"#.utf8).write(to: schema)
        let exe = try #require(WatchCommandTests.realmtui())
        #expect(try WatchCommandTests.run(exe, ["create", file, "--schema", schema.path]) == 0)
        return (dir, file, exe)
    }

    @Test func watchPrintsInitialThenOneLinePerCommitAndStopsOnCount() throws {
        let (dir, file, exe) = try Self.emptyDogFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let watcher = Process()
        watcher.executableURL = exe
        watcher.arguments = ["watch", file, "Dog", "age > 1", "--sort", "-age", "--count-events", "2"]
        let out = Pipe()
        let err = Pipe()
        watcher.standardOutput = out
        watcher.standardError = err
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        // Read the watcher's output as it comes, and wait for each line before the next commit
        // (no fixed sleeps: CI machines can be slow, and commits that land together may be
        // coalesced into one update).
        let collected = UncheckedData.reading(out.fileHandleForReading)
        let errors = UncheckedData.reading(err.fileHandleForReading)
        #expect(collected.waitForLines(1), "watch printed no initial line; stderr: \(errors.text)")
        let dogs = dir.appendingPathComponent("d.json")
        try Data(#"{"Dog": [{"name": "a", "age": 3}, {"name": "b", "age": 1}]}"#.utf8).write(to: dogs)
        #expect(try WatchCommandTests.run(exe, ["import", file, dogs.path]) == 0)
        #expect(collected.waitForLines(2), "watch printed no update; stderr: \(errors.text)")
        try Data(#"{"Dog": [{"name": "c", "age": 5}]}"#.utf8).write(to: dogs)
        #expect(try WatchCommandTests.run(exe, ["import", file, dogs.path]) == 0)
        // The second update is the last event counted: the watcher exits after printing it.
        watcher.waitUntilExit()
        let stderr = errors.waitForEnd()
        _ = collected.waitForEnd()
        let lines = String(decoding: collected.snapshot(), as: UTF8.self)
            .split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        #expect(lines.count == 3, "\(lines) stderr: \(stderr)")
        guard lines.count == 3 else { return }
        #expect(lines[0]["event"] as? String == "initial")
        #expect(lines[0]["count"] as? Int == 0)
        #expect(lines[1]["event"] as? String == "update")
        #expect(lines[1]["count"] as? Int == 1)
        #expect(lines[1]["insertions"] as? [Int] == [0])
        #expect(lines[2]["count"] as? Int == 2)
        #expect(lines[2]["insertions"] as? [Int] == [0])
        #expect(watcher.terminationStatus == 0, "\(stderr)")
    }

    /// A Realm file (what a Realm app writes) is polled: a commit that replaces its content
    /// (one object deleted, one inserted, one modified) is one update line, in the same form.
    @Test func aRealmFileIsPolledAndItsCommitsPrintedAsChanges() throws {
        let scratch = try Scratch()
        let file = scratch.path("app.realm")
        try FileManager.default.copyItem(atPath: RealmCoreFileTests.fixture("watch-before.realm").path, toPath: file)
        let exe = try #require(WatchCommandTests.realmtui())
        let watcher = Process()
        watcher.executableURL = exe
        watcher.arguments = ["watch", file, "Dog", "--count-events", "1"]
        let out = Pipe()
        let err = Pipe()
        watcher.standardOutput = out
        watcher.standardError = err
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        let collected = UncheckedData.reading(out.fileHandleForReading)
        let errors = UncheckedData.reading(err.fileHandleForReading)
        try #require(collected.waitForLines(1), "watch printed no initial line; stderr: \(errors.text)")
        // As a Realm app writes: the file's bytes change in place.
        try Data(contentsOf: RealmCoreFileTests.fixture("watch-after.realm")).write(to: URL(fileURLWithPath: file))
        #expect(collected.waitForLines(2), "watch printed no update; stderr: \(errors.text)")
        watcher.waitUntilExit()
        let stderr = errors.waitForEnd()
        #expect(watcher.terminationStatus == 0, "\(stderr)")
        let lines = String(decoding: collected.snapshot(), as: UTF8.self)
            .split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        try #require(lines.count == 2, "\(lines) \(stderr)")
        #expect(lines[0]["event"] as? String == "initial")
        #expect(lines[0]["count"] as? Int == 5)
        #expect(lines[1]["event"] as? String == "update")
        #expect(lines[1]["count"] as? Int == 5)
        #expect(lines[1]["deletions"] as? [Int] == [3])
        #expect(lines[1]["insertions"] as? [Int] == [4])
        #expect(lines[1]["modifications"] as? [Int] == [1])
        #expect((lines[1]["inserted"] as? [[String: Int]])?.first?["key"] == 5)
    }

    /// Another process commits a version whose top node then fails its checksum: the watcher
    /// cannot move to it and says so — one `error:` line, status 1 — instead of printing nothing
    /// until SIGINT and exiting 0. The watcher is stopped (SIGSTOP) while the commit lands and
    /// is damaged, so it cannot read the version before the damage.
    @Test func aNewestVersionThatCannotBeReadEndsTheWatchWithAnError() throws {
        let (dir, file, exe) = try Self.emptyDogFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let watcher = Process()
        watcher.executableURL = exe
        watcher.arguments = ["watch", file, "Dog"]
        let out = Pipe()
        let err = Pipe()
        watcher.standardOutput = out
        watcher.standardError = err
        try watcher.run()
        defer {
            if watcher.isRunning {
                kill(watcher.processIdentifier, SIGCONT)
                watcher.terminate()
            }
        }
        let collected = UncheckedData.reading(out.fileHandleForReading)
        let errors = UncheckedData.reading(err.fileHandleForReading)
        try #require(
            collected.waitForLines(1) && collected.lineCount == 1,
            "watch printed no initial line; stderr: \(errors.text)")
        kill(watcher.processIdentifier, SIGSTOP)
        try #require(
            Self.waitUntilStopped(watcher.processIdentifier), "watch ended before it stopped; stderr: \(errors.text)")
        do {
            let writer = try Realm(path: file)
            try writer.write { _ = try writer.create("Dog", ["name": .string("rex"), "age": .int(3)]) }
        }
        try Self.damageNewestTop(file)
        kill(watcher.processIdentifier, SIGCONT)
        // The event is the watcher's exit (a watcher that went on would hang here, where CI's
        // job limit reports it, instead of failing by the clock).
        watcher.waitUntilExit()
        let stderr = errors.waitForEnd()
        #expect(watcher.terminationStatus == 1, "\(stderr)")
        #expect(stderr.hasPrefix("error: "), "\(stderr)")
        #expect(stderr.contains("checksum"), "\(stderr)")
        #expect(collected.lineCount == 1)
    }

    /// Waits until process `pid` is stopped (state T in /proc): true, or false when it ended
    /// instead (a zombie, or gone). No deadline: a loaded machine delivers SIGSTOP late.
    static func waitUntilStopped(_ pid: Int32) -> Bool {
        while true {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            // "pid (comm) S ...": the state follows the last ')'.
            guard let close = stat.lastIndex(of: ")") else { return false }
            let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
            if state == "T" { return true }
            if state == "Z" || state == "X" { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Flips a byte in the payload of the newest version's top node.
    static func damageNewestTop(_ path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let slots = try data.withUnsafeBytes { raw in
            try FileHeader.read(base: try #require(raw.baseAddress), fileSize: UInt64(raw.count), path: path)
        }
        let offset = try #require(slots.first?.slot).topRef + UInt64(Node.headerSize) + 1
        try handle.seek(toOffset: offset)
        let old = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: offset)
        handle.write(Data([old ^ 0x5A]))
    }

    /// A child's output collected on a background thread, which tests wait on: for a line, a
    /// text, or the end of the pipe (the child exited or closed it). No deadline: on a loaded
    /// machine the child answers late, and a child that dies ends its pipe, which ends the wait.
    final class UncheckedData: @unchecked Sendable {
        private var data = Data()
        private var ended = false
        private let changed = NSCondition()
        func append(_ d: Data) {
            changed.lock()
            data.append(d)
            changed.broadcast()
            changed.unlock()
        }
        func end() {
            changed.lock()
            ended = true
            changed.broadcast()
            changed.unlock()
        }
        func snapshot() -> Data {
            changed.lock()
            defer { changed.unlock() }
            return data
        }
        var text: String { String(decoding: snapshot(), as: UTF8.self) }
        var lineCount: Int { snapshot().reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }

        /// Everything `handle` yields, collected on a background queue until its end of file.
        static func reading(_ handle: FileHandle) -> UncheckedData {
            let collected = UncheckedData()
            DispatchQueue.global().async {
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    collected.append(chunk)
                }
                collected.end()
            }
            return collected
        }

        /// Waits until the output so far satisfies `condition` (true) or the pipe has ended
        /// without it (false).
        func waitUntil(_ condition: (Data) -> Bool) -> Bool {
            changed.lock()
            defer { changed.unlock() }
            while true {
                if condition(data) { return true }
                if ended { return false }
                changed.wait()
            }
        }

        /// Waits for at least `count` lines; false when the pipe ended with fewer.
        func waitForLines(_ count: Int) -> Bool {
            waitUntil { $0.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } >= count }
        }

        /// Waits for `text` to appear; false when the pipe ended without it.
        func waitFor(_ text: String) -> Bool {
            waitUntil { String(decoding: $0, as: UTF8.self).contains(text) }
        }

        /// Waits for the end of the pipe; everything the child wrote.
        func waitForEnd() -> String {
            _ = waitUntil { _ in false }
            return text
        }
    }

    static func realmtui() -> URL? {
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0])
        var dir = argv0.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("realmtui")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let fallback = root.appendingPathComponent(".build/debug/realmtui")
        return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
    }

    static func run(_ exe: URL, _ args: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
