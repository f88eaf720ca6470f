import Foundation
import Testing
@testable import RealmEngine

/// A one-barrier commit builds only on a durable base (issue 11, defect 6): when the newest slot
/// is not the one the lock file knows durable, the writer syncs before reusing any space.
@Suite(.tags(.integrity)) struct DurableBaseTests {
    @Test func aWriterSyncsABaseNotKnownDurableBeforeBuildingOnIt() throws {
        let dir = TempDir()
        let path = dir.path("durable.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("a")]) }
        var syncs = realm.shared.file.syncCalls
        try realm.write { try realm.create("Person", ["id": .int(2), "name": .string("b")]) }
        // A commit on a durable base: its one barrier.
        #expect(realm.shared.file.syncCalls == syncs + 1)
        // A writer that died between its slot and the end of its barrier leaves the durable word
        // naming an older slot (here: none).
        realm.shared.lock.forgetDurable()
        syncs = realm.shared.file.syncCalls
        try realm.write { try realm.create("Person", ["id": .int(3), "name": .string("c")]) }
        #expect(realm.shared.file.syncCalls == syncs + 2)
        let newest = try #require(try realm.shared.slots().first?.slot)
        #expect(realm.shared.lock.durableSlot == newest.checksum)
    }

    @Test func theDurableWordOutlivesTheSessionOnlyWhileItNamesTheNewestSlot() throws {
        let dir = TempDir()
        let path = dir.path("session.realm")
        do {
            let realm = try Realm(path: path, schema: Fixtures.people)
            try realm.write { try realm.create("Person", ["id": .int(1), "name": .string("a")]) }
        }
        // Everyone closed after a commit whose barrier returned: the next session's first commit
        // takes one barrier.
        let realm = try Realm(path: path)
        let syncs = realm.shared.file.syncCalls
        try realm.write { try realm.create("Person", ["id": .int(2), "name": .string("b")]) }
        #expect(realm.shared.file.syncCalls == syncs + 1)
    }
}
