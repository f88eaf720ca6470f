import Foundation
import Testing
import RealmSwift

/// Realm 10's asynchronous transactions (`writeAsync`, `beginAsyncWrite`, `commitAsyncWrite`,
/// `cancelAsyncWrite`, `isPerformingAsynchronousWriteOperations`) and `asyncWrite` on an
/// actor, with the behaviour realm-swift's own tests assert (RealmTests.testAsyncTransaction*,
/// testAsyncWrite*).
@Suite struct AsyncWriteTests {
    final class AsyncNote: Object {
        @Persisted var text = ""
    }

    final class AsyncKeyed: Object {
        @Persisted(primaryKey: true) var id = 0
    }

    /// Turns this thread's RunLoop until the Realm's asynchronous work is done. Each turn runs
    /// a queued step when there is one; the bound only keeps a broken queue from hanging CI.
    static func drain(_ realm: Realm, sourceLocation: SourceLocation = #_sourceLocation) {
        var turns = 0
        while realm.isPerformingAsynchronousWriteOperations && turns < 100_000 {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            turns += 1
        }
        #expect(
            !realm.isPerformingAsynchronousWriteOperations, "asynchronous work never finished",
            sourceLocation: sourceLocation)
    }

    static func texts(_ realm: Realm) -> [String] { realm.objects(AsyncNote.self).map(\.text) }

    @Test func writeAsyncCommitsLaterAndCallsBackWithTheObjectThere() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncNote.self]))
        var seen: [String]?
        var completionError: Error?
        realm.writeAsync {
            realm.create(AsyncNote.self, value: ["text": "string"])
        } onComplete: { error in
            completionError = error
            seen = Self.texts(realm)
        }
        // Nothing has run yet: the call returned at once.
        #expect(realm.isPerformingAsynchronousWriteOperations)
        #expect(Self.texts(realm).isEmpty)
        Self.drain(realm)
        #expect(seen == ["string"])
        #expect(completionError == nil)
        #expect(!realm.isInWriteTransaction)
    }

    @Test func beginAsyncWriteWithCommitAsyncWriteInside() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncNote.self]))
        var completions = 0
        realm.beginAsyncWrite {
            realm.create(AsyncNote.self, value: ["text": "string"])
            realm.commitAsyncWrite { error in
                #expect(error == nil)
                completions += 1
            }
        }
        Self.drain(realm)
        #expect(completions == 1)
        #expect(Self.texts(realm) == ["string"])
    }

    @Test func aCancelledTransactionNeverRuns() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncNote.self]))
        var ran = false
        let id = realm.beginAsyncWrite {
            ran = true
            realm.create(AsyncNote.self, value: ["text": "string"])
            realm.commitAsyncWrite()
        }
        try realm.cancelAsyncWrite(id)
        let written = realm.writeAsync(
            { realm.create(AsyncNote.self, value: ["text": "other"]) }, onComplete: { _ in ran = true })
        try realm.cancelAsyncWrite(written)
        Self.drain(realm)
        #expect(!ran)
        #expect(Self.texts(realm).isEmpty)
    }

    @Test func aBlockThatReturnsWithoutCommittingIsCancelled() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncNote.self]))
        var ran = false
        realm.beginAsyncWrite {
            realm.create(AsyncNote.self, value: ["text": "string"])
            ran = true
        }
        Self.drain(realm)
        #expect(ran)
        #expect(Self.texts(realm).isEmpty)
        #expect(!realm.isInWriteTransaction)
    }

    @Test func aSynchronousWriteAfterAQueuedOneGoesFirst() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncNote.self]))
        realm.beginAsyncWrite { realm.create(AsyncNote.self, value: ["text": "string"]) }
        try realm.write { realm.create(AsyncNote.self, value: ["text": "string 2"]) }
        Self.drain(realm)
        #expect(Self.texts(realm) == ["string 2"])
    }

    @Test func transactionsRunInTheOrderQueuedAlsoFromInsideOne() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncNote.self]))
        var order: [String] = []
        realm.writeAsync(
            {
                realm.create(AsyncNote.self, value: ["text": "first"])
                realm.writeAsync(
                    { realm.create(AsyncNote.self, value: ["text": "nested"]) },
                    onComplete: { _ in order.append("nested done") })
            }, onComplete: { _ in order.append("first done") })
        realm.writeAsync(
            { realm.create(AsyncNote.self, value: ["text": "second"]) },
            onComplete: { _ in order.append("second done") })
        Self.drain(realm)
        #expect(Self.texts(realm) == ["first", "second", "nested"])
        #expect(order == ["first done", "second done", "nested done"])
    }

    @Test func theBlockMayCommitItselfAndTheCompletionStillComes() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncNote.self]))
        var completed = false
        realm.writeAsync(
            {
                realm.create(AsyncNote.self, value: ["text": "string"])
                #expect(throws: Never.self) { try realm.commitWrite() }
            },
            onComplete: { error in
                #expect(error == nil)
                completed = true
            })
        Self.drain(realm)
        #expect(completed)
        #expect(Self.texts(realm) == ["string"])
    }

    @Test func aFailedCommitReachesTheCompletionAndWritesNothing() throws {
        let realm = try Realm(configuration: memoryConfig([AsyncKeyed.self]))
        try realm.write { realm.create(AsyncKeyed.self, value: ["id": 1]) }
        var completionError: Error?
        realm.writeAsync(
            {
                realm.create(AsyncKeyed.self, value: ["id": 2])
                realm.create(AsyncKeyed.self, value: ["id": 1])  // a duplicate primary key
            }, onComplete: { completionError = $0 })
        Self.drain(realm)
        #expect(completionError != nil)
        #expect(realm.objects(AsyncKeyed.self).map(\.id) == [1])
    }

    @Test func aRealmOpensByFileURL() throws {
        let config = try fileConfig([AsyncNote.self])
        defer { removeFolder(of: config) }
        let url = try #require(config.fileURL)
        // The default configuration knows the classes this process has used (no objectTypes).
        _ = AsyncNote.sharedSchema()
        let realm = try Realm(fileURL: url)
        try realm.write { realm.create(AsyncNote.self, value: ["text": "by url"]) }
        #expect(realm.configuration.fileURL == url)
        #expect(Self.texts(try Realm(configuration: config)) == ["by url"])
    }

    actor NoteStore {
        var realm: Realm?
        func open(_ config: Realm.Configuration) async throws {
            realm = try await Realm(configuration: config, actor: self)
        }
        func add(_ text: String) async throws -> Int {
            guard let realm else { return -1 }
            return try await realm.asyncWrite {
                realm.create(AsyncNote.self, value: ["text": text])
                return realm.objects(AsyncNote.self).count
            }
        }
        func failingAdd() async throws {
            guard let realm else { return }
            struct Refused: Error {}
            try await realm.asyncWrite {
                realm.create(AsyncNote.self, value: ["text": "never"])
                throw Refused()
            }
        }
        func texts() async -> [String] {
            guard let realm else { return [] }
            _ = await realm.asyncRefresh()
            return realm.objects(AsyncNote.self).map(\.text)
        }
        func close() { realm = nil }
    }

    @Test func asyncWriteOnAnActorCommitsAndRollsBackOnThrow() async throws {
        let config = try fileConfig([AsyncNote.self])
        defer { removeFolder(of: config) }
        let store = NoteStore()
        try await store.open(config)
        #expect(try await store.add("one") == 1)
        await #expect(throws: (any Error).self) { try await store.failingAdd() }
        #expect(await store.texts() == ["one"])
        await store.close()
    }
}
