import Foundation
import Testing
@testable import RealmEngine

/// Embedded objects in queries and notifications: key paths run through them as through links
/// (to-one, list with ANY/ALL/NONE, dictionary by key, @count, backlinks from them), and a
/// change inside an embedded object — at any depth — is a change of its parent's owning
/// property for an object observer, and a modification of the parent for a results observer.
@Suite struct EmbeddedQueryNotificationTests {
    static let schema = EmbeddedObjectTests.schema

    static func seed(_ realm: Realm) throws {
        try realm.write {
            try realm.create(
                "Person",
                value: .dictionary([
                    "name": .value(.string("Ada")), "address": EmbeddedObjectTests.address("Oslo", lat: 59.9),
                    "previous": .array([EmbeddedObjectTests.address("Bergen"), EmbeddedObjectTests.address("Tromsø")]),
                    "places": .dictionary(["work": EmbeddedObjectTests.address("Trondheim")]),
                ]))
            try realm.create(
                "Person",
                value: .dictionary([
                    "name": .value(.string("Bob")), "address": EmbeddedObjectTests.address("Bergen", lat: 60.4),
                ]))
            try realm.create("Person", ["name": .string("Cy")])
        }
    }

    static func names(_ realm: Realm, _ query: String) throws -> [String] {
        try realm.objects("Person").filter(query).sorted(byKeyPath: "name").value(forKey: "name").map { "\($0)" }
    }

    @Test func keyPathsRunThroughEmbeddedObjects() throws {
        let dir = TempDir()
        let realm = try EmbeddedObjectTests.open(dir)
        try Self.seed(realm)
        #expect(try Self.names(realm, "address.city == 'Oslo'") == ["Ada"])
        #expect(try Self.names(realm, "address.geo.lat > 60") == ["Bob"])
        #expect(try Self.names(realm, "address == nil") == ["Cy"])
        #expect(try Self.names(realm, "ANY previous.city == 'Bergen'") == ["Ada"])
        #expect(try Self.names(realm, "NONE previous.city == 'Bergen'") == ["Bob", "Cy"])
        #expect(try Self.names(realm, "previous.@count == 2") == ["Ada"])
        #expect(try Self.names(realm, "places['work'].city == 'Trondheim'") == ["Ada"])
        #expect(try Self.names(realm, "address.city == 'Bergen' OR ANY previous.city == 'Bergen'") == ["Ada", "Bob"])
    }

    @Test func aChangeInsideAnEmbeddedObjectIsAChangeOfItsParent() throws {
        let dir = TempDir()
        let path = dir.path("embedded.realm")
        let writer = try Realm(path: path, schema: Self.schema)
        try Self.seed(writer)
        let observed = try Realm(path: path, schema: Self.schema)
        let ada = try #require(try observed.object(ofType: "Person", forPrimaryKey: .string("Ada")))
        var events: [String] = []
        let token = ada.observe { change in
            switch change {
            case .change(_, let props): events.append(props.map(\.name).joined(separator: ","))
            case .deleted: events.append("deleted")
            case .error(let e): events.append("error \(e)")
            }
        }
        var modifications: [[Int]] = []
        let results = try observed.objects("Person").sorted(byKeyPath: "name")
        var initial = false
        let resultsToken = results.observe { change in
            if case .initial = change { initial = true }
            if case .update(_, _, _, let modified) = change { modifications.append(modified) }
        }
        pumpRunLoop { initial }  // changes count from the first delivery
        let wAda = try #require(try writer.object(ofType: "Person", forPrimaryKey: .string("Ada")))
        try writer.write { try wAda.linkedObject(forKey: "address")?.setValue(.string("Oslo S"), forKey: "city") }
        pumpRunLoop { events.count >= 1 && modifications.count >= 1 }
        #expect(events.last == "address")
        #expect(modifications.last == [0])
        // Two levels down, and inside a list's element.
        try writer.write {
            try wAda.linkedObject(forKey: "address")?.linkedObject(forKey: "geo")?.setValue(.double(1), forKey: "lat")
        }
        pumpRunLoop { events.count >= 2 }
        #expect(events.last == "address")
        try writer.write {
            try wAda.list(forKey: "previous").object(at: 0).setValue(.string("Bergen S"), forKey: "city")
        }
        pumpRunLoop { events.count >= 3 }
        #expect(events.last == "previous")
        // Bob's embedded object changes: not a change of Ada.
        let wBob = try #require(try writer.object(ofType: "Person", forPrimaryKey: .string("Bob")))
        try writer.write { try wBob.linkedObject(forKey: "address")?.setValue(.string("X"), forKey: "city") }
        guard case .link(let work)? = try wAda.map(forKey: "places").value(forKey: "work") else {
            Issue.record("no work place")
            return
        }
        try writer.write { try writer.object(ofType: "Address", key: work)?.setValue(.string("Y"), forKey: "city") }
        pumpRunLoop { events.count >= 4 }
        #expect(events.last == "places")
        #expect(modifications.joined().contains(1))  // Bob's row (maybe with Ada's in one update)
        token.invalidate()
        resultsToken.invalidate()
    }
}
