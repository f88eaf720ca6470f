import FuzzDriver
import FuzzTargets

// The explorer's key, mouse and resize handling on a small in-memory Realm, rendering after each event.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
runLibFuzzer { ExplorerFuzzer() }
