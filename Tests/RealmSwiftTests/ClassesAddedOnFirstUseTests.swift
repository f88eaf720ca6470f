import Foundation
import Testing
import RealmSwift

/// The seeds open a Realm without `objectTypes` and only then make their objects (RealmSwift
/// knows every class from the start). Without the Objective-C runtime a class is known once
/// used, so a class the file does not have is added on first use, with the classes it links to.
@Suite struct ClassesAddedOnFirstUseTests {
    func freshMemoryRealm() throws -> Realm {
        try Realm(configuration: Realm.Configuration(inMemoryIdentifier: UUID().uuidString))
    }

    @Test func aClassFirstUsedInsideAWriteIsAdded() throws {
        final class FirstUser: Object { @Persisted(primaryKey: true) var email = "" }
        let realm = try freshMemoryRealm()
        try realm.write { realm.create(FirstUser.self, value: ["email": "help@realm.io"], update: .modified) }
        #expect(realm.objects(FirstUser.self).first?.email == "help@realm.io")
        #expect(realm.schema["FirstUser"] != nil)
    }

    @Test func aClassAndTheClassesItLinksToAreAddedByAdd() throws {
        final class FirstPet: Object { @Persisted var name = "" }
        final class FirstOwner: Object {
            @Persisted var name = ""
            @Persisted var pets: List<FirstPet>
            @Persisted var favourite: FirstPet?
        }
        let realm = try freshMemoryRealm()
        let owner = FirstOwner()
        owner.name = "Tim"
        let pet = FirstPet()
        pet.name = "大黄"
        owner.pets.append(pet)
        owner.favourite = pet
        try realm.write { realm.add(owner) }
        #expect(realm.objects(FirstPet.self).count == 1)
        #expect(realm.objects(FirstOwner.self).filter("favourite.name == '大黄'").count == 1)
    }

    @Test func aClassFirstReadIsAddedEmpty() throws {
        final class FirstRead: Object { @Persisted var n = 0 }
        let realm = try freshMemoryRealm()
        #expect(realm.objects(FirstRead.self).isEmpty)
        try realm.write { realm.add(FirstRead()) }
        #expect(realm.objects(FirstRead.self).count == 1)
    }

    enum Left { final class Twin: Object { @Persisted var left = 0 } }
    enum Right { final class Twin: Object { @Persisted var right = "" } }

    @Test func twoClassesOfOneNameEachGetTheirOwnRealm() throws {
        _ = (Left.Twin(), Right.Twin())          // both discovered: the name is ambiguous
        let first = try freshMemoryRealm(), second = try freshMemoryRealm()
        try first.write { first.create(Left.Twin.self, value: ["left": 1]) }
        try second.write { second.create(Right.Twin.self, value: ["right": "r"]) }
        #expect(first.objects(Left.Twin.self).first?.left == 1)
        #expect(second.objects(Right.Twin.self).first?.right == "r")
    }

    @Test func aFileGainsTheClassAndKeepsItsData() throws {
        final class KeptDog: Object { @Persisted var name = "" }
        final class AddedCat: Object { @Persisted var name = "" }
        let config = try fileConfig([KeptDog.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            try realm.write { realm.create(KeptDog.self, value: ["name": "Rex"]) }
        }
        let untyped = Realm.Configuration(fileURL: config.fileURL)
        do {
            let realm = try Realm(configuration: untyped)
            try realm.write {
                realm.create(AddedCat.self, value: ["name": "Tom"])
                realm.create(KeptDog.self, value: ["name": "Fido"])
            }
        }
        let reopened = try Realm(configuration: untyped)
        #expect(reopened.objects(KeptDog.self).map(\.name) == ["Rex", "Fido"])
        #expect(reopened.objects(AddedCat.self).map(\.name) == ["Tom"])
    }

    @Test func anObserverOfAnotherClassSeesTheWriteThatAddedTheClass() throws {
        final class Watched: Object { @Persisted var n = 0 }
        final class Newcomer: Object { @Persisted var n = 0 }
        let realm = try freshMemoryRealm()
        try realm.write { realm.add(Watched()) }
        let watched = realm.objects(Watched.self)
        var counts: [Int] = []
        let token = watched.observe { change in
            switch change {
            case .initial(let results), .update(let results, _, _, _): counts.append(results.count)
            case .error(let error): Issue.record("\(error)")
            }
        }
        defer { token.invalidate() }
        let deadline = Date().addingTimeInterval(5)
        while counts.isEmpty && Date() < deadline { RunLoop.current.run(until: Date().addingTimeInterval(0.01)) }
        try realm.write {
            realm.add(Newcomer())
            realm.add(Watched())
        }
        while counts.last != 2 && Date() < deadline { RunLoop.current.run(until: Date().addingTimeInterval(0.01)) }
        #expect(counts.first == 1 && counts.last == 2)
        #expect(realm.objects(Newcomer.self).count == 1)
    }
}
