import Foundation
import Testing
@testable import RealmEngine

/// Embedded objects through the dynamic API: created only through their parent (a to-one link,
/// a list, a dictionary), replaced and removed ones deleted, deleted with their parent
/// (recursively), never shared by two parents, never listed or created as a class of their own,
/// with backlinks to the parent; the schema rules; the check finding an orphan or a shared one.
@Suite struct EmbeddedObjectTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "name", type: .string, isPrimaryKey: true),
                Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
                Property(name: "previous", type: .object, isList: true, objectClassName: "Address"),
                Property(name: "places", type: .object, isMap: true, objectClassName: "Address"),
            ]),
        ObjectSchema(
            name: "Address",
            properties: [
                Property(name: "city", type: .string),
                Property(name: "street", type: .string, isOptional: true),
                Property(name: "geo", type: .object, isOptional: true, objectClassName: "Geo"),
                Property(
                    name: "resident", type: .linkingObjects, objectClassName: "Person",
                    linkOriginPropertyName: "address"),
            ], isEmbedded: true),
        ObjectSchema(
            name: "Geo",
            properties: [
                Property(name: "lat", type: .double)
            ], isEmbedded: true),
    ])

    static func open(_ dir: TempDir) throws -> Realm { try Realm(path: dir.path("embedded.realm"), schema: schema) }

    /// How many objects of `className` the file holds (`objects(_:)` refuses embedded classes).
    static func stored(_ realm: Realm, _ className: String) throws -> Int {
        try realm.readView.keys(classIndex: try realm.classIndex(className)).count
    }

    static func address(_ city: String, lat: Double? = nil) -> ObjectInput {
        var d: [String: ObjectInput] = ["city": .value(.string(city))]
        if let lat { d["geo"] = .dictionary(["lat": .value(.double(lat))]) }
        return .dictionary(d)
    }

    @Test func theSchemaRulesOfEmbeddedClasses() throws {
        try Self.schema.validate()
        let withKey = Schema([
            ObjectSchema(
                name: "A", properties: [Property(name: "id", type: .int, isPrimaryKey: true)], isEmbedded: true)
        ])
        #expect(throws: RealmError.self) { try withKey.validate() }
        let inSet = Schema([
            ObjectSchema(
                name: "P", properties: [Property(name: "s", type: .object, isSet: true, objectClassName: "A")]),
            ObjectSchema(name: "A", properties: [Property(name: "x", type: .int)], isEmbedded: true),
        ])
        #expect(throws: RealmError.self) { try inSet.validate() }
    }

    @Test func theStoredSchemaNamesEmbeddedOnlyWhenTrue() throws {
        let plain = try JSONEncoder().encode(ObjectSchema(name: "A", properties: []))
        #expect(String(decoding: plain, as: UTF8.self).contains("isEmbedded") == false)
        let embedded = try JSONEncoder().encode(ObjectSchema(name: "A", properties: [], isEmbedded: true))
        #expect(try JSONDecoder().decode(ObjectSchema.self, from: embedded).isEmbedded)
        #expect(try JSONDecoder().decode(ObjectSchema.self, from: plain).isEmbedded == false)
    }

    @Test func createdThroughTheParentAndReadBack() throws {
        let dir = TempDir()
        do {
            let realm = try Self.open(dir)
            try realm.write {
                try realm.create(
                    "Person",
                    value: .dictionary([
                        "name": .value(.string("Ada")), "address": Self.address("Oslo", lat: 59.9),
                        "previous": .array([Self.address("Bergen"), Self.address("Tromsø")]),
                        "places": .dictionary(["work": Self.address("Trondheim"), "none": .value(.null)]),
                    ]))
            }
        }
        let realm = try Self.open(dir)
        let ada = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada")))
        let home = try #require(try ada.linkedObject(forKey: "address"))
        #expect(try home.value(forKey: "city") == .string("Oslo"))
        #expect(try home.linkedObject(forKey: "geo")?.value(forKey: "lat") == .double(59.9))
        #expect(try home.linkingObjects(forKey: "resident").keys() == [ada.key])
        #expect(try ada.list(forKey: "previous").elements().count == 2)
        #expect(try ada.list(forKey: "previous").object(at: 1).value(forKey: "city") == .string("Tromsø"))
        #expect(try ada.map(forKey: "places").value(forKey: "none") == .null)
        #expect(try Self.stored(realm, "Address") == 4)
        #expect(try Self.stored(realm, "Geo") == 1)
        _ = try realm.checkIntegrity()
    }

    @Test func neverListedOrCreatedOnTheirOwn() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        #expect(throws: RealmError.self) { try realm.objects("Address") }
        do {
            _ = try realm.objects("Address")
        } catch let error as RealmError {
            #expect("\(error)".contains("Address is an embedded class"), "\(error)")
        }
        #expect(throws: RealmError.self) {
            try realm.write { try realm.create("Address", ["city": .string("Oslo")]) }
        }
        #expect(try Self.stored(realm, "Address") == 0)
    }

    @Test func replacingOrClearingDeletesTheOldOne() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let ada = try realm.write {
            try realm.create(
                "Person", value: .dictionary(["name": .value(.string("Ada")), "address": Self.address("Oslo", lat: 1)]))
        }
        let first = try #require(try ada.linkedObject(forKey: "address"))
        try realm.write { try ada.setValue(Self.address("Bergen"), forKey: "address") }
        #expect(first.isInvalidated)
        #expect(try ada.linkedObject(forKey: "address")?.value(forKey: "city") == .string("Bergen"))
        #expect(try Self.stored(realm, "Address") == 1)
        #expect(try Self.stored(realm, "Geo") == 0)  // the old one's own embedded object went with it
        try realm.write { try ada.setValue(.null, forKey: "address") }
        #expect(try Self.stored(realm, "Address") == 0)
        _ = try realm.checkIntegrity()
    }

    @Test func removingFromAListOrDictionaryDeletesIt() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let ada = try realm.write {
            try realm.create(
                "Person",
                value: .dictionary([
                    "name": .value(.string("Ada")),
                    "previous": .array([Self.address("A"), Self.address("B"), Self.address("C")]),
                    "places": .dictionary(["x": Self.address("X"), "y": Self.address("Y")]),
                ]))
        }
        let list = try ada.list(forKey: "previous")
        let map = try ada.map(forKey: "places")
        try realm.write {
            try list.append(Self.address("D"))
            try list.remove(at: 0)
            try list.move(from: 0, to: 2)  // a move keeps every object
            _ = try map.removeValue(forKey: "x")
            try map.setInput(Self.address("Z"), forKey: "z")
        }
        #expect(try list.elements().count == 3)
        #expect(
            try (0..<3).map { try list.object(at: $0).value(forKey: "city") } == [
                .string("C"), .string("D"), .string("B"),
            ])
        #expect(try map.keys() == ["y", "z"])
        #expect(try Self.stored(realm, "Address") == 5)
        try realm.write { try map.setValue(.null, forKey: "y") }  // nil under the key: the object goes
        #expect(try Self.stored(realm, "Address") == 4)
        try realm.write { try list.removeAll() }
        #expect(try Self.stored(realm, "Address") == 1)
        _ = try realm.checkIntegrity()
    }

    @Test func deletingTheParentDeletesEveryEmbeddedObjectRecursively() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        try realm.write {
            for name in ["Ada", "Bob"] {
                try realm.create(
                    "Person",
                    value: .dictionary([
                        "name": .value(.string(name)), "address": Self.address("Oslo", lat: 1),
                        "previous": .array([Self.address("A", lat: 2)]),
                        "places": .dictionary(["k": Self.address("K", lat: 3)]),
                    ]))
            }
        }
        #expect(try Self.stored(realm, "Address") == 6)
        #expect(try Self.stored(realm, "Geo") == 6)
        try realm.write {
            try realm.delete(#require(try realm.object(ofType: "Person", forPrimaryKey: .string("Ada"))))
        }
        #expect(try Self.stored(realm, "Address") == 3)
        #expect(try Self.stored(realm, "Geo") == 3)
        try realm.write { try realm.delete(try realm.objects("Person")) }
        #expect(try Self.stored(realm, "Address") == 0)
        #expect(try Self.stored(realm, "Geo") == 0)
        _ = try realm.checkIntegrity()
    }

    @Test func anEmbeddedObjectIsNeverSharedByTwoParents() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let (ada, bob) = try realm.write {
            (
                try realm.create(
                    "Person", value: .dictionary(["name": .value(.string("Ada")), "address": Self.address("Oslo")])),
                try realm.create("Person", ["name": .string("Bob")])
            )
        }
        let home = try #require(try ada.linkedObject(forKey: "address"))
        // Another parent, another property of the same parent, twice in one list: all refused,
        // nothing changed.
        for attempt in [
            { try bob.setValue(.link(home.key), forKey: "address") },
            { try ada.list(forKey: "previous").append(.value(.link(home.key))) },
            { try bob.setValue(.array([.value(.link(home.key))]), forKey: "previous") },
            {
                try realm.create(
                    "Person", value: .dictionary(["name": .value(.string("Cy")), "address": .value(.link(home.key))]))
            },
        ] {
            #expect(throws: RealmError.self) { try realm.write { try attempt() } }
        }
        #expect(try bob.value(forKey: "address") == .null)
        #expect(try ada.list(forKey: "previous").elements().isEmpty)
        #expect(try realm.object(ofType: "Person", forPrimaryKey: .string("Cy")) == nil)
        #expect(try ada.linkedObject(forKey: "address") == home)
        // Setting the same object again is no change, not a second parent.
        try realm.write { try ada.setValue(.link(home.key), forKey: "address") }
        #expect(!home.isInvalidated)
        _ = try realm.checkIntegrity()
    }

    @Test func deletingAnEmbeddedObjectDirectlyClearsItsParentsLink() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let ada = try realm.write {
            try realm.create(
                "Person", value: .dictionary(["name": .value(.string("Ada")), "address": Self.address("Oslo")]))
        }
        try realm.write { try realm.delete(#require(try ada.linkedObject(forKey: "address"))) }
        #expect(try ada.value(forKey: "address") == .null)
        _ = try realm.checkIntegrity()
    }

    @Test func theCheckFindsAnOrphanAndASharedEmbeddedObject() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let address = try realm.classIndex("Address")
        // Rows written below the ownership rules, as damage would leave them.
        try realm.write {
            let t = try #require(realm.transaction)
            _ = try t.insertRow(address, [.string("Nowhere"), .null, .null])
        }
        #expect(throws: RealmError.self) { try realm.checkIntegrity() }
        do {
            _ = try realm.checkIntegrity()
        } catch let error as RealmError {
            #expect("\(error)".contains("embedded object Address 0 has no parent"), "\(error)")
        }
        // Rows copied as stored (as `copyRow` copies a file), backlinks matching: one Address
        // owned through Ada's `address` and Bob's `previous`.
        let shared = try Realm(path: dir.path("shared.realm"), schema: Self.schema)
        try shared.write {
            let t = try #require(shared.transaction)
            let (person, address) = (try shared.classIndex("Person"), try shared.classIndex("Address"))
            let one = ObjectKey(0)
            try t.copyRow(
                address, key: one,
                row: [
                    .string("Oslo"), .null, .null,
                    .list([.link(ObjectKey(0))]), .list([.link(ObjectKey(1))]), .list([]),
                ])
            try t.copyRow(person, key: ObjectKey(0), row: [.string("Ada"), .link(one), .list([]), .map([:])])
            try t.copyRow(person, key: ObjectKey(1), row: [.string("Bob"), .null, .list([.link(one)]), .map([:])])
        }
        do {
            _ = try shared.checkIntegrity()
            Issue.record("a shared embedded object passed the check")
        } catch let error as RealmError {
            #expect("\(error)".contains("embedded object Address 0 has 2 parents"), "\(error)")
        }
    }
}
