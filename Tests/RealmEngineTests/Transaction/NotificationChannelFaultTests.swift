import Foundation
import Testing
@testable import RealmEngine

/// The notification channel (the lock file's futex word) under injected failures: a waiter must
/// neither spin when FUTEX_WAIT keeps failing nor sleep through a commit whose FUTEX_WAKE failed.
@Suite(.tags(.integrity)) struct NotificationChannelFaultTests {
    @Test func aWaitThatKeepsFailingDoesNotSpin() throws {
        let path = try lockTestPath()
        let lock = try LockFile(path: path)
        let plan = FaultPlan(
            folder: URL(fileURLWithPath: path).deletingLastPathComponent().path,
            calls: [.futexWait], failure: .error(EIO), nth: 1, sticky: true)
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        let seen = lock.changeCounter
        let clock = ContinuousClock()
        let start = clock.now
        #expect(lock.waitForChange(since: seen, timeoutMilliseconds: 200) == seen)
        #expect(clock.now - start >= .milliseconds(190))
        // Polling a few times a millisecond at most, not thousands of failed calls.
        #expect(plan.count < 400, "FUTEX_WAIT was called \(plan.count) times in 200 ms")
        // A change is still seen, by polling.
        let waiter = lockTestThread { _ = lock.waitForChange(since: seen, timeoutMilliseconds: 5000) }
        lock.publish(version: 1)
        waiter.wait()
    }

    @Test func aFailedWakeDoesNotLoseTheChange() throws {
        let path = try lockTestPath()
        let writer = try LockFile(path: path)
        let watcher = try LockFile(path: path)
        let seen = watcher.changeCounter
        let result = LockTestBox<UInt32?>(nil)
        let ready = DispatchSemaphore(value: 0)
        // No timeout (-1): only the change ends the wait. A lost change hangs where CI's job
        // limit reports it; before, a bound of 2 s on the elapsed time could fail a loaded machine.
        let waiter = lockTestThread {
            ready.signal()
            result.value = watcher.waitForChange(since: seen, timeoutMilliseconds: -1)
        }
        ready.wait()
        usleep(50_000)  // the waiter sleeps in FUTEX_WAIT now
        let plan = FaultPlan(
            folder: URL(fileURLWithPath: path).deletingLastPathComponent().path,
            calls: [.futexWake], failure: .error(EIO), nth: 1)
        FaultPlan.install(plan)
        writer.publish(version: 1)
        FaultPlan.remove(plan)
        #expect(plan.fired.count == 1)
        waiter.wait()
        #expect(result.value == seen &+ 1)
    }
}
