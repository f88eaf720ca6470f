import Foundation
import Testing
import RealmSwift

/// `AnyRealmValue` as RealmSwift has it: `@Persisted var value: AnyRealmValue` holding every
/// case (an object of any class, nested lists and dictionaries too) and reading back the same
/// case after a reopen, the accessors, `List<AnyRealmValue>` and `Map<String, AnyRealmValue>`,
/// an unmanaged object added with its owner, a deleted object reading as `.none`, and
/// `where {}` / string queries comparing across numeric types.
@Suite struct AnyRealmValueTests {
    final class MDog: Object {
        @Persisted var name = ""
    }

    final class MBox: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var value: AnyRealmValue
        @Persisted var items: List<AnyRealmValue>
        @Persisted var attrs: Map<String, AnyRealmValue>
    }

    static var cases: [AnyRealmValue] {
        [
            .none, .int(-42), .bool(true), .float(2.5), .double(1.5), .string("5"), .data(Data([0, 1, 255])),
            .date(Date(timeIntervalSince1970: 1_600_000_000)), .objectId(ObjectId("0123456789abcdef01234567")),
            .decimal128(Decimal128("12.50")), .uuid(UUID(uuidString: "d1b186e1-e9e0-4768-a1a7-c492519d47ee")!),
            .fromArray([.int(1), .string("two"), .fromDictionary(["k": .bool(false)])]),
            .fromDictionary(["a": .int(1), "b": .none]),
        ]
    }

    @Test func everyCaseIsStoredAndReadBack() throws {
        let config = try fileConfig([MBox.self, MDog.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            try realm.write {
                for (i, value) in Self.cases.enumerated() {
                    let box = MBox()
                    box.id = i
                    box.value = value
                    realm.add(box)
                }
            }
        }
        let realm = try Realm(configuration: config)
        for (i, value) in Self.cases.enumerated() {
            let box = try #require(realm.object(ofType: MBox.self, forPrimaryKey: i))
            #expect(box.value == value, "\(i): \(box.value) ≠ \(value)")
        }
        let list = try #require(realm.object(ofType: MBox.self, forPrimaryKey: 11)?.value.listValue)
        #expect(list.count == 3 && list[1].stringValue == "two" && list[2].dictionaryValue?["k"]?.boolValue == false)
        #expect(realm.object(ofType: MBox.self, forPrimaryKey: 1)?.value.intValue == -42)
        #expect(realm.object(ofType: MBox.self, forPrimaryKey: 5)?.value.intValue == nil)  // "5" is a string
        #expect(realm.object(ofType: MBox.self, forPrimaryKey: 5)?.value.stringValue == "5")
        #expect(AnyRealmValue().intValue == nil && AnyRealmValue() == .none)
    }

    @Test func objectsOfAnyClassAndCollectionsOfMixed() throws {
        let config = try fileConfig([MBox.self, MDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let rex = MDog()
        rex.name = "Rex"
        let box = MBox()
        box.id = 1
        box.value = .object(rex)  // unmanaged: added with its owner
        box.items.append(objectsIn: [.int(3), .string("a"), .object(rex)])
        box.attrs["n"] = .double(4)
        box.attrs["dog"] = .object(rex)
        try realm.write { realm.add(box) }
        #expect(realm.objects(MDog.self).count == 1)
        let managed = try #require(realm.object(ofType: MBox.self, forPrimaryKey: 1))
        #expect(managed.value.object(MDog.self)?.name == "Rex")
        #expect(managed.value.dynamicObject != nil && managed.value.object(MBox.self) == nil)
        #expect(
            managed.items.count == 3 && managed.items[0] == .int(3) && managed.items[2].object(MDog.self)?.name == "Rex"
        )
        #expect(managed.attrs["n"] == .double(4) && managed.attrs["missing"] == nil)
        try realm.write { managed.items.append(.fromArray([.bool(true)])) }
        #expect(managed.items.last?.listValue?.first?.boolValue == true)
        // Deleting the object clears every Mixed link to it, as Realm does.
        try realm.write { realm.delete(try #require(realm.objects(MDog.self).first)) }
        #expect(managed.value == .none)
        #expect(managed.items[2] == .none && managed.attrs["dog"] == AnyRealmValue.none)
    }

    @Test func queriesCompareAcrossNumericTypes() throws {
        let config = try fileConfig([MBox.self, MDog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        try realm.write {
            for (i, value) in [AnyRealmValue.int(1), .double(1.0), .decimal128(Decimal128(1)), .string("1"), .int(7)]
                .enumerated()
            {
                realm.create(MBox.self, value: ["id": i, "value": value])
            }
        }
        #expect(realm.objects(MBox.self).where { $0.value == .int(1) }.count == 3)
        #expect(realm.objects(MBox.self).where { $0.value == .string("1") }.count == 1)
        #expect(realm.objects(MBox.self).where { $0.value > .double(2) }.count == 1)
        #expect(realm.objects(MBox.self).filter("value.@type == 'numeric'").count == 4)
        #expect(realm.objects(MBox.self).filter("value == %@", 7).count == 1)
    }
}

/// A Mixed link names its class by its stored name; two classes of the program may share one
/// (in different scopes). Before, the link was read as the class registered last in the
/// process, not the one the Realm was opened with: reading it stopped with "differs from the
/// class stored" whenever another test had used its namesake meanwhile (seen in full runs).
@Suite struct MixedLinkClassTests {
    enum First { final class MXDog: Object { @Persisted var name = "" } }
    enum Second {
        final class MXDog: Object {
            @Persisted var name = ""
            @Persisted var age = 0
        }
    }
    final class MXBox: Object { @Persisted var value: AnyRealmValue }

    @Test func aMixedLinkIsReadAsTheRealmsClassOfThatName() throws {
        let realm = try Realm(configuration: memoryConfig([MXBox.self, First.MXDog.self]))
        try realm.write {
            let box = MXBox()
            box.value = .object(First.MXDog(value: ["name": "Rex"]))
            realm.add(box)
        }
        _ = Second.MXDog.sharedSchema()  // the namesake is known to the process last
        let box = try #require(realm.objects(MXBox.self).first)
        #expect(box.value.object(First.MXDog.self)?.name == "Rex")
    }
}
