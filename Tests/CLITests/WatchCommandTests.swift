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
        watcher.standardOutput = out
        try watcher.run()
        // Read the watcher's output as it comes, and wait for each line before the next commit
        // (no fixed sleeps: CI machines can be slow, and commits that land together may be
        // coalesced into one update).
        let collected = UncheckedData.reading(out.fileHandleForReading)
        #expect(collected.waitForLines(1), "watch printed no initial line")
        let dogs = dir.appendingPathComponent("d.json")
        try Data(#"{"Dog": [{"name": "a", "age": 3}, {"name": "b", "age": 1}]}"#.utf8).write(to: dogs)
        #expect(try WatchCommandTests.run(exe, ["import", file, dogs.path]) == 0)
        #expect(collected.waitForLines(2), "watch printed no update")
        try Data(#"{"Dog": [{"name": "c", "age": 5}]}"#.utf8).write(to: dogs)
        #expect(try WatchCommandTests.run(exe, ["import", file, dogs.path]) == 0)
        let deadline = Date().addingTimeInterval(20)
        while watcher.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if watcher.isRunning { watcher.terminate() }
        _ = collected.waitForLines(3)
        let lines = String(decoding: collected.snapshot(), as: UTF8.self)
            .split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 3, "\(lines)")
        guard lines.count == 3 else { return }
        #expect(lines[0]["event"] as? String == "initial")
        #expect(lines[0]["count"] as? Int == 0)
        #expect(lines[1]["event"] as? String == "update")
        #expect(lines[1]["count"] as? Int == 1)
        #expect(lines[1]["insertions"] as? [Int] == [0])
        #expect(lines[2]["count"] as? Int == 2)
        #expect(lines[2]["insertions"] as? [Int] == [0])
        #expect(watcher.terminationStatus == 0)
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
        let out = Pipe(), err = Pipe()
        watcher.standardOutput = out
        watcher.standardError = err
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        let collected = UncheckedData.reading(out.fileHandleForReading)
        try #require(collected.waitForLines(1), "watch printed no initial line")
        // As a Realm app writes: the file's bytes change in place.
        try Data(contentsOf: RealmCoreFileTests.fixture("watch-after.realm")).write(to: URL(fileURLWithPath: file))
        #expect(collected.waitForLines(2), "watch printed no update")
        watcher.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(watcher.terminationStatus == 0, "\(stderr)")
        let lines = String(decoding: collected.snapshot(), as: UTF8.self)
            .split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
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
        let out = Pipe(), err = Pipe()
        watcher.standardOutput = out
        watcher.standardError = err
        try watcher.run()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGCONT); watcher.terminate() } }
        let collected = UncheckedData.reading(out.fileHandleForReading)
        try #require(collected.waitForLines(1) && collected.lineCount == 1, "watch printed no initial line")
        kill(watcher.processIdentifier, SIGSTOP)
        try #require(Self.waitUntilStopped(watcher.processIdentifier))
        do {
            let writer = try Realm(path: file)
            try writer.write { _ = try writer.create("Dog", ["name": .string("rex"), "age": .int(3)]) }
        }
        try Self.damageNewestTop(file)
        kill(watcher.processIdentifier, SIGCONT)
        let deadline = Date().addingTimeInterval(20)
        while watcher.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!watcher.isRunning, "watch went on after the newest version could not be read")
        if watcher.isRunning { watcher.terminate() }
        watcher.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(watcher.terminationStatus == 1)
        #expect(stderr.hasPrefix("error: "), "\(stderr)")
        #expect(stderr.contains("checksum"), "\(stderr)")
        #expect(collected.lineCount == 1)
    }

    /// Whether process `pid` is stopped (state T in /proc), within a few seconds.
    static func waitUntilStopped(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // "pid (comm) S ...": the state follows the last ')'.
            if let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T") {
                return true
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
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

    /// Output collected on a background thread.
    final class UncheckedData: @unchecked Sendable {
        private var data = Data()
        private let lock = NSLock()
        func append(_ d: Data) { lock.lock(); data.append(d); lock.unlock() }
        func snapshot() -> Data { lock.lock(); defer { lock.unlock() }; return data }
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
            }
            return collected
        }

        /// Waits up to 30 s (no fixed sleeps: CI machines can be slow) for at least `count`
        /// lines; whether they came.
        func waitForLines(_ count: Int) -> Bool {
            let end = Date().addingTimeInterval(30)
            while Date() < end {
                if lineCount >= count { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
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
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
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
