import Foundation
@testable import RealmEngine
import Testing

/// A file that grows past the address space reserved for it between the open's mapping and its
/// size check is refused — and its mapping and descriptor are released exactly once.
@Suite struct OutgrownReservationTests {
    @Test func aFileOutgrowingItsReservationDuringOpenIsUnmappedOnce() throws {
        let dir = TempDir()
        let path = dir.path("grows.realm")
        do { _ = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Fixtures.people)) }
        // The open's size check is the second fstat of the data file (the first sizes the mapping).
        // Before it, the file grows (sparse) to 2 TiB: past the largest reservation, 1 TiB.
        let plan = FaultPlan(folder: dir.url.path, calls: [.fstat, .munmap], failure: .error(EIO), nth: .max)
        plan.beforeCall = { kind, callPath, seen in
            guard kind == .fstat, callPath == path, seen == 2 else { return }
            _ = truncate(path, 1 << 41)
        }
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        #expect(throws: RealmError.self) { _ = try DatabaseFile(path: path, readOnly: true, create: false) }
        FaultPlan.remove(plan)
        #expect(plan.seen[.munmap] == 1, "the reservation was unmapped \(plan.seen[.munmap] ?? 0) times")
    }
}
