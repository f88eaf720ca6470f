import Foundation
import Testing
@testable import RealmEngine

@Suite struct ConfigurationTests {
    static let dogOnly = Schema([ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)])])

    @Test func objectTypesRestrictTheSchema() throws {
        let dir = TempDir()
        let schema = Schema(
            Fixtures.people.objectSchemas + [ObjectSchema(name: "Cat", properties: [Property(name: "n", type: .int)])])
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: dir.path("o.realm")), schema: schema,
                objectTypes: ["Cat"]))
        #expect(realm.schema.classNames == ["Cat"])
        #expect(throws: RealmError.self) {
            try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: dir.path("p.realm")), schema: schema, objectTypes: ["Dog"]))
        }
    }

    @Test func aDifferentSchemaIsAnErrorUnlessDeletingIsAllowed() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("a")]) }
        }
        #expect(throws: RealmError.self) { try Realm(path: path, schema: Self.dogOnly) }
        let fresh = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: Self.dogOnly,
                deleteRealmIfMigrationNeeded: true))
        #expect(fresh.schema == Self.dogOnly)
        #expect(try fresh.objects("Dog").count == 0)
    }

    @Test func aNewerSchemaVersionIsRefused() throws {
        let dir = TempDir()
        let path = dir.path("v.realm")
        _ = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.dogOnly, schemaVersion: 3))
        #expect(throws: RealmError.self) {
            try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.dogOnly, schemaVersion: 2))
        }
        #expect(
            try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: Self.dogOnly, schemaVersion: 3))
                .schemaVersion == 3)
    }

    @Test func shouldCompactOnLaunchCompactsAMostlyFreeFile() throws {
        let dir = TempDir()
        let path = dir.path("s.realm")
        do {
            let realm = try Realm(path: path, schema: Self.dogOnly)
            try realm.write { for i in 0..<12000 { try realm.create("Dog", ["name": .string("dog number \(i)")]) } }
            try realm.write { try realm.delete(try realm.objects("Dog").filter("name != 'dog number 7'")) }
        }
        let before = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        let asked = UncheckedBox(NSMutableArray())
        let realm = try Realm(
            configuration: .init(
                fileURL: URL(fileURLWithPath: path), schema: Self.dogOnly,
                shouldCompactOnLaunch: { total, used in
                    asked.value.add([total, used])
                    return used * 2 < total
                }))
        let after = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        #expect(asked.value.count == 1)
        #expect(after < before / 2, "\(before) → \(after)")
        #expect(try realm.objects("Dog").count == 1)
    }
}
