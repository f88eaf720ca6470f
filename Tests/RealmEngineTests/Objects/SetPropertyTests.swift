import Foundation
import Testing
@testable import RealmEngine

/// Set properties (`MutableSet`) through the public API: unique by value and in Realm's order
/// however they are written, insert/remove/contains/union, sets of links with their backlinks,
/// a deleted target leaving the set, and everything surviving a reopen, a copy and the check.
@Suite struct SetPropertyTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "scores", type: .double, isSet: true),
                Property(name: "maybe", type: .int, isOptional: true, isSet: true),
                Property(name: "prices", type: .decimal128, isSet: true),
                Property(name: "friends", type: .object, isSet: true, objectClassName: "Person"),
            ]),
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "name", type: .string, isPrimaryKey: true),
                Property(
                    name: "fans", type: .linkingObjects, objectClassName: "Item", linkOriginPropertyName: "friends"),
            ]),
    ])

    static func open(_ dir: TempDir) throws -> Realm { try Realm(path: dir.path("sets.realm"), schema: schema) }

    @Test func theSchemaSaysSet() throws {
        let tags = try #require(Self.schema["Item"]?["tags"])
        #expect(tags.isSet && tags.isList && !tags.isMap)
        #expect(tags.typeDescription == "string<>")
        #expect(Self.schema["Item"]?["maybe"]?.typeDescription == "int?<>")
        #expect(Self.schema["Item"]?["friends"]?.typeDescription == "Person<>")
        #expect(Self.schema["Item"]?["friends"]?.isOptional == false)
        try Self.schema.validate()
    }

    @Test func writtenElementsAreUniqueAndSortedAndSurviveReopening() throws {
        let dir = TempDir()
        do {
            let realm = try Self.open(dir)
            try realm.write {
                try realm.create(
                    "Item",
                    [
                        "id": .int(1),
                        "tags": .list([.string("b"), .string("a"), .string("b"), .string("é"), .string("B")]),
                        "scores": .list([
                            .double(2), .int(1), .double(1.0), .double(.nan), .double(.nan), .double(-0.0), .double(0),
                        ]),
                        "maybe": .list([.int(3), .null, .int(3), .null]),
                        "prices": .list([
                            .decimal128(try Decimal128(parsing: "1.0")), .decimal128(try Decimal128(parsing: "1.00")),
                        ]),
                    ])
            }
        }
        let realm = try Self.open(dir)
        let item = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1)))
        #expect(try item.set(forKey: "tags").elements() == [.string("B"), .string("a"), .string("b"), .string("é")])
        let scores = try item.set(forKey: "scores").elements()
        #expect(scores.count == 4, "\(scores)")  // NaN once, -0.0 and 0 one element, 1 once, 2
        if case .double(let first) = scores.first { #expect(first.isNaN) } else { Issue.record("\(scores)") }
        #expect(Array(scores.dropFirst(2)) == [.double(1), .double(2)])
        #expect(try item.set(forKey: "maybe").elements() == [.null, .int(3)])
        // 1.0 and 1.00 are equal decimals: the first given stays, digit for digit.
        let prices = try item.set(forKey: "prices").elements()
        let one = Value.decimal128(try Decimal128(parsing: "1.0"))
        #expect(prices.count == 1 && prices[0].isIdentical(to: one))
        #expect(try realm.checkIntegrity().warnings.isEmpty)
    }

    @Test func insertRemoveContainsAndUnion() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let item = try realm.write { try realm.create("Item", ["id": .int(1)]) }
        let tags = try item.set(forKey: "tags")
        #expect(try tags.elements().isEmpty)
        let inserted = try realm.write { () throws -> [Bool] in
            [try tags.insert(.string("x")), try tags.insert(.string("x")), try tags.insert(.string("a"))]
        }
        #expect(inserted == [true, false, true])
        #expect(try tags.elements() == [.string("a"), .string("x")])
        #expect(try tags.contains(.string("a")))
        #expect(try !tags.contains(.string("z")))
        let removed = try realm.write { () throws -> [Bool] in
            try tags.formUnion([.string("z"), .string("a"), .string("m")])
            return [try tags.remove(.string("x")), try tags.remove(.string("x"))]
        }
        #expect(removed == [true, false])
        #expect(try tags.elements() == [.string("a"), .string("m"), .string("z")])
        try realm.write { try tags.formIntersection([.string("m"), .string("z"), .string("q")]) }
        #expect(try tags.elements() == [.string("m"), .string("z")])
        try realm.write { try tags.subtract([.string("z")]) }
        #expect(try tags.elements() == [.string("m")])
        #expect(try tags.isSubset(of: [.string("m"), .string("q")]))
        #expect(try !tags.isSubset(of: [.string("q")]))
        #expect(try tags.intersects([.string("q"), .string("m")]))
        #expect(try !tags.intersects([.string("q")]))
        #expect(throws: RealmError.self) { try tags.intersects([.int(1)]) }
        // A double set finds 1 as 1.0.
        let scores = try item.set(forKey: "scores")
        try realm.write { try scores.insert(.double(1)) }
        #expect(try scores.contains(.int(1)))
        #expect(try scores.insert(.int(1)) == false)  // found before any write is needed
    }

    @Test func wrongElementsAreClearErrors() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let item = try realm.write { try realm.create("Item", ["id": .int(1), "tags": .list([.string("a")])]) }
        let tags = try item.set(forKey: "tags")
        #expect(throws: RealmError.typeMismatch(className: "Item", property: "tags", expected: "string", got: "int")) {
            try realm.write { try tags.insert(.int(5)) }
        }
        #expect(throws: RealmError.typeMismatch(className: "Item", property: "tags", expected: "string", got: "int")) {
            _ = try tags.contains(.int(5))
        }
        #expect(throws: RealmError.missingValue(className: "Item", property: "tags")) {
            try realm.write { try tags.insert(.null) }
        }
        #expect(throws: RealmError.self) {
            try realm.write { try realm.create("Item", ["id": .int(2), "tags": .list([.string("a"), .bool(true)])]) }
        }
        #expect(try tags.elements() == [.string("a")])
        #expect(try realm.objects("Item").count == 1)
        // A set keeps its own order: a position makes no sense.
        #expect(throws: RealmError.self) {
            try realm.write { try item.list(forKey: "tags").insert(.value(.string("b")), at: 0) }
        }
        #expect(throws: RealmError.typeMismatch(className: "Item", property: "id", expected: "a set", got: "int")) {
            _ = try item.set(forKey: "id")
        }
    }

    @Test func setsOfLinksHaveBacklinksAndLoseDeletedTargets() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        try realm.write {
            try realm.create("Person", ["name": .string("ann")])
            try realm.create("Person", ["name": .string("bob")])
            try realm.create(
                "Item",
                value: .dictionary([
                    "id": .value(.int(1)),
                    "friends": .array([
                        .primaryKey(.string("bob")), .primaryKey(.string("ann")), .primaryKey(.string("bob")),
                    ]),
                ]))
        }
        let item = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1)))
        let friends = try item.set(forKey: "friends")
        #expect(try friends.elements().count == 2)
        let bob = try #require(try realm.object(ofType: "Person", forPrimaryKey: .string("bob")))
        #expect(try bob.linkingObjects(forKey: "fans").count == 1)
        #expect(try friends.contains(.link(bob.key)))
        #expect(try realm.write { try friends.insert(.link(bob.key)) } == false)
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        try realm.write { try realm.delete(bob) }
        #expect(try friends.elements().count == 1)
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        // A link to no object is refused.
        #expect(throws: RealmError.self) { try realm.write { try friends.insert(.link(ObjectKey(999))) } }
        #expect(throws: RealmError.self) { try realm.write { try friends.insert(.string("ann")) } }
    }

    @Test func copiesAndCompactionKeepSets() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        try realm.write {
            for i in 0..<300 {
                try realm.create(
                    "Item", ["id": .int(Int64(i)), "tags": .list((0..<(i % 20)).map { .string("t\($0 % 7)") })])
            }
        }
        let copy = dir.path("copy.realm")
        try realm.writeCopy(toFile: copy)
        do {
            let reopened = try Realm(path: copy, schema: Self.schema)
            let item = try #require(try reopened.object(ofType: "Item", forPrimaryKey: .int(19)))
            #expect(try item.set(forKey: "tags").elements() == (0..<7).map { .string("t\($0)") })
            #expect(try reopened.checkIntegrity().warnings.isEmpty)
        }
        _ = try Realm.compact(path: copy)
        let compacted = try Realm(path: copy, schema: Self.schema)
        #expect(try compacted.object(ofType: "Item", forPrimaryKey: .int(5))?.set(forKey: "tags").elements().count == 5)
    }

    @Test func setsCannotBeKeysOrIndexedOrHoldNilLinks() {
        func invalid(_ p: Property) -> Bool {
            let schema = Schema([
                ObjectSchema(name: "A", properties: [p]),
                ObjectSchema(name: "B", properties: [Property(name: "x", type: .int)]),
            ])
            return (try? schema.validate()) == nil
        }
        #expect(invalid(Property(name: "s", type: .int, isSet: true, isPrimaryKey: true)))
        #expect(invalid(Property(name: "s", type: .int, isSet: true, isIndexed: true)))
        #expect(invalid(Property(name: "s", type: .object, isOptional: true, isSet: true, objectClassName: "B")))
        #expect(!invalid(Property(name: "s", type: .object, isSet: true, objectClassName: "B")))
    }
}
