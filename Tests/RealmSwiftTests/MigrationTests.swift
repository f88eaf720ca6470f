import Foundation
import Testing
import RealmSwift

@Suite struct MigrationTests {
    final class PersonV0: Object {
        override class func _realmObjectName() -> String? { "Person" }
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var age = 0
    }
    final class PersonV1: Object {
        override class func _realmObjectName() -> String? { "Person" }
        @Persisted var fullName = ""
        @Persisted var age = 0
    }
    final class PersonV2: Object {
        override class func _realmObjectName() -> String? { "Person" }
        @Persisted var fullName = ""
        @Persisted var email = ""
        @Persisted var age = 0
    }

    /// A v0 file holding ("Tim", "Cook", 60).
    func v0File() throws -> Realm.Configuration {
        let config = try fileConfig([PersonV0.self])
        let realm = try Realm(configuration: config)
        try realm.write { realm.create(PersonV0.self, value: ["Tim", "Cook", 60]) }
        return config
    }

    func config(
        _ base: Realm.Configuration, _ version: UInt64, _ types: [Object.Type],
        _ block: MigrationBlock? = nil
    ) -> Realm.Configuration {
        Realm.Configuration(fileURL: base.fileURL, schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    @Test func addedAndRemovedPropertiesNeedNoCode() throws {
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        #expect(throws: (any Error).self) {
            _ = try Realm(configuration: .init(fileURL: v0.fileURL, objectTypes: [PersonV1.self]))
        }
        let c1 = config(v0, 1, [PersonV1.self]) { _, oldSchemaVersion in
            if oldSchemaVersion < 1 { /* nothing */  }
        }
        let realm = try Realm(configuration: c1)
        #expect(realm.objects(PersonV1.self).first!.age == 60)
        #expect(realm.objects(PersonV1.self).first!.fullName == "")
        #expect(realm.schema["Person"]?.properties.map(\.name) == ["fullName", "age"])
        #expect(realm.dynamicRealm.schemaVersion == 1)
    }

    final class PersonNarrowAge: Object {
        override class func _realmObjectName() -> String? { "Person" }
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var age: Int32 = 0
    }
    final class PersonTinyAge: Object {
        override class func _realmObjectName() -> String? { "Person" }
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var age: Int8 = 0
    }

    /// Int, Int32, Int8… are one integer type to Realm: a migration that changes the width keeps
    /// the values (it reset them to 0), and a value the new width cannot hold fails the
    /// migration with a clear error, the file unchanged.
    @Test func changingAnIntegersWidthKeepsItsValues() throws {
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        let realm = try Realm(configuration: config(v0, 1, [PersonNarrowAge.self]))
        #expect(realm.objects(PersonNarrowAge.self).first?.age == 60)
        let big = try v0File()
        defer { removeFolder(of: big) }
        let writer = try Realm(configuration: big)
        try writer.write { writer.create(PersonV0.self, value: ["Big", "Number", 3_000]) }
        #expect(throws: (any Error).self) { _ = try Realm(configuration: self.config(big, 1, [PersonTinyAge.self])) }
        let reopened = try Realm(configuration: big)
        #expect(reopened.objects(PersonV0.self).map(\.age).sorted() == [60, 3_000])
        #expect(reopened.dynamicRealm.schemaVersion == 0)
    }

    final class PersonTextAge: Object {
        override class func _realmObjectName() -> String? { "Person" }
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var age = ""
    }
    final class PersonRealAge: Object {
        override class func _realmObjectName() -> String? { "Person" }
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var age = 0.0
    }

    /// A property whose type changed kept nothing (every age became "" or 0.0); now each value
    /// converts (60 → "60" → 60.0), and one that does not ("sixty" → Double) fails the
    /// migration unless the block allows the loss.
    @Test func changingATypeConvertsEachValueOrFails() throws {
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        #expect(
            try Realm(configuration: config(v0, 1, [PersonTextAge.self])).objects(PersonTextAge.self).first?.age == "60"
        )
        #expect(
            try Realm(configuration: config(v0, 2, [PersonRealAge.self])).objects(PersonRealAge.self).first?.age == 60.0
        )
        let words = try fileConfig([PersonTextAge.self])
        defer { removeFolder(of: words) }
        let writer = try Realm(configuration: words)
        try writer.write { writer.create(PersonTextAge.self, value: ["Tim", "Cook", "sixty"]) }
        #expect { _ = try Realm(configuration: self.config(words, 1, [PersonRealAge.self])) } throws: { error in
            "\(error)".contains("\"sixty\" does not convert to double")
        }
        #expect(try Realm(configuration: words).objects(PersonTextAge.self).first?.age == "sixty")
        let lossy = try Realm(
            configuration: config(words, 1, [PersonRealAge.self]) { migration, _ in
                migration.allowsLossyTypeChanges = true
            })
        #expect(lossy.objects(PersonRealAge.self).first?.age == 0.0)
    }

    /// Without `objectTypes` a configuration cannot say what to migrate to: asking for another
    /// schema version than the file's is an error naming the remedy, and the file is untouched
    /// (it opened unmigrated, the block not run and the version not raised).
    @Test func aMigrationWithoutObjectTypesIsAnErrorNotSkipped() throws {
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        nonisolated(unsafe) var ran = false
        let untyped = Realm.Configuration(fileURL: v0.fileURL, schemaVersion: 1, migrationBlock: { _, _ in ran = true })
        #expect(throws: (any Error).self) { _ = try Realm(configuration: untyped) }
        do {
            _ = try Realm(configuration: untyped)
        } catch {
            #expect("\(error)".contains("objectTypes"), "\(error)")
        }
        #expect(!ran)
        let realm = try Realm(configuration: config(v0, 1, [PersonV1.self]) { _, _ in ran = true })
        #expect(ran && realm.dynamicRealm.schemaVersion == 1)
        // The same version without objectTypes opens the stored schema, as before.
        #expect(
            try Realm(configuration: Realm.Configuration(fileURL: v0.fileURL, schemaVersion: 1)).dynamicRealm
                .schemaVersion == 1)
    }

    /// Deleting the old object of an enumeration deletes the object, as deleting the new one
    /// does (it marked only the read-only old copy, and the object stayed in the file).
    @Test func deletingTheOldObjectDeletesTheObject() throws {
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        let realm = try Realm(
            configuration: config(v0, 1, [PersonV1.self]) { migration, _ in
                migration.enumerateObjects(ofType: "Person") { old, _ in
                    if old!["firstName"] as? String == "Tim" { migration.delete(old!) }
                }
            })
        #expect(realm.objects(PersonV1.self).isEmpty)
    }

    @Test func enumerateObjects() throws {
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        let c1b = config(v0, 1, [PersonV1.self]) { migration, oldSchemaVersion in
            if oldSchemaVersion < 1 {
                migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
                    let firstName = oldObject!["firstName"] as! String
                    let lastName = oldObject!["lastName"] as! String
                    newObject!["fullName"] = "\(firstName) \(lastName)"
                }
            }
        }
        #expect(try Realm(configuration: c1b).objects(PersonV1.self).first!.fullName == "Tim Cook")
        // Reopening at the same version runs nothing.
        #expect(try Realm(configuration: c1b).objects(PersonV1.self).first!.fullName == "Tim Cook")
    }

    @Test func linearMigrationFromEveryVersion() throws {
        let block: MigrationBlock = { migration, oldSchemaVersion in
            migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
                if oldSchemaVersion < 1 {
                    newObject!["fullName"] =
                        "\(oldObject!["firstName"] as! String) \(oldObject!["lastName"] as! String)"
                }
                if oldSchemaVersion < 2 { newObject!["email"] = "" }
            }
        }
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        let v1 = try fileConfig([PersonV1.self])
        defer { removeFolder(of: v1) }
        do {
            let r = try Realm(configuration: config(v1, 1, [PersonV1.self]))
            try r.write { r.create(PersonV1.self, value: ["JP McDonald", 62]) }
        }
        let fromV0 = try Realm(configuration: config(v0, 2, [PersonV2.self], block)).objects(PersonV2.self).first!
        #expect(fromV0.fullName == "Tim Cook" && fromV0.email == "" && fromV0.age == 60)
        let fromV1 = try Realm(configuration: config(v1, 2, [PersonV2.self], block)).objects(PersonV2.self).first!
        #expect(fromV1.fullName == "JP McDonald" && fromV1.email == "" && fromV1.age == 62)
    }

    @Test func reAddedPropertyMustBeCleared() throws {
        // v1 had email, v2 removed it, v3 adds it again: a v1 file opened at v3 keeps the v1
        // value unless the block clears it.
        for clear in [false, true] {
            let v1 = try fileConfig([PersonV2.self])
            defer { removeFolder(of: v1) }
            do {
                let r = try Realm(configuration: config(v1, 1, [PersonV2.self]))
                try r.write { r.create(PersonV2.self, value: ["Tim Cook", "old@example.com", 60]) }
            }
            let v3 = config(v1, 3, [PersonV2.self]) { migration, oldSchemaVersion in
                migration.enumerateObjects(ofType: "Person") { _, newObject in
                    if clear && oldSchemaVersion < 3 { newObject!["email"] = "" }
                }
            }
            #expect(
                try Realm(configuration: v3).objects(PersonV2.self).first!.email == (clear ? "" : "old@example.com"))
        }
    }

    final class StudentV0: Object {
        override class func _realmObjectName() -> String? { "Student" }
        @Persisted var name = ""
        @Persisted var score = 0
    }
    final class StudentV1: Object {
        override class func _realmObjectName() -> String? { "Student" }
        @Persisted var firstName = ""
        @Persisted var score = 0
    }
    final class StudentV2: Object {
        override class func _realmObjectName() -> String? { "Student" }
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var score = 0
    }

    @Test func renameAndSplit() throws {
        let base = try fileConfig([StudentV0.self])
        defer { removeFolder(of: base) }
        do {
            let r = try Realm(configuration: base)
            try r.write {
                r.create(StudentV0.self, value: ["Ada", 90])
                r.create(StudentV0.self, value: ["Bo", 80])
            }
        }
        do {
            let r = try Realm(
                configuration: config(base, 1, [StudentV1.self]) { migration, _ in
                    migration.renameProperty(onType: "Student", from: "name", to: "firstName")
                })
            #expect(r.objects(StudentV1.self).map(\.firstName) == ["Ada", "Bo"])
            #expect(r.objects(StudentV1.self).map(\.score) == [90, 80])
        }
        let split = try fileConfig([StudentV0.self])
        defer { removeFolder(of: split) }
        do {
            let r = try Realm(configuration: split)
            try r.write { r.create(StudentV0.self, value: ["Ada", 90]) }
        }
        let r = try Realm(
            configuration: config(split, 1, [StudentV2.self]) { migration, _ in
                migration.enumerateObjects(ofType: "Student") { old, new in
                    new!["firstName"] = old!["name"]
                    new!["lastName"] = "None"
                }
            })
        let s = r.objects(StudentV2.self).first!
        #expect(s.firstName == "Ada" && s.lastName == "None" && s.score == 90)
    }

    @Test func versionErrorsFailedMigrationsAndDeleteIfNeeded() throws {
        let v0 = try v0File()
        defer { removeFolder(of: v0) }
        _ = try Realm(configuration: config(v0, 2, [PersonV0.self]))  // same classes, version 0 → 2
        #expect(throws: (any Error).self) { _ = try Realm(configuration: self.config(v0, 1, [PersonV0.self])) }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            _ = try Realm(configuration: self.config(v0, 3, [PersonV1.self]) { _, _ in throw Refused() })
        }
        // nil for a required property fails the migration, and nothing is written.
        #expect(throws: (any Error).self) {
            _ = try Realm(
                configuration: self.config(v0, 3, [PersonV1.self]) { migration, _ in
                    migration.enumerateObjects(ofType: "Person") { _, new in new!["fullName"] = nil }
                })
        }
        do {
            let untouched = try Realm(configuration: config(v0, 2, [PersonV0.self]))
            #expect(
                untouched.objects(PersonV0.self).first!.firstName == "Tim" && untouched.dynamicRealm.schemaVersion == 2)
        }
        // Deleting needs every instance of the file in this process closed.
        var deleting = config(v0, 2, [PersonV1.self])
        deleting.deleteRealmIfMigrationNeeded = true
        #expect(try Realm(configuration: deleting).objects(PersonV1.self).isEmpty)
    }

    final class Owner: Object {
        @Persisted var name = ""
        @Persisted var pets: List<Pet>
    }
    final class OwnerV1: Object {
        override class func _realmObjectName() -> String? { "Owner" }
        @Persisted var name = ""
        @Persisted var nickname: String?
        @Persisted var pets: List<PetV1>
    }
    /// `Pet` of the migrated file: its links reach `OwnerV1` (reading them as the old `Owner`
    /// stops: that class is no longer the file's).
    final class PetV1: Object {
        override class func _realmObjectName() -> String? { "Pet" }
        @Persisted var name = ""
        @Persisted var best: OwnerV1?
        @Persisted(originProperty: "pets") var owners: LinkingObjects<OwnerV1>
    }
    final class Pet: Object {
        @Persisted var name = ""
        @Persisted var best: Owner?
        @Persisted(originProperty: "pets") var owners: LinkingObjects<Owner>
    }

    @Test func linksSurviveAndTheFileChecks() throws {
        let base = try fileConfig([Owner.self, Pet.self])
        defer { removeFolder(of: base) }
        do {
            let r = try Realm(configuration: base)
            try r.write {
                let o = r.create(Owner.self, value: ["name": "Ann", "pets": [["name": "a"], ["name": "b"]]])
                o.pets[0].best = o
                r.create(Owner.self, value: ["name": "Deleted"])
            }
        }
        let r = try Realm(
            configuration: config(base, 1, [OwnerV1.self, PetV1.self]) { migration, _ in
                migration.enumerateObjects(ofType: "Owner") { old, new in
                    if old!["name"] as? String == "Deleted" { migration.delete(new!) } else { new!["nickname"] = "A" }
                }
            })
        let owner = try #require(r.objects(OwnerV1.self).first)
        #expect(r.objects(OwnerV1.self).count == 1 && owner.nickname == "A")
        #expect(owner.pets.map(\.name) == ["a", "b"])
        #expect(owner.pets[0].best == owner && owner.pets[1].owners.first == owner)
        #expect(r.objects(PetV1.self).filter("ANY owners.name == 'Ann'").count == 2)
        let report = try RealmEngine.Realm.check(path: base.fileURL!.path)  // throws on any broken invariant
        #expect(
            report.objects["Owner"] == 1 && report.objects["Pet"] == 2,
            "\(report.objects) \(report.version) \(report.warnings)")
    }
}
