import CShims
import Foundation
@testable import RealmEngine
@testable import RealmTUI
import Testing

/// The status line's count of other processes comes from the state: counted when the explorer
/// opens and then at most once a second of its tick clock, not on every frame (counting reads
/// every reader slot of the lock file and asks the kernel about each process found).
@Suite struct OtherProcessesTests {
    @Test func theCountFollowsTheReaderSlotsOnceASecond() throws {
        let f = try ExplorerLiveTests.Fixture(count: 3, height: 14)
        let lock = f.driver.state.realm.shared.lock
        #expect(f.driver.statusText.contains("other process") == false, "\(f.lines)")
        // Process 1 (always alive) takes a free reader slot, as another process opening the file would.
        let free = try #require((0..<lock.slotCount).first { rt_atomic_load64(lock.readers.ownerPointer($0)) == 0 })
        rt_atomic_store64(lock.readers.ownerPointer(free), 1)
        defer { rt_atomic_store64(lock.readers.ownerPointer(free), 0) }

        f.driver.send(.tick(seconds: 10))
        #expect(f.driver.statusText.contains("1 other process") == true, "\(f.lines)")
        rt_atomic_store64(lock.readers.ownerPointer(free), 0)
        f.driver.send(.tick(seconds: 10.5))
        #expect(f.driver.statusText.contains("1 other process") == true, "counted again within the second: \(f.lines)")
        f.driver.send(.tick(seconds: 11))
        #expect(f.driver.statusText.contains("other process") == false, "\(f.lines)")
    }
}
