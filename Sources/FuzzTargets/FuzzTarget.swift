import Foundation

/// One fuzz target: runs an input, throwing a `FuzzFinding` (or any error) for what must never
/// happen. The libFuzzer drivers in `Fuzz/` and the replay tests call targets through this.
public protocol FuzzTarget: AnyObject {
    /// Runs one input.
    func run(_ data: Data) throws
}

extension FileFuzzer: FuzzTarget {}
extension QueryFuzzer: FuzzTarget {}
extension ImportFuzzer: FuzzTarget {}
extension ExplorerFuzzer: FuzzTarget {}
extension CoreFileFuzzer: FuzzTarget {}
