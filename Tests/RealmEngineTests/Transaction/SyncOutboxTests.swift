import Foundation
@testable import RealmEngine
import TestSupport
import Testing

/// The sync outbox (issue 27): in a file with sync configured, every commit queues what it
/// changed in the same transaction; a file without sync queues nothing; the internal classes are
/// never part of the schema users see.
@Suite struct SyncOutboxTests {
    static let person = ObjectSchema(
        name: "Person",
        properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "age", type: .int, isOptional: true),
        ])

    /// A file holding Person, with the outbox and sync state when `synced`.
    static func open(_ dir: TempDir, synced: Bool) throws -> Realm {
        var classes = [person]
        if synced { classes += [SyncClasses.outboxSchema, SyncClasses.stateSchema] }
        return try Realm(configuration: .file(dir.path("outbox.realm"), schema: Schema(classes)))
    }

    /// The outbox as (version, class, key, properties, created, deleted), in insertion order.
    static func outbox(_ realm: Realm) throws -> [(Int64, String, String, [String], Bool, Bool)] {
        try realm.objects(SyncClasses.outbox).map { o in
            guard case .int(let v) = try o.value(forKey: "version"),
                case .string(let c) = try o.value(forKey: "className"),
                case .string(let k) = try o.value(forKey: "primaryKey"),
                case .list(let ps) = try o.value(forKey: "properties"),
                case .bool(let created) = try o.value(forKey: "created"),
                case .bool(let deleted) = try o.value(forKey: "deleted")
            else { throw RealmError.invalidState("bad outbox entry") }
            return (v, c, k, ps.map { if case .string(let s) = $0 { s } else { "?" } }, created, deleted)
        }
    }

    @Test func everyCommitQueuesItsChangesWithItsVersion() throws {
        let dir = TempDir()
        let realm = try Self.open(dir, synced: true)
        try realm.write {
            _ = try realm.create("Person", ["id": .int(1), "name": .string("Ann")])
            _ = try realm.create("Person", ["id": .int(2), "name": .string("Bo")])
        }
        let created = Int64(realm.version)
        try realm.write {
            try realm.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.int(40), forKey: "age")
            if let bo = try realm.object(ofType: "Person", forPrimaryKey: .int(2)) { try realm.delete(bo) }
        }
        let changed = Int64(realm.version)
        let entries = try Self.outbox(realm)
        try #require(entries.count == 4)
        #expect(entries[0] == (created, "Person", "1", ["id", "name", "age"], true, false))
        #expect(entries[1] == (created, "Person", "2", ["id", "name", "age"], true, false))
        #expect(entries[2] == (changed, "Person", "1", ["age"], false, false))
        #expect(entries[3] == (changed, "Person", "2", [], false, true))
    }

    @Test func stringKeysAreQueuedAsJSONText() throws {
        let dir = TempDir()
        let tag = ObjectSchema(name: "Tag", properties: [Property(name: "name", type: .string, isPrimaryKey: true)])
        let realm = try Realm(
            configuration: .file(
                dir.path("tags.realm"), schema: Schema([tag, SyncClasses.outboxSchema, SyncClasses.stateSchema])))
        try realm.write { _ = try realm.create("Tag", ["name": .string("a \"b\" /c")]) }
        #expect(try Self.outbox(realm).map(\.2) == [#""a \"b\" /c""#])
    }

    @Test func aCancelledWriteQueuesNothing() throws {
        let dir = TempDir()
        let realm = try Self.open(dir, synced: true)
        try realm.beginWrite()
        _ = try realm.create("Person", ["id": .int(1), "name": .string("Ann")])
        realm.cancelWrite()
        #expect(try realm.objects(SyncClasses.outbox).checkedCount() == 0)
    }

    @Test func aFileWithoutSyncHasNoOutbox() throws {
        let dir = TempDir()
        let realm = try Self.open(dir, synced: false)
        try realm.write { _ = try realm.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        #expect(throws: RealmError.noSuchClass(SyncClasses.outbox)) { try realm.objects(SyncClasses.outbox) }
    }

    @Test func changesMadeWithoutQueueingAreNotQueued() throws {
        let dir = TempDir()
        let realm = try Self.open(dir, synced: true)
        realm.queuesToOutbox = false
        try realm.write { _ = try realm.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        realm.queuesToOutbox = true
        #expect(try realm.objects(SyncClasses.outbox).checkedCount() == 0)
        try realm.write {
            try realm.object(ofType: "Person", forPrimaryKey: .int(1))?.setValue(.string("Di"), forKey: "name")
        }
        #expect(try Self.outbox(realm).map(\.3) == [["name"]])
    }

    @Test func internalClassesAreNotInTheSchemaUsersSee() throws {
        let dir = TempDir()
        let realm = try Self.open(dir, synced: true)
        #expect(realm.schema.classNames == ["Person"])
        // deleteAll empties the user's classes and keeps the sync state.
        try realm.write {
            _ = try realm.create(
                SyncClasses.state, ["server": .string("postgres://h/db"), "client": .string("c"), "cursor": .int(0)])
            _ = try realm.create("Person", ["id": .int(1), "name": .string("Ann")])
        }
        try realm.write { try realm.deleteAll() }
        #expect(try realm.objects("Person").checkedCount() == 0)
        #expect(try realm.objects(SyncClasses.state).checkedCount() == 1)
    }

    @Test func commitSummariesLeaveTheOutboxOut() throws {
        let dir = TempDir()
        let realm = try Self.open(dir, synced: true)
        let before = realm.version
        try realm.write { _ = try realm.create("Person", ["id": .int(1), "name": .string("Ann")]) }
        let summaries = try #require(try realm.commitSummaries(after: before))
        #expect(summaries.map { $0.classes.map(\.className) } == [["Person"]])
    }

    @Test func aSyncedFileRefusesASchemaChange() throws {
        let dir = TempDir()
        _ = try Self.open(dir, synced: true)
        var wider = Self.person
        wider.properties.append(Property(name: "email", type: .string, isOptional: true))
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: dir.path("outbox.realm")),
            schema: Schema([wider, SyncClasses.outboxSchema, SyncClasses.stateSchema]),
            schemaVersion: 1)
        #expect(throws: RealmError.self) { try Realm(configuration: configuration) }
        let reopened = try Self.open(dir, synced: true)
        #expect(reopened.schema["Person"] == Self.person)
    }
}
