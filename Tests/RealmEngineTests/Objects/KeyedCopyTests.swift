import Foundation
import Testing

@testable import RealmEngine

/// `KeyedCopy`, the conversions' way of writing objects under their own keys: a copy in
/// ascending key order (what every Realm Core file gives) never looks a key up to refuse a
/// duplicate — a key at or above the table's next key cannot be taken — while a key below it
/// is still looked up and a duplicate still refused.
@Suite struct KeyedCopyTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "n", type: .int),
            ])
    ])

    @Test func anAscendingCopyLooksNoKeyUp() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "keyed-\(UUID())", schema: Self.schema))
        try realm.write {
            let copy = try KeyedCopy(into: realm)
            for k in Int64(0)..<300 {
                try copy.insert("Item", key: ObjectKey(k * 2), values: [.int(k), .int(k * 10)])
            }
            try copy.finish()
            #expect(copy.duplicateKeyLookups == 0)
        }
        #expect(try realm.objects("Item").count == 300)
        #expect(try realm.object(ofType: "Item", key: ObjectKey(598))?.values() == [.int(299), .int(2990)])
    }

    @Test func aKeyBelowTheNextKeyIsLookedUpAndADuplicateRefused() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "keyed-\(UUID())", schema: Self.schema))
        try realm.write {
            let copy = try KeyedCopy(into: realm)
            for k in Int64(0)..<10 { try copy.insert("Item", key: ObjectKey(k), values: [.int(k), .int(0)]) }
            #expect(throws: RealmError.self) {
                try copy.insert("Item", key: ObjectKey(4), values: [.int(100), .int(0)])
            }
            #expect(copy.duplicateKeyLookups == 1)
        }
    }

    /// Keys out of order (a file whose keys a conversion does not get ascending) still land in
    /// key order: every object is found under its key and the integrity check holds.
    @Test func keysOutOfOrderLandInKeyOrder() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("keyed.realm"), schema: Self.schema)
        let keys: [Int64] = [40, 10, 30, 0, 20, 41, 5]
        try realm.write {
            let copy = try KeyedCopy(into: realm)
            for k in keys { try copy.insert("Item", key: ObjectKey(k), values: [.int(k), .int(-k)]) }
            try copy.finish()
        }
        for k in keys {
            #expect(try realm.object(ofType: "Item", key: ObjectKey(k))?.values() == [.int(k), .int(-k)], "key \(k)")
        }
        #expect(try realm.objects("Item").keys().map(\.rawValue) == keys.sorted())
        _ = try realm.checkIntegrity()
    }
}
