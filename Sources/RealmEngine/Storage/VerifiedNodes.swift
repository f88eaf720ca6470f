import CShims
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which nodes of a version have had their checksum verified: one bit per 8-byte-aligned ref
/// below `capacity`, so every node is hashed the first time a snapshot reads it and never again
/// (a committed version's nodes do not change while it is pinned). Bad bytes are then never
/// served — not to a query, an export, or a copy that would launder them into a new file with
/// fresh checksums. One record serves every snapshot of a version in the process, and the
/// versions of a run of small commits (`SharedFile.verifiedNodes(for:)`, `forget`).
///
/// The bits live in zeroed memory from `calloc` (the kernel hands large blocks out as untouched
/// zero pages, so a record of a big file costs only the pages of nodes read: one bit per 8
/// bytes). Threads share it with relaxed atomics: a lost race only hashes a node twice.
///
/// Refs at or past `capacity` count as verified: a snapshot's bounds check refuses them first,
/// and for a write transaction that made its own record (sized to its base version) they are
/// nodes it wrote itself. A write transaction marks every node it writes (`TreeWriter.enqueue`).
final class VerifiedNodes: @unchecked Sendable {
    private let words: UnsafeMutablePointer<UInt64>?
    private let wordCount: Int

    init(size: UInt64) {
        wordCount = Int((size / UInt64(Node.alignment) + 63) / 64)
        words =
            wordCount == 0 ? nil : calloc(wordCount, MemoryLayout<UInt64>.size)?.assumingMemoryBound(to: UInt64.self)
    }

    /// The bytes of file the bits cover (at least the `size` it was made for).
    var capacity: UInt64 { UInt64(wordCount) * 64 * UInt64(Node.alignment) }

    /// A record covering `size` bytes that starts from `previous`'s bits (for a newer version
    /// of the same file that outgrew `previous.capacity`; see `forget`).
    convenience init(size: UInt64, inheriting previous: VerifiedNodes) {
        self.init(size: size)
        guard let words, let old = previous.words else { return }
        rt_relaxed_copy64(words, old, UInt(min(wordCount, previous.wordCount)))
    }

    /// Forgets the nodes at `refs`, which a commit has rewritten, so the record can serve the
    /// commit's version too: every other node that version reaches has the bytes the previous
    /// one verified (a commit never overwrites what the versions before it reach), and no
    /// version still read reaches `refs` (a commit writes only where no pinned version reaches),
    /// so forgetting them costs those versions nothing.
    func forget(_ refs: [UInt64]) {
        guard let words else { return }
        for ref in refs {
            let bit = ref / UInt64(Node.alignment)
            let word = Int(bit >> 6)
            if word < wordCount { rt_relaxed_and64(words + word, ~(1 << (bit & 63))) }
        }
    }

    deinit { free(words) }

    /// Whether the node at `ref` needs no (more) hashing.
    @inline(__always)
    func contains(_ ref: UInt64) -> Bool {
        let bit = ref / UInt64(Node.alignment)
        let word = Int(bit >> 6)
        guard word < wordCount else { return true }
        // Without memory for the bits, every read is verified.
        guard let words else { return false }
        return rt_relaxed_load64(words + word) & (1 << (bit & 63)) != 0
    }

    /// Records that the node at `ref` was verified (or written by the reader itself).
    @inline(__always)
    func insert(_ ref: UInt64) {
        let bit = ref / UInt64(Node.alignment)
        let word = Int(bit >> 6)
        guard word < wordCount, let words else { return }
        rt_relaxed_or64(words + word, 1 << (bit & 63))
    }
}
