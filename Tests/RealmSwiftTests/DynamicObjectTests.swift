import Foundation
import Testing
import RealmSwift

/// Realm Swift's dynamic API: `DynamicObject` (a live object read and written by property name,
/// its values as RealmSwift types), `realm.dynamicObjects(_:)` (live `Results<DynamicObject>`),
/// `dynamicObject(ofType:forPrimaryKey:)` and `dynamicCreate(_:value:update:)`.
@Suite struct DynamicObjectTests {
    final class DOAddress: EmbeddedObject { @Persisted var city = "" }
    final class DOPerson: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var flag = false
        @Persisted var ratio: Float = 0
        @Persisted var score = 0.0
        @Persisted var born = Date(timeIntervalSince1970: 0)
        @Persisted var photo = Data()
        @Persisted var oid = ObjectId("0123456789abcdef01234567")
        @Persisted var uid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
        @Persisted var price = Decimal128(0)
        @Persisted var nick: String?
        @Persisted var anything: AnyRealmValue
        @Persisted var tags: MutableSet<String>
        @Persisted var attrs: Map<String, Int>
        @Persisted var address: DOAddress?
        @Persisted var friend: DOPerson?
        @Persisted var friends: List<DOPerson>
        @Persisted var scores: List<Int>
        @Persisted var buddies: MutableSet<DOPerson>
        @Persisted var contacts: Map<String, DOPerson?>
    }
    static let types: [Object.Type] = [DOPerson.self, DOAddress.self]

    /// Ada (id 1, 40) with every kind of value, linking to Bob (id 2, 3) and Cy (id 3, 7).
    func filled(_ realm: Realm) throws -> DOPerson {
        try realm.write {
            let bob = realm.create(DOPerson.self, value: ["id": 2, "name": "Bob", "age": 3])
            let cy = realm.create(DOPerson.self, value: ["id": 3, "name": "Cy", "age": 7])
            let ada = realm.create(
                DOPerson.self,
                value: [
                    "id": 1, "name": "Ada", "age": 40, "flag": true, "ratio": Float(1.5), "score": 2.25,
                    "born": Date(timeIntervalSince1970: 1_600_000_000), "photo": Data([1, 2, 3]),
                    "oid": ObjectId("ffffffffffffffffffffffff"), "price": Decimal128("12.50"),
                    "tags": ["a", "b"], "attrs": ["k": 5], "address": ["city": "Oslo"], "scores": [4, 5, 6],
                ])
            ada.anything = .fromArray([.int(1), .fromArray([.string("deep")])])
            ada.friend = bob
            ada.friends.append(objectsIn: [bob, cy, bob])
            ada.buddies.insert(cy)
            ada.contacts["best"] = bob
            return ada
        }
    }

    @Test func readsEveryKindOfPropertyAsItsRealmSwiftType() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        _ = try filled(realm)
        let ada = try #require(realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 1))
        #expect(ada["name"] as? String == "Ada" && ada.name as? String == "Ada")
        #expect(ada["age"] as? Int == 40 && ada["flag"] as? Bool == true)
        #expect(ada["ratio"] as? Float == 1.5 && ada["score"] as? Double == 2.25)
        #expect(ada["born"] as? Date == Date(timeIntervalSince1970: 1_600_000_000))
        #expect(ada["photo"] as? Data == Data([1, 2, 3]))
        #expect(ada["oid"] as? ObjectId == ObjectId("ffffffffffffffffffffffff"))
        #expect(ada["uid"] as? UUID == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))
        #expect(ada["price"] as? Decimal128 == Decimal128("12.50"))
        #expect(ada["nick"] == nil)
        let anything = try #require(ada["anything"] as? AnyRealmValue)
        let outer = try #require(anything.listValue)
        #expect(outer.count == 2 && outer[0] == .int(1) && outer[1].listValue?.first == .string("deep"))
        let tags = try #require(ada["tags"] as? MutableSet<String>)
        #expect(tags.count == 2 && tags.contains("a"))
        let attrs = try #require(ada["attrs"] as? Map<String, Int>)
        #expect(attrs["k"] == 5)
        let address = try #require(ada["address"] as? DynamicObject)
        #expect(address["city"] as? String == "Oslo" && address.objectSchema.className == "DOAddress")
        let friend = try #require(ada["friend"] as? DynamicObject)
        #expect(friend["name"] as? String == "Bob")
        let friends = try #require(ada["friends"] as? List<DynamicObject>)
        #expect(friends.map { $0["name"] as? String } == ["Bob", "Cy", "Bob"])
        #expect(ada.dynamicList("friends")[1]["age"] as? Int == 7)
        #expect((ada["scores"] as? List<Int>).map { Array($0) } == [4, 5, 6])
        #expect(ada.dynamicMutableSet("buddies").map { $0["name"] as? String } == ["Cy"])
        let best = try #require(ada.dynamicMap("contacts")["best"] ?? nil)
        #expect(best["name"] as? String == "Bob")
    }

    @Test func isLiveAndWritesGoToTheObject() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let typed = try filled(realm)
        let one = try #require(realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 1))
        let other = try #require(realm.dynamicObjects("DOPerson").filter("name == 'Ada'").first)
        try realm.write {
            one["age"] = 41
            one.nick = "A"
            one["price"] = Decimal128("0.1")
            one["friend"] = realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 3)
            one.dynamicList("friends").append(try #require(realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 3)))
        }
        #expect(other["age"] as? Int == 41 && typed.age == 41 && typed.nick == "A")
        #expect(typed.price == Decimal128("0.1") && typed.friend?.name == "Cy")
        #expect(typed.friends.map(\.name) == ["Bob", "Cy", "Bob", "Cy"])
        try realm.write { typed.name = "Ada L" }
        #expect(one["name"] as? String == "Ada L" && one == other)
    }

    @Test func aValueThatDoesNotFitMakesTheWriteThrow() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        _ = try filled(realm)
        let ada = try #require(realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 1))
        #expect(throws: RealmError.self) { try realm.write { ada["age"] = "old" } }
        #expect(throws: RealmError.self) { try realm.write { ada["name"] = nil } }
        #expect(ada["age"] as? Int == 40 && ada["name"] as? String == "Ada")
    }

    @Test func writingOutsideAWriteTransactionStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try Realm(configuration: memoryConfig(DynamicObjectTests.types))
            try realm.write { realm.create(DOPerson.self, value: ["id": 1]) }
            let object = realm.dynamicObjects("DOPerson")[0]
            object["age"] = 3
            print("not stopped")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("outside of a write transaction"), "\(message)")
    }

    @Test func anUnknownPropertyNameStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try Realm(configuration: memoryConfig(DynamicObjectTests.types))
            try realm.write { realm.create(DOPerson.self, value: ["id": 1]) }
            let value = realm.dynamicObjects("DOPerson")[0]["weight"]
            print("not stopped: \(String(describing: value))")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("DOPerson has no property 'weight'"), "\(message)")
    }

    @Test func listingAnEmbeddedClassStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try Realm(configuration: memoryConfig(DynamicObjectTests.types))
            print("not stopped: \(realm.dynamicObjects("DOAddress").count)")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("DOAddress is an embedded class"), "\(message)")
    }

    @Test func resultsFilterSortAndFreeze() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        _ = try filled(realm)
        let all = realm.dynamicObjects("DOPerson")
        #expect(all.count == 3)
        #expect(all.filter("age > %@", 3).count == 2)
        #expect(all.sorted(byKeyPath: "age").map { $0["name"] as? String } == ["Bob", "Cy", "Ada"])
        let frozen = all.freeze()
        try realm.write { realm.dynamicCreate("DOPerson", value: ["id": 4, "name": "Dee"]) }
        #expect(all.count == 4 && frozen.count == 3 && frozen.isFrozen)
        #expect(frozen.sorted(byKeyPath: "age").first?["name"] as? String == "Bob")
    }

    @Test func observingResultsDeliversChanges() throws {
        let config = try fileConfig(Self.types)
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        _ = try filled(realm)
        var log: [String] = []
        let token = realm.dynamicObjects("DOPerson").filter("age > 5").sorted(byKeyPath: "id").observe { change in
            switch change {
            case .initial(let r): log.append("initial \(r.count)")
            case .update(let r, let d, let i, let m): log.append("\(r.count) d\(d) i\(i) m\(m)")
            case .error(let e): Issue.record(e)
            }
        }
        defer { token.invalidate() }
        realm.refresh()
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.dynamicObject(ofType: "DOPerson", forPrimaryKey: 2)?["age"] = 30 }
        }
        realm.refresh()
        // Ada links to Bob: his change is a change of hers, as in Realm.
        #expect(log == ["initial 2", "3 d[] i[1] m[0]"])
    }

    @Test func primaryKeyLookupAnswersNilForAMissingObject() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        _ = try filled(realm)
        #expect(realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 99) == nil)
        #expect(realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 2)?["name"] as? String == "Bob")
    }

    @Test func createFromADictionaryAndWithAnUpdatePolicy() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        _ = try filled(realm)
        let made = try realm.write {
            realm.dynamicCreate(
                "DOPerson",
                value: [
                    "id": 5, "name": "Eve", "price": "3.30", "tags": ["x"], "attrs": ["a": 1],
                    "address": ["city": "Rome"],
                    "friends": [realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 2) as Any],
                    "friend": ["id": 6, "name": "Fay"],
                ])
        }
        #expect(made["name"] as? String == "Eve" && made.isManaged)
        let eve = try #require(realm.object(ofType: DOPerson.self, forPrimaryKey: 5))
        #expect(eve.price == Decimal128("3.30") && Array(eve.tags) == ["x"] && eve.attrs["a"] == 1)
        #expect(eve.address?.city == "Rome" && eve.friends.map(\.name) == ["Bob"] && eve.friend?.name == "Fay")
        #expect(eve.age == 0 && eve.nick == nil)
        try realm.write { realm.dynamicCreate("DOPerson", value: ["id": 5, "age": 9], update: .modified) }
        #expect(eve.age == 9 && eve.name == "Eve" && realm.dynamicObjects("DOPerson").count == 5)
        #expect(throws: RealmError.self) { try realm.write { realm.dynamicCreate("DOPerson", value: ["id": 5]) } }
        #expect(eve.age == 9)
    }

    @Test func describesItselfFromTheStoredSchema() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        _ = try filled(realm)
        let ada = try #require(realm.dynamicObjects("DOPerson").filter("id == 1").first)
        #expect(ada.objectSchema.className == "DOPerson")
        #expect(ada.description.contains("name = Ada"))
        #expect(realm.schema["DOPerson"].map { $0.objectClass === DOPerson.self } == true)
    }

    @Test func aDynamicObjectFreezesAndIsObserved() throws {
        let config = try fileConfig(Self.types)
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        _ = try filled(realm)
        let bob = try #require(realm.dynamicObject(ofType: "DOPerson", forPrimaryKey: 2))
        let frozen = bob.freeze()
        var changed: [String] = []
        let token = bob.observe { change in
            if case .change(let object, let properties) = change {
                changed += properties.map(\.name)
                changed.append("\(object["age"] ?? "nil")")
            }
        }
        defer { token.invalidate() }
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.dynamicObject(ofType: "DOPerson", forPrimaryKey: 2)?["age"] = 4 }
        }
        realm.refresh()
        #expect(changed == ["age", "4"])
        #expect(frozen.isFrozen && frozen["age"] as? Int == 3 && bob["age"] as? Int == 4)
    }

    /// The dynamic API's reason to be: a class the file has and the program has no model of.
    @Test func aClassWithoutAModelIsReadAndWritten() throws {
        let config = try fileConfig(Self.types)
        defer { removeFolder(of: config) }
        do {
            _ = try RealmEngine.Realm(
                path: try #require(config.fileURL).path,
                schema: Schema([
                    ObjectSchema(
                        name: "DOParrot",
                        properties: [
                            Property(name: "name", type: .string), Property(name: "age", type: .int),
                            Property(name: "words", type: .string, isList: true),
                            Property(name: "mate", type: .object, isOptional: true, objectClassName: "DOParrot"),
                        ])
                ]))
        }
        let realm = try Realm(configuration: config)
        _ = try filled(realm)
        let polly = try realm.write {
            realm.dynamicCreate(
                "DOParrot", value: ["name": "Polly", "age": 3, "words": ["hello"], "mate": ["Kea", 1]])
        }
        #expect((polly["mate"] as? DynamicObject)?["name"] as? String == "Kea" && polly.mate is DynamicObject)
        try realm.write { (polly["words"] as? List<String>)?.append("bye") }
        #expect((polly["words"] as? List<String>).map { Array($0) } == ["hello", "bye"])
        // No model gives defaults: a required value not given is an error, not a zero.
        #expect(throws: RealmError.self) { try realm.write { realm.dynamicCreate("DOParrot", value: ["name": "Ara"]) } }
        #expect(
            realm.dynamicObjects("DOParrot").sorted(byKeyPath: "name").map { $0["name"] as? String } == [
                "Kea", "Polly",
            ])
        #expect(realm.schema["DOParrot"].map { $0.objectClass === DynamicObject.self } == true)
    }

    @Test func resultsSetAValueOnEveryObjectAndObjectsAreDeleted() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        _ = try filled(realm)
        let all = realm.dynamicObjects("DOPerson")
        try realm.write { all.filter("age < 10").setValue(1, forKey: "age") }
        #expect(all.sorted(byKeyPath: "id").value(forKey: "age") as? [Int] == [40, 1, 1])
        try realm.write { realm.delete(try #require(all.filter("id == 3").first)) }
        #expect(all.count == 2 && realm.objects(DOPerson.self).count == 2)
    }
}
