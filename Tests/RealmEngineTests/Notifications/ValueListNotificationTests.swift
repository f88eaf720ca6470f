import Foundation
import Testing
@testable import RealmEngine

@Suite struct ValueListNotificationTests {
    @Test func listsOfValuesReportRemovedAndInsertedIndices() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "values-\(UUID())", schema: Fixtures.people))
        let dog = try realm.write {
            try realm.create(
                "Dog",
                value: .dictionary([
                    "name": .value(.string("d")),
                    "tags": .array([.value(.string("a")), .value(.string("b"))]),
                ]))
        }
        let tags = try dog.list(forKey: "tags")
        var events: [String] = []
        let token = tags.observe { change in
            switch change {
            case .initial(let l): events.append("initial \(l.count)")
            case .update(let l, let d, let i, let m): events.append("update \(l.count) \(d) \(i) \(m)")
            case .error(let e): events.append("error \(e)")
            }
        }
        pumpRunLoop { events == ["initial 2"] }
        try realm.write { try tags.append(.value(.string("c"))) }
        pumpRunLoop { events.count >= 2 }
        #expect(events.last == "update 3 [] [2] []")
        try realm.write { try tags.remove(at: 0) }
        pumpRunLoop { events.count >= 3 }
        #expect(events.last == "update 2 [0] [] []")
        // Applying the change set to the old list gives the new one.
        let old = try tags.elements()
        try realm.write { try tags.replace(index: 1, with: .value(.string("z"))) }
        pumpRunLoop { events.count >= 4 }
        let now = try tags.elements()
        let diff = DynamicList.diff(old, now)
        var applied = old
        for d in diff.deletions.sorted(by: >) { applied.remove(at: d) }
        for i in diff.insertions.sorted() { applied.insert(now[i], at: i) }
        #expect(applied == now)
        token.invalidate()
    }
}
