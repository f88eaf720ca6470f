import Foundation
import FuzzDriver
import FuzzTargets

// Opening and reading a file, and the integrity check; mutations of the originals that check accepts must read the same.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
runLibFuzzer {
    let folder = repositoryRoot.appendingPathComponent("Tests/RealmEngineTests/Fixtures/Fuzz/originals")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".realm") }.sorted()
    return try FileFuzzer(originals: try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) })
}
