import CShims
import Foundation
import Testing
@testable import RealmEngine

/// A fresh lock-file path in a directory of its own.
func lockTestPath(_ name: String = #function) throws -> String {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("realmtui-lock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("test.realm.lock").path
}

/// A value shared with a background thread.
final class LockTestBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    /// Changes the value under the lock (`value.append(x)` would read and write it separately,
    /// losing a racing thread's change).
    func update(_ body: (inout T) -> Void) {
        lock.withLock { body(&stored) }
    }
}

/// Runs `body` on a new thread; the returned semaphore is signalled when it returns.
func lockTestThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done
}

@Suite(.tags(.multiProcess)) struct LockFileWriterTests {
    @Test func secondInstanceIsExcludedAndBlocksUntilUnlock() throws {
        let path = try lockTestPath()
        let first = try LockFile(path: path)
        let second = try LockFile(path: path)
        #expect(try first.tryLockWriter())
        #expect(try second.tryLockWriter() == false)

        let acquired = LockTestBox(false)
        let done = lockTestThread {
            do {
                try second.lockWriter()
                acquired.value = true
                second.unlockWriter()
            } catch {
                Issue.record("lockWriter threw \(error)")
            }
        }
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        #expect(acquired.value == false)
        first.unlockWriter()
        done.wait()
        #expect(acquired.value)
        #expect(try first.tryLockWriter())
        first.unlockWriter()
    }

    @Test func threadsOfOneInstanceExcludeEachOther() throws {
        let lock = try LockFile(path: try lockTestPath())
        try lock.lockWriter()
        #expect(try lock.tryLockWriter() == false)
        let acquired = LockTestBox(false)
        let done = lockTestThread {
            do {
                try lock.lockWriter()
                acquired.value = true
                lock.unlockWriter()
            } catch {
                Issue.record("lockWriter threw \(error)")
            }
        }
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        #expect(acquired.value == false)
        lock.unlockWriter()
        done.wait()
        #expect(acquired.value)
    }

    /// Four threads on two instances count how many are inside the write lock at once. The
    /// counters are atomics only so that ThreadSanitizer, which cannot see the kernel's OFD lock
    /// as synchronization between instances, stays quiet; exclusion is what is checked.
    @Test func writerLockSerializesThreadsAndInstances() throws {
        let path = try lockTestPath()
        let locks = [try LockFile(path: path), try LockFile(path: path)]
        final class Counters: @unchecked Sendable {
            let words = UnsafeMutablePointer<UInt32>.allocate(capacity: 3)  // inside, total, overlaps
            init() { words.initialize(repeating: 0, count: 3) }
            deinit { words.deallocate() }
        }
        let counters = Counters()
        let threads = (0..<4).map { index in
            lockTestThread {
                let lock = locks[index % 2]
                for _ in 0..<200 {
                    do { try lock.lockWriter() } catch {
                        Issue.record("\(error)")
                        return
                    }
                    if rt_atomic_add32(counters.words, 1) != 1 { _ = rt_atomic_add32(counters.words + 2, 1) }
                    _ = rt_atomic_add32(counters.words + 1, 1)
                    sched_yield()  // widen the window an overlap would need
                    _ = rt_atomic_add32(counters.words, UInt32.max)  // - 1
                    lock.unlockWriter()
                }
            }
        }
        for thread in threads { thread.wait() }
        #expect(rt_atomic_load32(counters.words + 1) == 800)
        #expect(rt_atomic_load32(counters.words + 2) == 0)
    }

    /// A real second process (python3) takes the writer byte and a reader slot, then is killed
    /// with SIGKILL: the kernel drops its lock and the next scan reclaims its slot.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
            "needs /usr/bin/python3 for the second process"))
    func killedProcessReleasesWriterLockAndSlot() throws {
        let path = try lockTestPath()
        let lock = try LockFile(path: path)
        lock.publish(version: 3)
        let script = """
            import fcntl, mmap, os, struct, sys
            F_OFD_SETLK = 37
            def ofd(fd, kind, start):
                fcntl.fcntl(fd, F_OFD_SETLK, struct.pack("hhqqi4x", kind, 0, start, 1, 0))
            fd = os.open(sys.argv[1], os.O_RDWR)
            ofd(fd, fcntl.F_RDLCK, 1)
            ofd(fd, fcntl.F_RDLCK, (1 << 32) + os.getpid())
            ofd(fd, fcntl.F_WRLCK, 2)
            m = mmap.mmap(fd, 0)
            struct.pack_into("=QQ", m, 64 + 5 * 64, os.getpid(), 3)
            print("ready", flush=True)
            sys.stdin.read()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = output.fileHandleForReading.availableData
        try #require(String(decoding: line, as: UTF8.self).contains("ready"))

        #expect(try lock.tryLockWriter() == false)
        #expect(lock.oldestPinnedVersion() == 3)
        #expect(try lock.tryExclusiveOpen() == false)

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try lock.tryLockWriter())
        lock.unlockWriter()
        #expect(lock.oldestPinnedVersion() == nil)
        #expect(lock.occupiedReaderSlots().isEmpty)
        #expect(try lock.tryExclusiveOpen())
    }
}

@Suite(.tags(.multiProcess)) struct LockFileReaderTests {
    @Test func pinsAreVisibleAcrossInstancesAndUnpinRemovesThem() throws {
        let path = try lockTestPath()
        let writer = try LockFile(path: path)
        let reader = try LockFile(path: path)
        #expect(writer.oldestPinnedVersion() == nil)
        writer.publish(version: 5)
        #expect(reader.latestVersion == 5)
        let old = try reader.pinLatest()
        #expect(old.version == 5)
        writer.publish(version: 7)
        let new = try reader.pinLatest()
        #expect(new.version == 7)
        #expect(old.slot != new.slot)
        #expect(writer.oldestPinnedVersion() == 5)
        reader.unpin(slot: old.slot)
        #expect(writer.oldestPinnedVersion() == 7)
        writer.publish(version: 9)
        #expect(reader.repin(slot: new.slot) == 9)
        #expect(writer.oldestPinnedVersion() == 9)
        reader.unpin(slot: new.slot)
        #expect(writer.oldestPinnedVersion() == nil)
    }

    @Test func closingAnInstanceReleasesItsSlots() throws {
        let path = try lockTestPath()
        let writer = try LockFile(path: path)
        writer.publish(version: 4)
        var reader: LockFile? = try LockFile(path: path)
        _ = try reader?.pinLatest()
        #expect(writer.oldestPinnedVersion() == 4)
        reader = nil
        #expect(writer.oldestPinnedVersion() == nil)
    }

    @Test func slotOfDeadProcessIsReclaimed() throws {
        let lock = try LockFile(path: try lockTestPath())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let deadPid = UInt64(process.processIdentifier)

        lock.publish(version: 10)
        let live = try lock.pinLatest()
        // Two slots other than the live one (where a claim starts depends on the pid).
        let others = (0..<lock.slotCount).filter { $0 != live.slot }.prefix(2)
        let dead = others[others.startIndex]
        let recycled = others[others.startIndex + 1]
        rt_atomic_store64(lock.readers.versionPointer(dead), 2)
        rt_atomic_store64(lock.readers.ownerPointer(dead), deadPid)
        // pid 1 exists but never opened this lock file: a recycled pid does not keep a slot alive.
        rt_atomic_store64(lock.readers.versionPointer(recycled), 1)
        rt_atomic_store64(lock.readers.ownerPointer(recycled), 1)
        #expect(lock.occupiedReaderSlots().count == 3)
        #expect(Set(lock.occupiedReaderSlots().map(\.pid)) == [getpid(), Int32(deadPid), 1])
        #expect(lock.oldestPinnedVersion() == 10)
        #expect(lock.occupiedReaderSlots().map(\.slot) == [live.slot])
        #expect(Set(lock.occupiedReaderSlots().map(\.pid)) == [getpid()])
        lock.unpin(slot: live.slot)
    }

    @Test func fullTableThrowsBusyAfterReclaiming() throws {
        let path = try lockTestPath()
        let lock = try LockFile(path: path)
        lock.publish(version: 1)
        var slots: [Int] = []
        for _ in 0..<lock.slotCount { slots.append(try lock.pinLatest().slot) }
        #expect(Set(slots).count == lock.slotCount)
        let error = #expect(throws: RealmError.self) { try lock.pinLatest() }
        #expect(error?.code == "busy")

        // A slot whose owner died is reclaimed by the next pin instead of failing.
        let victim = slots.removeLast()
        lock.unpin(slot: victim)
        rt_atomic_store64(lock.readers.ownerPointer(victim), UInt64(Int32.max))
        let pinned = try lock.pinLatest()
        #expect(pinned.slot == victim)
        for slot in slots + [pinned.slot] { lock.unpin(slot: slot) }
        #expect(lock.oldestPinnedVersion() == nil)
    }

    /// Readers pin while a writer publishes: every pin returned is a version that was the latest
    /// at some point during the call, and the oldest seen by the writer is never above a pin
    /// that a reader holds.
    @Test func pinsRaceWithPublishes() throws {
        let path = try lockTestPath()
        let writer = try LockFile(path: path)
        let reader = try LockFile(path: path)
        writer.publish(version: 1)
        let stop = LockTestBox(false)
        let violations = LockTestBox(0)
        let readers = (0..<2).map { _ in
            lockTestThread {
                while !stop.value {
                    guard let pin = try? reader.pinLatest() else { continue }
                    if let oldest = writer.oldestPinnedVersion(), oldest > pin.version {
                        violations.update { $0 += 1 }
                    }
                    reader.unpin(slot: pin.slot)
                }
            }
        }
        for version in UInt64(2)...5000 {
            try writer.lockWriter()
            writer.publish(version: version)
            writer.unlockWriter()
        }
        stop.value = true
        for thread in readers { thread.wait() }
        #expect(violations.value == 0)
        #expect(writer.oldestPinnedVersion() == nil)
    }
}
