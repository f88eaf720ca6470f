import Foundation
import Testing
@testable import RealmEngine

/// A Mixed property holding a list or a dictionary reports changes inside it, as RealmSwift's
/// observers of `value.listValue` / `value.dictionaryValue` do: indices for a list, keys for a
/// dictionary, at any depth; a nested collection changed inside is a modification of its
/// position (or key), not a removal and an insertion.
@Suite struct MixedCollectionNotificationTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Box",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "value", type: .mixed, isOptional: true),
                Property(name: "other", type: .int),
            ])
    ])

    final class Recorder: @unchecked Sendable {
        var events: [String] = []
    }

    static func describe(_ change: MixedCollectionChange) -> String {
        switch change {
        case .initial(let value): "initial \(value)"
        case .listUpdate(_, let d, let i, let m): "list -\(d) +\(i) ~\(m)"
        case .dictionaryUpdate(_, let d, let i, let m): "dictionary -\(d) +\(i) ~\(m)"
        case .error(let error): "error \(error)"
        }
    }

    @Test func changesInsideANestedListAndDictionary() throws {
        let dir = TempDir()
        let path = dir.path("mixed.realm")
        let writer = try Realm(path: path, schema: Self.schema)
        let observed = try Realm(path: path, schema: Self.schema)
        let start: Value = .list([
            .int(1), .string("two"), .map(["k": .list([.int(1)]), "n": .int(5)]), .list([.bool(true)]),
        ])
        try writer.write { try writer.create("Box", ["id": .int(1), "value": start, "other": .int(0)]) }
        observed.refresh()
        let box = try #require(try observed.objects("Box").first)
        let top = Recorder()
        let inner = Recorder()
        let topToken = box.observeCollection(inMixed: "value") { top.events.append(Self.describe($0)) }
        let innerToken = box.observeCollection(inMixed: "value", at: [.index(2)]) {
            inner.events.append(Self.describe($0))
        }
        pumpRunLoop { top.events.count >= 1 && inner.events.count >= 1 }
        #expect(top.events == ["initial \(start)"])

        let w = try #require(try writer.objects("Box").first)
        func change(_ new: Value) throws { try writer.write { try w.setValue(new, forKey: "value") } }
        // Append to the top list: an insertion at 4; the nested dictionary is unchanged.
        try change(
            .list([
                .int(1), .string("two"), .map(["k": .list([.int(1)]), "n": .int(5)]), .list([.bool(true)]), .int(9),
            ]))
        pumpRunLoop { top.events.count >= 2 }
        #expect(top.events.last == "list -[] +[4] ~[]")
        // Inside the nested dictionary: a key's list grows (a modification of "k"), "n" is removed, "z" added.
        try change(
            .list([
                .int(1), .string("two"), .map(["k": .list([.int(1), .int(2)]), "z": .null]), .list([.bool(true)]),
                .int(9),
            ]))
        pumpRunLoop { top.events.count >= 3 && inner.events.count >= 2 }
        #expect(top.events.last == "list -[] +[] ~[2]")
        #expect(inner.events.last == "dictionary -[\"n\"] +[\"z\"] ~[\"k\"]")
        // Another property of the object: no event for the Mixed collection.
        try writer.write { try w.setValue(.int(1), forKey: "other") }
        // Removing the first element: a deletion at 0; the nested collections keep their identity.
        try change(
            .list([
                .string("two"), .map(["k": .list([.int(1), .int(2)]), "z": .null]), .list([.bool(false)]), .int(9),
            ]))
        pumpRunLoop { top.events.count >= 4 }
        #expect(top.events.last == "list -[0] +[] ~[3]")
        // The dictionary moved from index 2 to 1 and its observer followed it (Realm Core's stable
        // key of a nested collection): no change of it so far, and a key put into it at its new
        // place is its next event.
        try change(
            .list([
                .string("two"), .map(["k": .list([.int(1), .int(2)]), "q": .int(1), "z": .null]), .list([.bool(false)]),
                .int(9),
            ]))
        pumpRunLoop { top.events.count >= 5 && inner.events.count >= 3 }
        #expect(inner.events.last == "dictionary -[] +[\"q\"] ~[]" && inner.events.count == 3, "\(inner.events)")
        // The value stops being a list: everything is deleted.
        try change(.int(3))
        pumpRunLoop { top.events.count >= 6 && inner.events.count >= 4 }
        #expect(top.events.last == "list -[0, 1, 2, 3] +[] ~[]")
        #expect(inner.events.last == "dictionary -[\"k\", \"q\", \"z\"] +[] ~[]")
        topToken.invalidate()
        innerToken.invalidate()
    }

    @Test func observingWhatIsNotACollectionIsAnError() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "mixed-\(UUID())", schema: Self.schema))
        try realm.write { try realm.create("Box", ["id": .int(1), "value": .int(5), "other": .int(0)]) }
        let box = try #require(try realm.objects("Box").first)
        let events = Recorder()
        let token = box.observeCollection(inMixed: "value") { events.events.append(Self.describe($0)) }
        let other = box.observeCollection(inMixed: "other") { events.events.append(Self.describe($0)) }
        pumpRunLoop { events.events.count >= 2 }
        #expect(events.events.allSatisfy { $0.hasPrefix("error") })
        #expect(events.events.contains { $0.contains("holds no list or dictionary") })
        #expect(events.events.contains { $0.contains("not a Mixed property") })
        token.invalidate()
        other.invalidate()
    }
}
