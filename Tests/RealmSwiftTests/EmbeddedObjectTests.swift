import Foundation
import Testing
import RealmSwift

/// `EmbeddedObject` as in Realm Swift 10: an object owned by exactly one parent through a
/// to-one link, a list or a map; made by giving it to the parent (copied in), replaced and
/// deleted with it; never added, created or listed on its own; queried, sorted and observed
/// through its parent's key paths; with backlinks to its parent; no primary key.
@Suite struct EmbeddedObjectTests {
    final class EOGeo: EmbeddedObject {
        @Persisted var lat = 0.0
    }

    final class EOAddress: EmbeddedObject {
        @Persisted var city = ""
        @Persisted var geo: EOGeo?
        @Persisted(originProperty: "address") var owners: LinkingObjects<EOPerson>
    }

    final class EOPerson: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var age = 0
        @Persisted var address: EOAddress?
        @Persisted var previous: List<EOAddress>
        @Persisted var places: Map<String, EOAddress?>
    }

    static let types: [Object.Type] = [EOPerson.self, EOAddress.self, EOGeo.self]

    static func address(_ city: String, lat: Double? = nil) -> EOAddress {
        let a = EOAddress()
        a.city = city
        if let lat {
            let g = EOGeo()
            g.lat = lat
            a.geo = g
        }
        return a
    }

    @Test func theClassIsEmbeddedInTheSchema() throws {
        #expect(EOAddress.sharedSchema().isEmbedded)
        #expect(EOPerson.sharedSchema().isEmbedded == false)
        let realm = try Realm(configuration: memoryConfig(Self.types))
        #expect(realm.schema["EOAddress"]?.isEmbedded == true)
        #expect(realm.schema["EOGeo"]?.isEmbedded == true)
        #expect(realm.schema["EOPerson"]?.isEmbedded == false)
    }

    @Test func aRealmWithoutObjectTypesFindsEmbeddedClasses() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: UUID().uuidString))
        #expect(realm.schema["EOAddress"]?.isEmbedded == true)
        #expect(realm.schema["EOGeo"]?.isEmbedded == true)
    }

    @Test func addingAParentAddsItsUnmanagedEmbeddedObjects() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = EOPerson()
        ada.name = "Ada"
        ada.address = Self.address("Oslo", lat: 59.9)
        ada.previous.append(Self.address("Bergen"))
        ada.previous.append(Self.address("Tromsø", lat: 69.6))
        ada.places["work"] = Self.address("Trondheim")
        ada.places["none"] = nil as EOAddress?
        try realm.write { realm.add(ada) }
        let stored = try #require(realm.object(ofType: EOPerson.self, forPrimaryKey: "Ada"))
        #expect(stored.address?.city == "Oslo")
        #expect(stored.address?.geo?.lat == 59.9)
        #expect(stored.address?.isManaged == true)
        #expect(stored.previous.map(\.city) == ["Bergen", "Tromsø"])
        #expect(stored.previous[1].geo?.lat == 69.6)
        #expect(stored.places["work"]??.city == "Trondheim")
        #expect(stored.places.keys.sorted() == ["none", "work"])
        #expect(stored.address?.owners.map(\.name) == ["Ada"])
    }

    @Test func createAndValueInitTakeNestedDictionariesAndArrays() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        try realm.write {
            realm.create(
                EOPerson.self,
                value: [
                    "name": "Ada", "address": ["city": "Oslo", "geo": ["lat": 1.5]],
                    "previous": [["city": "Bergen"], ["Tromsø"]],
                    "places": ["home": ["city": "Moss"]],
                ])
            realm.add(EOPerson(value: ["name": "Bo", "address": ["city": "Lund"], "previous": [["city": "Malmö"]]]))
        }
        let ada = try #require(realm.object(ofType: EOPerson.self, forPrimaryKey: "Ada"))
        #expect(ada.address?.city == "Oslo")
        #expect(ada.address?.geo?.lat == 1.5)
        #expect(ada.previous.map(\.city) == ["Bergen", "Tromsø"])
        #expect(ada.places["home"]??.city == "Moss")
        let bo = try #require(realm.object(ofType: EOPerson.self, forPrimaryKey: "Bo"))
        #expect(bo.address?.city == "Lund")
        #expect(bo.previous.first?.city == "Malmö")
    }

    @Test func assigningANewOneCopiesItInAndDeletesTheOld() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = EOPerson()
        ada.name = "Ada"
        ada.address = Self.address("Oslo", lat: 1)
        try realm.write { realm.add(ada) }
        let first = try #require(ada.address)
        let firstGeo = try #require(first.geo)
        let bergen = Self.address("Bergen")
        try realm.write { ada.address = bergen }
        #expect(first.isInvalidated)
        #expect(firstGeo.isInvalidated)
        #expect(ada.address?.city == "Bergen")
        // The unmanaged instance given is now the managed embedded object, as in RealmSwift.
        #expect(bergen.isManaged)
        try realm.write { bergen.city = "Bergen sentrum" }
        #expect(ada.address?.city == "Bergen sentrum")
        let second = try #require(ada.address)
        try realm.write { ada.address = nil }
        #expect(second.isInvalidated)
        #expect(ada.address == nil)
    }

    @Test func appendingToAListAndPuttingIntoAMapCopiesThemIn() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = EOPerson()
        ada.name = "Ada"
        try realm.write { realm.add(ada) }
        try realm.write {
            ada.previous.append(Self.address("Bergen"))
            ada.previous.append(objectsIn: [Self.address("Moss"), Self.address("Lund")])
            ada.places["home"] = Self.address("Oslo")
        }
        #expect(ada.previous.map(\.city) == ["Bergen", "Moss", "Lund"])
        #expect(ada.places["home"]??.city == "Oslo")
        let removed = ada.previous[1]
        try realm.write { ada.previous.remove(at: 1) }
        #expect(removed.isInvalidated)
        #expect(ada.previous.map(\.city) == ["Bergen", "Lund"])
    }

    @Test func anEmbeddedListIsReordered() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = try realm.write {
            realm.create(
                EOPerson.self, value: ["name": "Ada", "previous": [["city": "A"], ["city": "B"], ["city": "C"]]])
        }
        let a = ada.previous[0]
        try realm.write { ada.previous.swapAt(0, 2) }
        #expect(ada.previous.map(\.city) == ["C", "B", "A"])
        try realm.write { ada.previous.move(from: 0, to: 1) }
        #expect(ada.previous.map(\.city) == ["B", "C", "A"])
        #expect(a.isInvalidated == false && a.city == "A")
    }

    @Test func anEmbeddedObjectHasOneParent() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        try realm.write {
            realm.create(EOPerson.self, value: ["name": "Ada", "address": ["city": "Oslo"]])
            realm.create(EOPerson.self, value: ["name": "Bo"])
        }
        let ada = try #require(realm.object(ofType: EOPerson.self, forPrimaryKey: "Ada"))
        let bo = try #require(realm.object(ofType: EOPerson.self, forPrimaryKey: "Bo"))
        // RealmSwift throws "Can't set link to existing managed embedded object".
        #expect(throws: RealmError.self) { try realm.write { bo.address = ada.address } }
        #expect(bo.address == nil)
        #expect(ada.address?.city == "Oslo")
        // Giving the parent its own embedded object again changes nothing.
        try realm.write { ada.address = ada.address }
        #expect(ada.address?.city == "Oslo")
    }

    @Test func aManagedEmbeddedObjectGivenAsAValueIsCopied() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = try realm.write {
            realm.create(EOPerson.self, value: ["name": "Ada", "address": ["city": "Oslo", "geo": ["lat": 3.0]]])
        }
        let home = try #require(ada.address)
        try realm.write {
            realm.create(EOPerson.self, value: ["name": "Bo", "address": home, "previous": [home]])
            let cy = EOPerson(value: ["name": "Cy", "address": home])
            realm.add(cy)
        }
        for name in ["Bo", "Cy"] {
            let copy = try #require(realm.object(ofType: EOPerson.self, forPrimaryKey: name))
            #expect(copy.address?.city == "Oslo" && copy.address?.geo?.lat == 3.0)
            #expect(copy.address != home)
        }
        #expect(realm.object(ofType: EOPerson.self, forPrimaryKey: "Bo")?.previous.first?.city == "Oslo")
        #expect(home.isInvalidated == false && home.owners.map(\.name) == ["Ada"])
    }

    @Test func deletingTheParentDeletesItsEmbeddedObjects() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        try realm.write {
            realm.create(
                EOPerson.self,
                value: [
                    "name": "Ada", "address": ["city": "Oslo", "geo": ["lat": 2.0]],
                    "previous": [["city": "Bergen"]], "places": ["home": ["city": "Moss"]],
                ])
        }
        let ada = try #require(realm.object(ofType: EOPerson.self, forPrimaryKey: "Ada"))
        let home = try #require(ada.address)
        let geo = try #require(home.geo)
        let old = ada.previous[0]
        let place = try #require(ada.places["home"] ?? nil)
        try realm.write { realm.delete(ada) }
        #expect(home.isInvalidated && geo.isInvalidated && old.isInvalidated && place.isInvalidated)
    }

    @Test func addingOrCreatingOneOnItsOwnMakesTheWriteThrow() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let oslo = Self.address("Oslo")
        #expect(throws: RealmError.self) { try realm.write { realm.add(oslo) } }
        #expect(oslo.isManaged == false)
        #expect(throws: RealmError.self) { try realm.write { realm.create(EOAddress.self, value: ["city": "Oslo"]) } }
    }

    @Test func listingAnEmbeddedClassStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try Realm(configuration: memoryConfig(EmbeddedObjectTests.types))
            let all = realm.objects(EOAddress.self)
            print("not stopped: \(all.count)")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("EOAddress is an embedded class"), "\(message)")
    }

    @Test func anEmbeddedClassCannotHaveAPrimaryKey() throws {
        // Left out of the default schema: every Realm opened without objectTypes would fail.
        final class EOKeyed: EmbeddedObject {
            override class func _realmIgnoreClass() -> Bool { true }
            @Persisted(primaryKey: true) var id = 0
        }
        final class EOKeyedOwner: Object {
            override class func _realmIgnoreClass() -> Bool { true }
            @Persisted var keyed: EOKeyed?
        }
        #expect(throws: RealmError.self) {
            _ = try Realm(configuration: memoryConfig([EOKeyedOwner.self, EOKeyed.self]))
        }
    }

    @Test func queriesAndSortsGoThroughEmbeddedObjects() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        try realm.write {
            realm.create(
                EOPerson.self, value: ["name": "Ada", "address": ["city": "Oslo"], "previous": [["city": "Bergen"]]])
            realm.create(EOPerson.self, value: ["name": "Bo", "address": ["city": "Lund"]])
            realm.create(EOPerson.self, value: ["name": "Cy", "address": ["city": "Bergen"]])
        }
        let people = realm.objects(EOPerson.self)
        #expect(people.where { $0.address.city == "Oslo" }.map(\.name) == ["Ada"])
        #expect(people.filter("address.city == 'Lund'").map(\.name) == ["Bo"])
        #expect(people.filter("ANY previous.city == 'Bergen'").map(\.name) == ["Ada"])
        #expect(people.where { $0.previous.city == "Bergen" }.map(\.name) == ["Ada"])
        #expect(people.sorted(byKeyPath: "address.city").map(\.name) == ["Cy", "Bo", "Ada"])
    }

    @Test func aChangeInsideAnEmbeddedObjectNotifiesByKeyPath() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = try realm.write { realm.create(EOPerson.self, value: ["name": "Ada", "address": ["city": "Oslo"]]) }
        var objectChanges: [[String]] = []
        let objectToken = ada.observe(keyPaths: ["address.city"]) { change in
            if case .change(_, let properties) = change { objectChanges.append(properties.map(\.name)) }
        }
        defer { objectToken.invalidate() }
        var resultsModifications: [[Int]] = []
        let resultsToken = realm.objects(EOPerson.self).observe(keyPaths: ["address.city"]) { change in
            if case .update(_, _, _, let modifications) = change { resultsModifications.append(modifications) }
        }
        defer { resultsToken.invalidate() }
        realm.refresh()
        try realm.write { ada.age = 7 }  // not watched
        realm.refresh()
        try realm.write { ada.address?.city = "Bergen" }
        realm.refresh()
        #expect(objectChanges == [["address.city"]])
        #expect(resultsModifications == [[0]])
    }

    @Test func typedKeyPathsAndMapEntriesReachIntoEmbeddedObjects() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = try realm.write {
            realm.create(
                EOPerson.self,
                value: ["name": "Ada", "address": ["city": "Oslo"], "places": ["home": ["city": "Moss"]]])
        }
        try realm.write { realm.create(EOPerson.self, value: ["name": "Bo", "places": ["home": ["city": "Lund"]]]) }
        var changed: [[String]] = []
        let token = ada.observe(keyPaths: [\EOPerson.address?.city]) { change in
            if case .change(_, let properties) = change { changed.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { ada.address?.geo = EOGeo() }  // not watched
        realm.refresh()
        try realm.write { ada.address?.city = "Bergen" }
        realm.refresh()
        #expect(changed == [["address.city"]])
        let people = realm.objects(EOPerson.self)
        #expect(people.filter("places['home'].city == 'Lund'").map(\.name) == ["Bo"])
        #expect(people.where { $0.places["home"].city == "Moss" }.map(\.name) == ["Ada"])
    }

    @Test func anEmbeddedObjectIsObservedAndDeletedOnItsOwn() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = try realm.write {
            realm.create(
                EOPerson.self,
                value: ["name": "Ada", "address": ["city": "Oslo"], "previous": [["city": "Moss"], ["city": "Lund"]]])
        }
        let home = try #require(ada.address)
        var events: [String] = []
        let token = home.observe { change in
            switch change {
            case .change(_, let properties): events.append(properties.map(\.name).joined(separator: ","))
            case .deleted: events.append("deleted")
            case .error(let error): events.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { home.city = "Bergen" }
        realm.refresh()
        // Deleting an embedded object itself takes it out of its parent.
        let moss = ada.previous[0]
        try realm.write {
            realm.delete(moss)
            realm.delete(home)
        }
        realm.refresh()
        #expect(events == ["city", "deleted"])
        #expect(moss.isInvalidated && ada.address == nil && ada.previous.map(\.city) == ["Lund"])
    }

    @Test func aFrozenParentReadsItsEmbeddedObjects() throws {
        let realm = try Realm(configuration: memoryConfig(Self.types))
        let ada = try realm.write {
            realm.create(
                EOPerson.self, value: ["name": "Ada", "address": ["city": "Oslo"], "previous": [["city": "Moss"]]])
        }
        let frozen = ada.freeze()
        try realm.write { ada.address?.city = "Bergen" }
        #expect(frozen.address?.city == "Oslo")
        #expect(frozen.previous.first?.city == "Moss")
        #expect(frozen.address?.isFrozen == true)
    }

    final class EOAddressV0: Object {
        override class func _realmObjectName() -> String? { "EOMAddress" }
        @Persisted var city = ""
    }
    final class EOPersonV0: Object {
        override class func _realmObjectName() -> String? { "EOMPerson" }
        @Persisted var name = ""
        @Persisted var address: EOAddressV0?
    }
    final class EOAddressV1: EmbeddedObject {
        override class func _realmObjectName() -> String? { "EOMAddress" }
        @Persisted var city = ""
    }
    final class EOPersonV1: Object {
        override class func _realmObjectName() -> String? { "EOMPerson" }
        @Persisted var name = ""
        @Persisted var address: EOAddressV1?
    }

    @Test func aMigrationMakesAClassEmbeddedAndEnumeratesIt() throws {
        let v0 = try fileConfig([EOPersonV0.self, EOAddressV0.self])
        defer { removeFolder(of: v0) }
        do {
            let realm = try Realm(configuration: v0)
            try realm.write {
                realm.create(EOPersonV0.self, value: ["name": "Ada", "address": ["city": "oslo"]])
                realm.create(EOPersonV0.self, value: ["name": "Bo", "address": ["city": "lund"]])
            }
        }
        nonisolated(unsafe) var seen: [String] = []
        let v1 = Realm.Configuration(
            fileURL: v0.fileURL, schemaVersion: 1,
            migrationBlock: { migration, _ in
                migration.enumerateObjects(ofType: "EOMAddress") { _, new in
                    guard let new, let city = new["city"] as? String else { return }
                    seen.append(city)
                    new["city"] = city.capitalized
                }
            }, objectTypes: [EOPersonV1.self, EOAddressV1.self])
        let realm = try Realm(configuration: v1)
        #expect(seen.sorted() == ["lund", "oslo"])
        #expect(realm.schema["EOMAddress"]?.isEmbedded == true)
        #expect(realm.objects(EOPersonV1.self).sorted(byKeyPath: "name").map { $0.address?.city } == ["Oslo", "Lund"])
    }

    final class EOAddressV2: EmbeddedObject {
        override class func _realmObjectName() -> String? { "EOMAddress" }
        @Persisted var city = ""
        @Persisted var zip = ""
    }
    final class EOPersonV2: Object {
        override class func _realmObjectName() -> String? { "EOMPerson" }
        @Persisted var name = ""
        @Persisted var address: EOAddressV2?
    }

    @Test func aMigrationEnumeratesAnEmbeddedClassAndAddsAProperty() throws {
        let v1 = try fileConfig([EOPersonV1.self, EOAddressV1.self])
        defer { removeFolder(of: v1) }
        do {
            let realm = try Realm(
                configuration: Realm.Configuration(
                    fileURL: v1.fileURL, schemaVersion: 1, objectTypes: [EOPersonV1.self, EOAddressV1.self]))
            try realm.write { realm.create(EOPersonV1.self, value: ["name": "Ada", "address": ["city": "Oslo"]]) }
        }
        let v2 = Realm.Configuration(
            fileURL: v1.fileURL, schemaVersion: 2,
            migrationBlock: { migration, _ in
                migration.enumerateObjects(ofType: "EOMAddress") { old, new in
                    new?["zip"] = old?["city"] as? String == "Oslo" ? "0150" : "?"
                }
            }, objectTypes: [EOPersonV2.self, EOAddressV2.self])
        let realm = try Realm(configuration: v2)
        let ada = try #require(realm.objects(EOPersonV2.self).first)
        #expect(ada.address?.zip == "0150" && ada.address?.city == "Oslo")
    }

    @Test func makingAClassEmbeddedWithAnOrphanFails() throws {
        let v0 = try fileConfig([EOPersonV0.self, EOAddressV0.self])
        defer { removeFolder(of: v0) }
        do {
            let realm = try Realm(configuration: v0)
            try realm.write { realm.create(EOAddressV0.self, value: ["city": "nowhere"]) }
        }
        let v1 = Realm.Configuration(
            fileURL: v0.fileURL, schemaVersion: 1, objectTypes: [EOPersonV1.self, EOAddressV1.self])
        #expect(throws: RealmError.self) { _ = try Realm(configuration: v1) }
    }
}
