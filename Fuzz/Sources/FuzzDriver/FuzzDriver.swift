import CFuzzerDriver
import Foundation
import FuzzTargets

// What every fuzzer executable shares: libFuzzer's entry point, running the target, reporting a
// finding, and starting libFuzzer (SwiftPM supplies `main`, so libFuzzer is started by hand).

nonisolated(unsafe) private var target: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target, let bytes else { return 0 }
    do {
        try target.run(Data(bytes: bytes, count: size))
    } catch {
        FileHandle.standardError.write(Data("FINDING: \(error)\n".utf8))
        abort()
    }
    return 0
}

/// The repository's root (the fuzzers run from the `Fuzz` folder's build).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// Makes the target, then runs libFuzzer with the process's arguments (options, corpus folders).
public func runLibFuzzer(_ makeTarget: () throws -> FuzzTarget) -> Never {
    do {
        target = try makeTarget()
    } catch {
        FileHandle.standardError.write(Data("cannot set up the fuzz target: \(error)\n".utf8))
        exit(2)
    }
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        LLVMFuzzerTestOneInput(data, size)
    })
}
