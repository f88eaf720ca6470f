import Foundation

extension Realm {
    /// The newest version committed to the file by any process (this instance may read an older
    /// one until it refreshes). For an in-memory Realm, the version this instance reads.
    public var latestVersion: UInt64 {
        foreign == nil ? max(shared.lock.latestVersion, version) : version
    }

    /// The process ids, other than this process, that have the file open (from the lock file's
    /// reader table; a process that died is not counted once its slot is reclaimed).
    public var otherProcessIDs: [Int32] {
        let me = getpid()
        let pids = Set(shared.lock.occupiedReaderSlots().map(\.pid)).filter { $0 != me && $0 > 0 }
        return pids.filter { kill($0, 0) == 0 || errno == EPERM }.sorted()
    }
}
