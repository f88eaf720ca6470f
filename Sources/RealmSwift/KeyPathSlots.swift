import Synchronization

/// Which `@Persisted` property of a class a Swift key path names, learnt once per key path.
///
/// Every read and write of a `@Persisted` property reaches the wrapper's static subscript with
/// the key path of its storage (`\Dog._age`), and nothing else says which property it is. Reading
/// the property's recorded slot *through* that key path costs a generic key-path projection per
/// access (the runtime looks up `Persisted<Value>`'s metadata and copies the whole wrapper):
/// most of what a typed read cost over a dynamic one. The compiler hands out one key-path object
/// per property of a non-generic class for the life of the process, so its identity names the
/// property: this table maps it to the slot after the first access.
///
/// Invariants:
/// - Entries are appended, never changed or removed; `published` counts the entries fully
///   written (stored with release, loaded with acquire), so readers scan without a lock.
/// - Each entry keeps its key path alive (retained): an address in the table can never be
///   reused by another key path. A generic class's key paths may be made anew per access; the
///   table then fills up to `capacity` and later accesses take the slow path (correct, slower).
final class KeyPathSlots: @unchecked Sendable {
    private struct Entry {
        let keyPath: UnsafeMutableRawPointer
        let slot: Int
    }
    private let capacity: Int
    private let entries: UnsafeMutablePointer<Entry>
    private let published = Atomic<Int>(0)
    private let appending = Mutex<Void>(())

    /// A table for a class with `fieldCount` `@Persisted` properties.
    init(fieldCount: Int) {
        capacity = 2 * fieldCount + 8
        entries = .allocate(capacity: capacity)
    }

    deinit {
        for i in 0..<published.load(ordering: .acquiring) {
            Unmanaged<AnyKeyPath>.fromOpaque(entries[i].keyPath).release()
        }
        entries.deallocate()
    }

    /// The slot recorded for `keyPath`, or nil when it was not seen yet.
    @inline(__always)
    func slot(of keyPath: AnyKeyPath) -> Int? {
        let id = Unmanaged.passUnretained(keyPath).toOpaque()
        let count = published.load(ordering: .acquiring)
        for i in 0..<count where entries[i].keyPath == id { return entries[i].slot }
        return nil
    }

    /// Records that `keyPath` names the property in `slot` (ignored when full or known).
    func record(_ keyPath: AnyKeyPath, slot: Int) {
        appending.withLock { _ in
            let id = Unmanaged.passUnretained(keyPath).toOpaque()
            let count = published.load(ordering: .relaxed)
            for i in 0..<count where entries[i].keyPath == id { return }
            guard count < capacity else { return }
            (entries + count).initialize(to: Entry(keyPath: Unmanaged.passRetained(keyPath).toOpaque(), slot: slot))
            published.store(count + 1, ordering: .releasing)
        }
    }
}
