import FuzzDriver
import FuzzTargets
import RealmEngine

// JSON import (what `realmtui import` runs) into an in-memory Realm of Resources/demo.realm's schema.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
runLibFuzzer {
    var configuration = Realm.Configuration(fileURL: repositoryRoot.appendingPathComponent("Resources/demo.realm"), readOnly: true)
    configuration.createIfMissing = false
    return ImportFuzzer(schema: try Realm(configuration: configuration).schema)
}
