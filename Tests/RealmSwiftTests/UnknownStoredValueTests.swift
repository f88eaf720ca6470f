import Foundation
import Testing
import RealmSwift

/// A file may hold a value its typed model cannot represent: an enum's raw value that names no
/// case, written by `realmtui write`, the explorer, an import, or a newer version of the app.
/// Reading it answers the empty value only together with a recorded error, as a damaged file
/// does (ReadErrors.swift); the throwing reads throw. It never stops the program.
@Suite struct UnknownStoredValueTests {
    enum Size: String, PersistableEnum { case small, large }
    enum Level: Int, PersistableEnum {
        case low = 1
        case high = 2
    }

    final class Crate: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var size: Size
        @Persisted var level: Level?
        @Persisted var sizes: List<Size>
    }

    /// Crate 1 holds values no case names (written through the dynamic API, as another program
    /// would); crate 2 holds known ones.
    static func realmWithUnknownValues() throws -> Realm {
        let realm = try Realm(configuration: memoryConfig([Crate.self]))
        try realm.write {
            realm.create(Crate.self, value: ["id": 1, "size": "small", "level": 1, "sizes": ["large"]])
            realm.create(Crate.self, value: ["id": 2, "size": "large", "level": 2, "sizes": ["small"]])
        }
        try realm.write {
            let stored = try #require(try realm.dynamicRealm.object(ofType: "Crate", forPrimaryKey: .int(1)))
            try stored.setValue(.string("medium"), forKey: "size")
            try stored.setValue(.int(7), forKey: "level")
            try stored.list(forKey: "sizes").append(.value(.string("huge")))
        }
        return realm
    }

    static func isNotTheData(_ error: RealmError?) -> Bool {
        guard let error else { return false }
        return "\(error)".contains("Crate.") && "\(error)".contains("not a")
    }

    @Test func aRequiredEnumAnswersItsFirstCaseWithTheReasonRecorded() throws {
        let realm = try Self.realmWithUnknownValues()
        let crate = try #require(realm.object(ofType: Crate.self, forPrimaryKey: 1))
        #expect(crate.readError == nil)
        #expect(crate.size == .small)
        #expect(Self.isNotTheData(crate.readError))
        #expect(
            "\(String(describing: crate.readError))".contains(
                "Crate.size: the file holds \"medium\", which is not a Size"))
        #expect(throws: RealmError.self) { _ = try crate.checkedValue(forKey: "size") }
        // Known values read normally, with no error.
        let known = try #require(realm.object(ofType: Crate.self, forPrimaryKey: 2))
        #expect(known.size == .large && known.level == .high && known.readError == nil)
        #expect(try known.checkedValue(forKey: "size") as? Size == .large)
    }

    @Test func anOptionalEnumAnswersNilWithTheReasonRecorded() throws {
        let realm = try Self.realmWithUnknownValues()
        let crate = try #require(realm.object(ofType: Crate.self, forPrimaryKey: 1))
        #expect(crate.level == nil)
        #expect(Self.isNotTheData(crate.readError))
        #expect(throws: RealmError.self) { _ = try crate.checkedValue(forKey: "level") }
    }

    @Test func aListElementAnswersTheFirstCaseWithTheReasonOnTheList() throws {
        let realm = try Self.realmWithUnknownValues()
        let sizes = try #require(realm.object(ofType: Crate.self, forPrimaryKey: 1)).sizes
        #expect(sizes.count == 2)
        #expect(sizes[0] == .large && sizes.error == nil)
        #expect(sizes[1] == .small)
        #expect(Self.isNotTheData(sizes.error))
        #expect("\(String(describing: sizes.error))".contains("Crate.sizes[1]: the file holds \"huge\""))
        #expect(throws: RealmError.self) { _ = try sizes.element(at: 1) }
        #expect(Array(sizes) == [.large, .small])
    }

    @Test func aQueryOverTheUnknownValueStillMatchesByRawValue() throws {
        let realm = try Self.realmWithUnknownValues()
        #expect(realm.objects(Crate.self).filter("size == 'medium'").count == 1)
        #expect(realm.objects(Crate.self).filter("size == 'medium'").first?.id == 1)
    }
}
