import Foundation
import Testing
@testable import RealmEngine

/// Dictionary properties (`Map<String, T>`) through the public API: set, read and remove keys,
/// a missing key reading as nil (not an error), keys Realm refuses ('$…', '….…') refused with
/// nothing changed, dictionaries of links whose deleted targets leave nil under their key,
/// backlinks, and everything surviving a reopen, a copy and the check.
@Suite struct MapPropertyTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "attrs", type: .string, isMap: true),
                Property(name: "counts", type: .int, isOptional: true, isMap: true),
                Property(name: "pets", type: .object, isMap: true, objectClassName: "Pet"),
            ]),
        ObjectSchema(
            name: "Pet",
            properties: [
                Property(name: "name", type: .string, isPrimaryKey: true),
                Property(
                    name: "owners", type: .linkingObjects, objectClassName: "Item", linkOriginPropertyName: "pets"),
            ]),
    ])

    static func open(_ dir: TempDir) throws -> Realm { try Realm(path: dir.path("maps.realm"), schema: schema) }

    @Test func theSchemaSaysDictionary() throws {
        let attrs = try #require(Self.schema["Item"]?["attrs"])
        #expect(attrs.isMap && !attrs.isList && !attrs.isSet)
        #expect(attrs.typeDescription == "string{}")
        #expect(Self.schema["Item"]?["counts"]?.typeDescription == "int?{}")
        #expect(Self.schema["Item"]?["pets"]?.typeDescription == "Pet{}")
        #expect(Self.schema["Item"]?["pets"]?.isOptional == true)  // a deleted target leaves nil
        try Self.schema.validate()
    }

    @Test func entriesAreSetReadRemovedAndSurviveReopening() throws {
        let dir = TempDir()
        do {
            let realm = try Self.open(dir)
            try realm.write {
                try realm.create(
                    "Item",
                    [
                        "id": .int(1),
                        "attrs": .map(["color": .string("red"), "size": .string("L"), "": .string("empty key")]),
                        "counts": .map(["a": .int(1), "none": .null]),
                    ])
            }
            let attrs = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1))).map(forKey: "attrs")
            let removed = try realm.write { () throws -> [Value?] in
                try attrs.setValue(.string("blue"), forKey: "color")
                try attrs.setValue(.string("cotton"), forKey: "material")
                return [try attrs.removeValue(forKey: "size"), try attrs.removeValue(forKey: "size")]
            }
            #expect(removed == [.string("L"), nil])
        }
        let realm = try Self.open(dir)
        let item = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1)))
        let attrs = try item.map(forKey: "attrs")
        #expect(try attrs.keys() == ["", "color", "material"])
        #expect(try attrs.values() == [.string("empty key"), .string("blue"), .string("cotton")])
        #expect(try attrs.value(forKey: "color") == .string("blue"))
        #expect(try attrs.value(forKey: "size") == nil)  // missing: nil, as in Realm
        #expect(try attrs.count() == 3)
        let counts = try item.map(forKey: "counts")
        #expect(try counts.value(forKey: "none") == .null)  // present with a nil value
        #expect(try counts.value(forKey: "a") == .int(1))
        #expect(try item.value(forKey: "counts") == .map(["a": .int(1), "none": .null]))
        #expect(try realm.checkIntegrity().warnings.isEmpty)
    }

    @Test func keysRealmRefusesAreRefusedAndNothingChanges() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let item = try realm.write { try realm.create("Item", ["id": .int(1), "attrs": .map(["a": .string("1")])]) }
        let attrs = try item.map(forKey: "attrs")
        for bad in ["$x", "a.b", ".", "$"] {
            #expect(throws: RealmError.self, "\(bad)") {
                try realm.write { try attrs.setValue(.string("v"), forKey: bad) }
            }
            #expect(throws: RealmError.self, "\(bad)") {
                try realm.write { try realm.create("Item", ["id": .int(2), "attrs": .map([bad: .string("v")])]) }
            }
        }
        do {
            try realm.write { try attrs.setValue(.string("v"), forKey: "a.b") }
            Issue.record("a key with '.' was accepted")
        } catch let error as RealmError {
            #expect("\(error)".contains("'.'"), "\(error)")
        }
        #expect(try attrs.keys() == ["a"])
        #expect(try realm.objects("Item").count == 1)
        // A value of the wrong type names the property.
        #expect(throws: RealmError.typeMismatch(className: "Item", property: "attrs", expected: "string", got: "int")) {
            try realm.write { try attrs.setValue(.int(5), forKey: "n") }
        }
        #expect(throws: RealmError.missingValue(className: "Item", property: "attrs")) {
            try realm.write { try attrs.setValue(.null, forKey: "n") }
        }
        #expect(
            throws: RealmError.typeMismatch(className: "Item", property: "attrs", expected: "string{}", got: "list")
        ) {
            try realm.write { try item.setValue(.list([.string("x")]), forKey: "attrs") }
        }
        #expect(
            throws: RealmError.typeMismatch(className: "Item", property: "id", expected: "a dictionary", got: "int")
        ) {
            _ = try item.map(forKey: "id")
        }
    }

    @Test func dictionariesOfLinksKeepTheKeyWhenTheTargetGoes() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        try realm.write {
            try realm.create("Pet", ["name": .string("rex")])
            try realm.create(
                "Item",
                value: .dictionary([
                    "id": .value(.int(1)),
                    "pets": .dictionary([
                        "cat": .dictionary(["name": .value(.string("tom"))]),
                        "dog": .primaryKey(.string("rex")),
                        "none": .value(.null),
                    ]),
                ]))
        }
        // An unknown primary key is an error, not a nil value.
        #expect(throws: RealmError.self) {
            try realm.write {
                try realm.create(
                    "Item",
                    value: .dictionary([
                        "id": .value(.int(2)), "pets": .dictionary(["x": .primaryKey(.string("nobody"))]),
                    ]))
            }
        }
        let item = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1)))
        let pets = try item.map(forKey: "pets")
        let rex = try realm.write { try realm.create("Pet", ["name": .string("rex2")]) }
        try realm.write {
            try pets.setValue(.link(rex.key), forKey: "dog")
            try pets.setValue(.null, forKey: "dog2")
        }
        #expect(try rex.linkingObjects(forKey: "owners").count == 1)
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        let tom = try #require(try realm.object(ofType: "Pet", forPrimaryKey: .string("tom")))
        try realm.write { try realm.delete(tom) }
        #expect(try pets.value(forKey: "cat") == .null)
        #expect(try pets.keys() == ["cat", "dog", "dog2", "none"])
        try realm.write { try realm.delete(rex) }
        #expect(try pets.values() == [.null, .null, .null, .null])
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        #expect(throws: RealmError.self) { try realm.write { try pets.setValue(.link(ObjectKey(12345)), forKey: "x") } }
        #expect(throws: RealmError.self) { try realm.write { try pets.setValue(.string("rex"), forKey: "x") } }
    }

    @Test func manyEntriesCopyAndCompact() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        // More than 4096 entries in one leaf (the codec's width rule) and one dictionary of 600 (a big value).
        try realm.write {
            for i in 0..<200 {
                var entries: [String: Value] = [:]
                for k in 0..<(i == 7 ? 600 : 30) { entries["k\(k)"] = .string("v\(i)-\(k)") }
                try realm.create("Item", ["id": .int(Int64(i)), "attrs": .map(entries)])
            }
        }
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        let copy = dir.path("copy.realm")
        try realm.writeCopy(toFile: copy)
        _ = try Realm.compact(path: copy)
        let reopened = try Realm(path: copy, schema: Self.schema)
        let seven = try #require(try reopened.object(ofType: "Item", forPrimaryKey: .int(7))).map(forKey: "attrs")
        #expect(try seven.count() == 600)
        #expect(try seven.value(forKey: "k599") == .string("v7-599"))
        #expect(
            try reopened.object(ofType: "Item", forPrimaryKey: .int(199))?.map(forKey: "attrs").value(forKey: "k29")
                == .string("v199-29"))
        // Deleting half the objects re-packs leaves (the codec's row removal) and keeps the rest.
        try reopened.write { try reopened.delete(try reopened.objects("Item").filter("id < 100")) }
        #expect(try reopened.object(ofType: "Item", forPrimaryKey: .int(150))?.map(forKey: "attrs").count() == 30)
        #expect(try reopened.checkIntegrity().warnings.isEmpty)
    }
}
