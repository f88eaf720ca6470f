import Foundation
import Testing
@testable import RealmEngine

/// `tryBeginWrite`: the explorer's way to start a write without ever blocking its thread.
@Suite struct TryBeginWriteTests {
    @Test func returnsFalseWhileAnotherInstanceWritesAndStartsOnTheNewestVersionAfter() throws {
        let dir = TempDir()
        let path = dir.path("try.realm")
        let first = try Realm(path: path, schema: Fixtures.people)
        let second = try Realm(path: path)
        try first.beginWrite()
        try first.create("Dog", ["name": .string("Rex")])
        #expect(try second.tryBeginWrite() == false)
        #expect(!second.isInWriteTransaction)
        try first.commitWrite()
        #expect(try second.tryBeginWrite() == true)
        #expect(second.isInWriteTransaction)
        #expect(try second.objects("Dog").count == 1)
        try second.create("Dog", ["name": .string("Ghost")])
        try second.commitWrite()
        #expect(try first.tryBeginWrite() == true)
        first.cancelWrite()
        #expect(try Realm(path: path, readOnly: true).objects("Dog").count == 2)
    }

    @Test func refusesAReadOnlyFileAndANestedTransaction() throws {
        let dir = TempDir()
        let path = dir.path("ro.realm")
        let realm = try Realm(path: path, schema: Fixtures.people)
        let readOnly = try Realm(path: path, readOnly: true)
        #expect(throws: RealmError.self) { try readOnly.tryBeginWrite() }
        #expect(try realm.tryBeginWrite())
        #expect(throws: RealmError.self) { try realm.tryBeginWrite() }
        realm.cancelWrite()
    }
}
