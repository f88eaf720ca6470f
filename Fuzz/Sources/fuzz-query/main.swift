import FuzzDriver
import FuzzTargets

// The query parser, binder and evaluator on a fixed small schema.
// Run from the Fuzz folder (see README.md); libFuzzer's options and corpus folders are the arguments.
runLibFuzzer { try QueryFuzzer() }
