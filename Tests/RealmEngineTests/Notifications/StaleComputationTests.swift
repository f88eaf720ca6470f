import Foundation
import Testing
@testable import RealmEngine

/// A delivery that moves a registration's last delivered version while the notifier computes
/// makes that computation stale. The notifier must compute again from the new base: otherwise
/// the newest commit is never delivered (ListAsyncChangesTests hung in 6 of 1,000 runs so).
@Suite struct StaleComputationTests {
    static let schema = Schema([ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)])])

    @Test func aComputationMadeStaleByADeliveryIsDoneAgainFromTheNewBase() throws {
        let config = Realm.Configuration(inMemoryIdentifier: "stale-\(UUID().uuidString)", schema: Self.schema)
        let writer = try Realm(configuration: config)
        let observed = try Realm(configuration: config)
        try writer.write { _ = try writer.create("Dog", ["name": .string("Rex")]) }
        observed.refresh()
        let spec = try observed.objects("Dog").query
        let first = try PinnedVersion.holding(observed.snapshot, in: observed.shared)
        let registration = Registration(kind: .collection(spec), schema: Self.schema) { _, _, _ in }
        registration.base = .init(version: first.version, pin: first, keys: try spec.evaluate(in: first.snapshot))

        try writer.write { _ = try writer.create("Dog", ["name": .string("Fido")]) }
        observed.refresh()
        let second = try PinnedVersion.holding(observed.snapshot, in: observed.shared)
        let keysAtSecond = try spec.evaluate(in: second.snapshot)
        try writer.write { _ = try writer.create("Dog", ["name": .string("Ace")]) }
        let newest = try PinnedVersion.newest(observed.shared)

        var delivered = false
        registration.didCompute = {
            guard !delivered else { return }
            delivered = true
            // What a delivery of the second version on the observer's context does meanwhile.
            registration.stateLock.withLock {
                registration.base = .init(version: second.version, pin: second, keys: keysAtSecond)
                registration.pending = nil
            }
        }
        registration.computePending(at: newest)

        let pending = try #require(registration.stateLock.withLock { registration.pending })
        #expect(pending.baseVersion == second.version)
        #expect(pending.target.version == newest.version)
        guard case .collection(let set) = pending.change else {
            Issue.record("expected a collection change, got \(pending.change)")
            return
        }
        #expect(set.insertions == [2] && set.deletions.isEmpty)
    }
}
