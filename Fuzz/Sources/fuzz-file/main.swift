import CFuzzerDriver
import Foundation
import FuzzTargets
import RealmEngine

// Opening and reading a file, and the integrity check; mutations of the originals that check accepts must read the same.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
nonisolated(unsafe) var target: FileFuzzer?

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target, let bytes else { return 0 }
    let data = Data(bytes: bytes, count: size)
    do {
        try target.run(data)
    } catch {
        FileHandle.standardError.write(Data("FINDING: \(error)\n".utf8))
        abort()
    }
    return 0
}

/// The repository's root (this file is Fuzz/Sources/NAME/main.swift).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
_ = root
do {
    let folder = root.appendingPathComponent("Tests/RealmEngineTests/Fixtures/Fuzz/originals")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".realm") }.sorted()
    target = try FileFuzzer(originals: try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) })
} catch {
    FileHandle.standardError.write(Data("cannot set up the fuzz target: \(error)\n".utf8))
    exit(2)
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    LLVMFuzzerTestOneInput(data, size)
})
