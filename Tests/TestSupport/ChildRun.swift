import Foundation

/// What a finished child process said.
public struct ChildOutput: Sendable {
    /// Its exit status (or the signal that ended it, as `Process` reports it).
    public var status: Int32
    /// Everything it wrote to standard output.
    public var stdout: String
    /// Everything it wrote to standard error: print it with every failed expectation.
    public var stderr: String
}

/// Runs `executable` to completion and returns its output. Both pipes are drained at once, so a
/// child that fills one of them while the other is read never blocks.
public func runChild(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws
    -> ChildOutput
{
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    try process.run()
    let errorText = DrainedPipe(errPipe.fileHandleForReading)
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    let err = errorText.wait()
    process.waitUntilExit()
    return ChildOutput(
        status: process.terminationStatus,
        stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
}

/// A pipe read to its end on a thread of its own.
private final class DrainedPipe: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()  // written by the reading thread before `done` is signalled

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Executables of this package built next to the test bundle (`realm-torture`, `realmtui`, …).
public enum BuiltExecutable {
    /// Where `name` was built, or nil when it was not.
    public static func url(_ name: String) -> URL? {
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        var folder = argv0.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent(name))
            folder = folder.deletingLastPathComponent()
        }
        // #filePath = <root>/Tests/TestSupport/ChildRun.swift
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `name` to completion; returns (exit status, stdout, stderr).
    @discardableResult
    public static func run(_ name: String, _ arguments: [String]) throws -> (Int32, String, String) {
        guard let url = url(name) else { throw MissingExecutable(name: name) }
        let output = try runChild(url, arguments)
        return (output.status, output.stdout, output.stderr)
    }
}

/// A package executable the tests need was not built.
public struct MissingExecutable: Error, CustomStringConvertible {
    /// The executable's name.
    public var name: String
    public var description: String { "\(name) was not built next to the tests (swift build builds it)" }
}
