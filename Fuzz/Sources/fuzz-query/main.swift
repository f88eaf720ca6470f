import CFuzzerDriver
import Foundation
import FuzzTargets
import RealmEngine

// The query parser, binder and evaluator on a fixed small schema.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
nonisolated(unsafe) var target: QueryFuzzer?

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target, let bytes else { return 0 }
    let data = Data(bytes: bytes, count: size)
    target.run(data)
    return 0
}

/// The repository's root (this file is Fuzz/Sources/NAME/main.swift).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
_ = root
do {
    target = try QueryFuzzer()
} catch {
    FileHandle.standardError.write(Data("cannot set up the fuzz target: \(error)\n".utf8))
    exit(2)
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    LLVMFuzzerTestOneInput(data, size)
})
