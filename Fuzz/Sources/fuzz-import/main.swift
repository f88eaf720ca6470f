import CFuzzerDriver
import Foundation
import FuzzTargets
import RealmEngine

// JSON import (what `realmtui import` runs) into an in-memory Realm of Resources/demo.realm's schema.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
nonisolated(unsafe) var target: ImportFuzzer?

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
    var configuration = Realm.Configuration(fileURL: root.appendingPathComponent("Resources/demo.realm"), readOnly: true)
    configuration.createIfMissing = false
    target = ImportFuzzer(schema: try Realm(configuration: configuration).schema)
} catch {
    FileHandle.standardError.write(Data("cannot set up the fuzz target: \(error)\n".utf8))
    exit(2)
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    LLVMFuzzerTestOneInput(data, size)
})
