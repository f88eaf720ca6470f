import CFuzzerDriver
import Foundation
import FuzzTargets
import RealmEngine

// The explorer's key, mouse and resize handling on a small in-memory Realm, rendering after each event.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
nonisolated(unsafe) var target: ExplorerFuzzer?

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

target = ExplorerFuzzer()

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    LLVMFuzzerTestOneInput(data, size)
})
