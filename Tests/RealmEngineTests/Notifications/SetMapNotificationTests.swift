import Foundation
import Testing
@testable import RealmEngine

/// A change to an object's set or dictionary is a change of that property, with the old and new
/// collections; writing the same collection again is no change.
@Suite struct SetMapNotificationTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "attrs", type: .string, isMap: true),
            ])
    ])

    @Test func setAndDictionaryChangesArePropertyChanges() throws {
        let dir = TempDir()
        let path = dir.path("n.realm")
        let writer = try Realm(path: path, schema: Self.schema)
        let observed = try Realm(path: path, schema: Self.schema)
        try writer.write {
            try writer.create(
                "Item", ["id": .int(1), "tags": .list([.string("a")]), "attrs": .map(["k": .string("v")])])
        }
        observed.refresh()
        let item = try #require(try observed.objects("Item").first)
        var events: [String] = []
        let token = item.observe { change in
            switch change {
            case .change(_, let props):
                events.append(
                    props.map { "\($0.name): \($0.oldValue?.description ?? "?") → \($0.newValue?.description ?? "?")" }
                        .joined(separator: "; "))
            case .deleted: events.append("deleted")
            case .error(let e): events.append("error \(e)")
            }
        }
        let w = try #require(try writer.objects("Item").first)
        try writer.write { try w.set(forKey: "tags").insert(.string("b")) }
        pumpRunLoop { events.count >= 1 }
        #expect(events.last == "tags: [a] → [a, b]")
        try writer.write { try w.map(forKey: "attrs").setValue(.string("w"), forKey: "k") }
        pumpRunLoop { events.count >= 2 }
        #expect(events.last == "attrs: {k: v} → {k: w}")
        // Inserting an element that is there changes nothing: no notification; the next one is the removal.
        try writer.write { try w.set(forKey: "tags").insert(.string("a")) }
        try writer.write { try w.map(forKey: "attrs").removeValue(forKey: "k") }
        pumpRunLoop { events.count >= 3 }
        #expect(events.last == "attrs: {k: w} → {}")
        token.invalidate()
    }
}
