import Foundation
import Testing
@testable import RealmEngine

/// `write(withoutNotifying:)` against the notifier thread's timing.
@Suite struct WithoutNotifyingTests {
    /// The notifier's first computation can finish after `refresh()` has already delivered
    /// `.initial` (it is slow under ThreadSanitizer): it then reads the delivered base and stores
    /// an empty change from that version to the same version. That pending change holds nothing
    /// undelivered, so it must not stop the next `write(withoutNotifying:)` from skipping the
    /// token (RealmSwift's `skipsOnlyTheGivenTokens` failed under TSan this way).
    @Test func anEmptyPendingChangeAtTheDeliveredVersionDoesNotStopTheSkip() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("skip.realm"), schema: Fixtures.people)
        var heard: [String] = []
        // Delivered by `refresh()` only, with no notifier thread computing meanwhile: the test
        // stages the notifier's late result itself.
        let token = try realm.objects("Person").observe(on: nil, manual: true) { change in
            switch change {
            case .initial(let r): heard.append("initial \(r.count)")
            case .update(_, let d, let i, let m): heard.append("d\(d) i\(i) m\(m)")
            case .error(let e): Issue.record(e)
            }
        }
        _ = realm.refresh()
        #expect(heard == ["initial 0"])
        let registration = try #require(token.registration)
        let delivered = realm.version
        // Stage what the late notifier leaves behind.
        let pin = try PinnedVersion.holding(realm.snapshot, in: realm.shared)
        registration.stateLock.withLock {
            registration.pending = .init(baseVersion: delivered, target: pin, keys: [], change: .none)
        }
        try realm.write(withoutNotifying: [token]) {
            _ = try realm.create("Person", ["id": .int(1), "name": .string("a")])
        }
        _ = realm.refresh()
        #expect(heard == ["initial 0"], "the skipped commit was delivered")
        try realm.write { _ = try realm.create("Person", ["id": .int(2), "name": .string("b")]) }
        _ = realm.refresh()
        #expect(heard == ["initial 0", "d[] i[1] m[]"])
        token.invalidate()
    }
}
