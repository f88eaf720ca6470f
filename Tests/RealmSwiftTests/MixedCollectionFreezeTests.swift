import Foundation
import Testing
import RealmSwift

/// `freeze()` of a list or dictionary nested in a Mixed (in an `AnyRealmValue` property or in an
/// element of a list or dictionary of them), and of an object holding one: the frozen collection
/// keeps its values at its version, is frozen, refuses writes, and may be read from another
/// thread. Before, freezing a nested list stopped with "Unmanaged lists cannot be frozen" and a
/// `Map` had no `freeze()` at all.
@Suite struct MixedCollectionFreezeTests {
    final class MFrozenBox: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var value: AnyRealmValue
        @Persisted var anyList: List<AnyRealmValue>
        @Persisted var anyMap: Map<String, AnyRealmValue>
    }

    /// A box with value = [1, 2], anyList = [["a"]], anyMap = {m: {k: 1}}.
    private func seeded(_ realm: Realm) throws -> MFrozenBox {
        let box = MFrozenBox()
        box.id = 1
        box.value = .fromArray([.int(1), .int(2)])
        box.anyList.append(.fromArray([.string("a")]))
        box.anyMap["m"] = .fromDictionary(["k": .int(1)])
        try realm.write { realm.add(box) }
        return box
    }

    @Test func aFrozenNestedListKeepsItsVersion() throws {
        let config = try fileConfig([MFrozenBox.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let box = try seeded(realm)
        let list = try #require(box.value.listValue)
        let frozen = list.freeze()
        #expect(frozen.isFrozen && !list.isFrozen && frozen.realm?.isFrozen == true)
        try realm.write { list.append(.int(3)) }
        #expect(Array(list) == [.int(1), .int(2), .int(3)])
        #expect(Array(frozen) == [.int(1), .int(2)] && frozen.count == 2)
        #expect(frozen.freeze() === frozen)
        let thawed = try #require(frozen.thaw())
        #expect(!thawed.isFrozen && Array(thawed) == [.int(1), .int(2), .int(3)])
    }

    @Test func frozenCollectionsInListAndDictionaryElementsKeepTheirVersion() throws {
        let config = try fileConfig([MFrozenBox.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let box = try seeded(realm)
        let inList = try #require(box.anyList[0].listValue).freeze()
        let inMap = try #require(box.anyMap["m"]?.dictionaryValue).freeze()
        #expect(inList.isFrozen && inMap.isFrozen)
        try realm.write {
            box.anyList[0].listValue?.append(.string("b"))
            box.anyMap["m"]?.dictionaryValue?["k"] = .int(2)
        }
        #expect(Array(inList) == [.string("a")])
        #expect(inMap["k"] == .int(1) && inMap.count == 1)
        #expect(box.anyMap["m"]?.dictionaryValue?["k"] == .int(2))
        let thawed = try #require(inMap.thaw())
        #expect(!thawed.isFrozen && thawed["k"] == .int(2))
    }

    @Test func aFrozenObjectHandsOutFrozenNestedCollections() throws {
        let config = try fileConfig([MFrozenBox.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let box = try seeded(realm)
        let frozen = box.freeze()
        try realm.write {
            box.value.listValue?.removeAll()
            box.anyList[0].listValue?[0] = .string("z")
        }
        let list = try #require(frozen.value.listValue)
        let inList = try #require(frozen.anyList[0].listValue)
        let inMap = try #require(frozen.anyMap["m"]?.dictionaryValue)
        #expect(list.isFrozen && inList.isFrozen && inMap.isFrozen)
        #expect(Array(list) == [.int(1), .int(2)] && Array(inList) == [.string("a")] && inMap["k"] == .int(1))
    }

    @Test func aFrozenNestedCollectionIsReadFromAnotherThread() async throws {
        let config = try fileConfig([MFrozenBox.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        let box = try seeded(realm)
        let list = Frozen(try #require(box.value.listValue).freeze())
        let map = Frozen(try #require(box.anyMap["m"]?.dictionaryValue).freeze())
        try realm.write { box.value = .string("gone") }
        // Plain values come back (an AnyRealmValue is not Sendable).
        let read = await Task.detached {
            (list.value.map { $0.intValue ?? -1 }, map.value["k"]?.intValue, map.value.keys)
        }.value
        #expect(read.0 == [1, 2] && read.1 == 1 && read.2 == ["k"])
    }

    @Test func writingThroughAFrozenNestedListStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class MFrozenOut: Object { @Persisted var value: AnyRealmValue }
            let realm = try Realm(
                configuration: Realm.Configuration(inMemoryIdentifier: "frozen-nested", objectTypes: [MFrozenOut.self]))
            let box = try realm.write { realm.create(MFrozenOut.self, value: ["value": [1]]) }
            let frozen = try #require(box.value.listValue).freeze()
            try frozen.realm?.write { frozen.append(.int(2)) }
            print("not stopped")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Cannot modify a frozen Realm"), "\(message)")
    }
}
