import Foundation
import FuzzDriver
import FuzzTargets

// Reading Realm Core files (plain and encrypted): the dump of every value and the conversion.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
runLibFuzzer {
    let fixtures = repositoryRoot.appendingPathComponent("Tests/RealmCoreFormatTests/Fixtures")
    let originals = try CoreFileFuzzer.originalNames.map { try Data(contentsOf: fixtures.appendingPathComponent($0)) }
    let key = try CoreFileFuzzer.parseKey(String(contentsOf: fixtures.appendingPathComponent("generated-encrypted.key"), encoding: .utf8))
    return CoreFileFuzzer(originals: originals, key: key)
}
