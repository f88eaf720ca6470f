import Foundation
import Testing
@testable import RealmEngine

/// A Realm observed on a thread whose RunLoop never runs (a CLI, a fuzzer, a worker thread) must
/// still release its file when the Realm and its tokens go away: the delivery a commit schedules
/// on that RunLoop must not keep the file open.
@Suite(.serialized) struct HubLifetimeTests {
    /// The memfds this process holds for in-memory Realms of `identifier` (each one's file is a
    /// memfd named for its identifier: other tests' files running alongside are not counted).
    static func openMemoryFiles(_ identifier: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.filter { name in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) ?? "").contains(
                "memfd:realmtui:\(identifier)")
        }.count
    }

    @Test func aDeliveryScheduledOnAStoppedRunLoopDoesNotKeepTheFileOpen() throws {
        let identifier = "hub-lifetime-\(UUID().uuidString)"
        let schema = Schema([ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)])])
        // On a thread of its own, whose RunLoop nobody runs: the timer the commit adds there never fires.
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            do {
                let realm = try Realm(configuration: .init(inMemoryIdentifier: identifier, schema: schema))
                let token = try realm.objects("Dog").observeFromCurrentVersion { _ in }
                try realm.write { _ = try realm.create("Dog", ["name": .string("Rex")]) }
                token.invalidate()
            } catch {
                Issue.record(error)
            }
        }
        thread.start()
        done.wait()
        // Another instance of the same identifier would see the old data if the file were kept.
        let reopened = try Realm(configuration: .init(inMemoryIdentifier: identifier, schema: schema))
        #expect(try reopened.objects("Dog").count == 0)
        #expect(Self.openMemoryFiles(identifier) == 1, "the reopened instance's file, and no other")
    }

    /// A thread that never runs its RunLoop and delivers by `refresh()` (the explorer): every
    /// commit asks that RunLoop for a delivery, which never comes. A new timer per commit stayed
    /// there for good, even invalidated (the explorer's memory grew with every commit it saw);
    /// the hub now has one timer, re-armed.
    @Test func aHubAsksItsRunLoopWithOneTimerHoweverManyCommitsItSees() throws {
        let identifier = "hub-timers-\(UUID().uuidString)"
        let schema = Schema([ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)])])
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var timers: [ObjectIdentifier] = []
        nonisolated(unsafe) var delivered = 0
        let thread = Thread {
            defer { done.signal() }
            do {
                let realm = try Realm(configuration: .init(inMemoryIdentifier: identifier, schema: schema))
                let writer = try Realm(configuration: .init(inMemoryIdentifier: identifier, schema: schema))
                let token = try realm.objects("Dog").observe { _ in delivered += 1 }
                for index in 0..<10 {
                    let before = delivered
                    try writer.write { _ = try writer.create("Dog", ["name": .string("dog \(index)")]) }
                    // The notifier thread computes the change, then asks for a delivery (no
                    // deadline: a loaded machine computes late).
                    while delivered == before {
                        usleep(200)
                        _ = realm.refresh()
                    }
                    if let timer = realm.notificationHub?.deliveryTimer { timers.append(ObjectIdentifier(timer)) }
                }
                token.invalidate()
            } catch {
                Issue.record(error)
            }
        }
        thread.start()
        done.wait()
        #expect(delivered >= 10, "deliveries made: \(delivered)")
        #expect(timers.count == 10 && Set(timers).count == 1, "\(Set(timers).count) timers for \(timers.count) commits")
    }
}
