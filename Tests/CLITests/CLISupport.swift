import Foundation
// The shared helpers (TempDir, SeededGenerator, child processes, tags, TestSize) for every file of this target.
@_exported import TestSupport
import Testing
@testable import RealmEngine

/// Runs the built `realmtui` executable as a child process.
///
/// The executable sits next to the test bundle in SwiftPM's bin folder (`swift build
/// --show-bin-path`); CLITests depends on the `realmtui` target so it is built first.
enum CLI {
    /// The `realmtui` executable.
    static let executable: URL = {
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for dir in candidates {
            let url = dir.appendingPathComponent("realmtui")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: "realmtui")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The stderr lines.
        var errorLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// Runs `realmtui args…` with `stdin` as standard input, in `directory` (or, with
    /// `executable`, that program with `arguments`). With `stdinPath` standard input is that
    /// file (or directory) opened for reading; with `stdoutPath` standard output is that file
    /// opened for writing (`/dev/full`), and `Result.stdout` is empty.
    @discardableResult
    static func run(
        _ args: [String], stdin: String? = nil, directory: URL? = nil,
        environment: [String: String] = [:], executable other: String? = nil,
        arguments otherArguments: [String]? = nil,
        stdinPath: String? = nil, stdoutPath: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = other.map(URL.init(fileURLWithPath:)) ?? executable
        process.arguments = otherArguments ?? args
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "C.UTF-8"
        env.removeValue(forKey: "COLUMNS")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        let outFile = try stdoutPath.map { path in
            try #require(FileHandle(forWritingAtPath: path), "cannot open \(path) for writing")
        }
        let inFile = try stdinPath.map { path in
            try #require(FileHandle(forReadingAtPath: path), "cannot open \(path) for reading")
        }
        defer {
            try? outFile?.close()
            try? inFile?.close()
        }
        process.standardOutput = outFile ?? outPipe
        process.standardError = errPipe
        process.standardInput = inFile ?? inPipe
        try process.run()
        if outFile != nil { try outPipe.fileHandleForWriting.close() }
        // Read both pipes on other threads so a large output never blocks the child.
        let outData = ReadBox()
        let errData = ReadBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData.set(outPipe.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: group) { errData.set(errPipe.fileHandleForReading.readDataToEndOfFile()) }
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    final class ReadBox: @unchecked Sendable {
        private var data = Data()
        private let lock = NSLock()
        func set(_ d: Data) {
            lock.lock()
            data = d
            lock.unlock()
        }
        func get() -> Data {
            lock.lock()
            defer { lock.unlock() }
            return data
        }
    }
}

/// A temporary folder for one test, removed when the test ends.
final class Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to a file and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }

    /// Creates the database `name` with the realm-js schema at `schema` (`realmtui create`)
    /// and returns its path.
    func createRealm(_ name: String, schema: String) throws -> String {
        let file = path(name)
        let r = try CLI.run(["create", file, "--schema", schema])
        try #require(r.status == 0, "\(r.stderr)")
        return file
    }

    func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: path(name)) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    static let schemaJSON = """
        [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "age": "int?", "dogs": "Dog[]"}},
         {"name": "Dog", "properties": {"name": {"type": "string", "indexed": true}, "age": "int?", "born": "date?",
            "tags": "string[]", "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}}]
        """

    static let dataJSON = """
        {"Person": [{"id": 1, "name": "张三", "age": 30, "dogs": [{"name": "大黄", "age": 1, "born": "2020-01-02T03:04:05.250Z", "tags": ["a", "b"]}]},
                    [2, "李四", null, [["小白", 3, null, []]]]]}
        """

    /// Creates `name` with the test schema and imports the test data.
    @discardableResult
    func database(_ name: String = "db.realm") throws -> String {
        let schema = try write("schema.json", Scratch.schemaJSON)
        let file = path(name)
        let created = try CLI.run(["create", file, "--schema", schema])
        try #require(created.status == 0, "\(created.stderr)")
        let imported = try CLI.run(["import", file, "-"], stdin: Scratch.dataJSON)
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }
}

/// Checks the failure contract: exit 1 (or `status`), exactly one stderr line starting
/// `error: `, nothing on stdout, and (when given) the file byte-for-byte as before.
func expectFailure(
    _ result: CLI.Result, status: Int32 = 1, contains: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "status \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.errorLines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    if let contains {
        #expect(result.stderr.contains(contains), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }
}

/// Runs `body` and checks that the file at `path` (and whether it exists) did not change.
func expectUnchanged(_ path: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void)
    rethrows
{
    let before = FileManager.default.contents(atPath: path)
    try body()
    let after = FileManager.default.contents(atPath: path)
    #expect(before == after, "\(path) changed", sourceLocation: sourceLocation)
}

/// Parses JSON output.
func parseJSON(_ text: String) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// Rewrites both header slots of a database with the given format versions (checksums
/// recomputed; nil keeps the slot's read format), to make a file from a "newer" program.
func setFormat(of path: String, read: UInt16?, write: UInt16) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let layout = bytes.withUnsafeBytes { raw in raw.baseAddress.flatMap { FileHeader.Layout.of(base: $0) } } ?? .single
    for offset in layout.slotOffsets where offset + FileHeader.slotSize <= bytes.count {
        let slot = bytes.withUnsafeBytes {
            FileHeader.Slot.decode(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + FileHeader.slotSize]))
        }
        guard var slot else { continue }
        slot.readFormat = read ?? slot.readFormat
        slot.writeFormat = write
        bytes.replaceSubrange(offset..<offset + FileHeader.slotSize, with: slot.encoded())
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}
