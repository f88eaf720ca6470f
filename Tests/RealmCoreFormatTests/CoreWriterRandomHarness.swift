import Foundation
import RealmCoreFormat
import RealmEngine
import Testing
import TestSupport

/// Runs the property-based writer harnesses (`CoreWriterRandomTests`,
/// `CoreWriterRandomCollectionsTests`) a few hundred files per CI run in reasonable time: a
/// bounded number of seeds at once, and Realm Core's three checks of a file (verify, dump,
/// write-test) as concurrent child processes awaited without blocking a thread. Each seed
/// builds its own tables from its own generator, so a failure replays alone.
enum CoreWriterRandomHarness {
    /// How many seeds are in flight at once (`REALMTUI_CORE_WRITER_WIDTH`, default 4): enough to
    /// keep both cores busy while others wait for Realm Core's processes.
    static var width: Int {
        ProcessInfo.processInfo.environment["REALMTUI_CORE_WRITER_WIDTH"].flatMap { Int($0) }.map { max(1, $0) } ?? 4
    }

    /// The seeds to run: only `REALMTUI_CORE_WRITER_SEED` when it is set (a failure's replay),
    /// else `0..<count`.
    static func seeds(count: Int) -> [UInt64] {
        if let text = ProcessInfo.processInfo.environment["REALMTUI_CORE_WRITER_SEED"], let seed = UInt64(text) {
            return [seed]
        }
        return (0..<UInt64(max(0, count))).map { $0 }
    }

    /// How a failure names its seed and replays it.
    static func context(seed: UInt64, suite: String) -> String {
        "seed \(seed) (replay: REALMTUI_CORE_WRITER_SEED=\(seed) swift test --filter \(suite))"
    }

    /// Runs `body` for every seed, at most `width` at once; a seed's thrown error is recorded
    /// as an issue naming it, and the other seeds still run.
    static func forEachSeed(
        _ seeds: [UInt64], suite: String, _ body: @escaping @Sendable (UInt64) async throws -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            var next = seeds.makeIterator()
            func start() {
                guard let seed = next.next() else { return }
                group.addTask {
                    do { try await body(seed) } catch {
                        Issue.record("\(context(seed: seed, suite: suite)): \(error)")
                    }
                }
            }
            for _ in 0..<Self.width { start() }
            while await group.next() != nil { start() }
        }
    }

    /// `CoreWriterTests.roundTrip`'s checks, with Realm Core's verify, dump and write-test of
    /// the file run at once. The count query is left out: Realm Core's dump, which must equal
    /// this reader's, holds every table's object count, and this reader's counts are checked
    /// against what was written.
    static func roundTrip(
        _ tables: [RealmCoreWriterTable], schemaVersion: UInt64?, _ dir: TempDir, name: String, context: String
    ) async throws {
        let path = dir.path(name)
        let file = try CoreWriterTests.writeAndReadBack(
            tables, schemaVersion: schemaVersion, path: path, context: context)
        let ourDump = try CoreJSONCompare.parse(Data(RealmCoreDumper(file: file, fileName: name).dump().utf8))
        let tool = try CoreFixtures.requireTool()
        async let verify = CoreProcess.output(tool, ["verify", path])
        async let dump = CoreProcess.output(tool, ["dump", path])
        async let writeTest = CoreProcess.output(tool, ["write-test", path])
        let (verified, dumped, written) = try await (verify, dump, writeTest)
        let comment: Comment = "\(context)"
        #expect(
            String(decoding: verified.stdout, as: UTF8.self).contains("\"result\": \"ok\""),
            "\(comment) verify: \(verified.stderr)")
        let diffs = CoreJSONCompare.differences(try CoreJSONCompare.parse(dumped.stdout), ourDump, limit: 20)
        #expect(
            diffs.isEmpty, "\(comment) Realm Core's dump of the written file differs:\n\(diffs.joined(separator: "\n"))"
        )
        #expect(
            String(decoding: written.stdout, as: UTF8.self).contains("\"result\": \"ok\""),
            "\(comment) write-test: \(written.stderr)")
    }
}

extension CoreProcess {
    /// Runs `tool` to completion like `run`, awaiting its exit without blocking a thread
    /// (stdout and stderr go to temporary files, read after it exits).
    static func output(_ tool: URL, _ arguments: [String]) async throws -> Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("core-tool-\(UUID().uuidString)")
        let outURL = base.appendingPathExtension("out")
        let errURL = base.appendingPathExtension("err")
        for url in [outURL, errURL] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw Failure(description: "cannot create \(url.path)")
        }
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        defer { try? outHandle.close() }
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? errHandle.close() }
        let p = Process()
        p.executableURL = tool
        p.arguments = arguments
        p.standardOutput = outHandle
        p.standardError = errHandle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            p.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try p.run() } catch {
                p.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let result = Result(
            status: status, stdout: try Data(contentsOf: outURL),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
        guard status == 0 else {
            throw Failure(
                description:
                    "\(tool.lastPathComponent) \(arguments.joined(separator: " ")) exited \(status): \(result.stderr)")
        }
        return result
    }
}
