import Testing
@testable import RealmEngine

/// The reader-table scan finds every claimed slot wherever it lies: in a group of four free
/// slots or not, last, and in tables whose size is not a multiple of four.
@Suite struct ReaderTableTests {
    @Test func oldestPinnedSeesEverySlot() {
        var rng = SystemRandomNumberGenerator()
        for count in [1, 3, 4, 5, 10, 512] {
            let stride = LockFile.Layout.slotSize
            let memory = UnsafeMutableRawPointer.allocate(byteCount: count * stride, alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: count * stride)
            let latest = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
            defer {
                memory.deallocate()
                latest.deallocate()
            }
            // fd < 0: every owner counts as alive, so no slot is reclaimed behind the test's back.
            let table = ReaderTable(slots: memory, count: count, latest: latest, pid: 4242, fd: -1)
            #expect(table.oldestPinned() == nil)
            for slot in [count - 1, 0, count / 2, Int.random(in: 0..<count, using: &rng)] {
                for s in 0..<count { table.release(s) }
                for s in 0..<count { table.ownerPointer(s).pointee = 0 }
                table.ownerPointer(slot).pointee = 77
                table.versionPointer(slot).pointee = 1000 + UInt64(slot)
                #expect(table.oldestPinned() == 1000 + UInt64(slot), "slot \(slot) of \(count)")
                // A claimed slot without a pin does not count; an older pin elsewhere wins.
                table.versionPointer(slot).pointee = ReaderTable.noVersion
                #expect(table.oldestPinned() == nil)
                let other = (slot + 1) % count
                table.ownerPointer(other).pointee = 78
                table.versionPointer(other).pointee = 5
                #expect(table.oldestPinned() == 5)
            }
        }
    }
}
