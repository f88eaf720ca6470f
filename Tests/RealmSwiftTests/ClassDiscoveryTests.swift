import Foundation
import RealmSwift
import Testing

/// Defined here and used by no test, so only discovery can know it.
final class NeverTouchedDiscoveryModel: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var note = ""
}

/// Also unused: its objects link to it, so it reaches the schema both ways.
final class NeverTouchedDiscoveryTarget: Object {
    @Persisted var name = ""
}

/// Two classes stored under one name, and one linking to that name: none can be in a schema
/// opened without `objectTypes` (which `DiscoveryTwin` would it be?).
enum DiscoveryLeft { final class DiscoveryTwin: Object { @Persisted var a = 0 } }
enum DiscoveryRight { final class DiscoveryTwin: Object { @Persisted var b = "" } }
final class DiscoveryTwinOwner: Object {
    @Persisted var twin: DiscoveryLeft.DiscoveryTwin?
}

/// A Realm opened without `objectTypes` knows every `Object` subclass the program defines, as
/// RealmSwift's does through the Objective-C runtime (issue 26, item 6: 87 of 134 crashes of
/// realm-swift's own tests were "X is not in the schema").
@Suite struct ClassDiscoveryTests {
    @Test func aClassNeverUsedIsInTheDefaultSchema() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmswift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let realm = try Realm(fileURL: dir.appendingPathComponent("discovered.realm"))
        let names = Set(realm.schema.objectSchema.map(\.className))
        #expect(names.contains("NeverTouchedDiscoveryModel"), "\(names.sorted())")
        #expect(names.contains("NeverTouchedDiscoveryTarget"))
        // Deliberately invalid test models say `_realmIgnoreClass()`; base classes are no models.
        #expect(!names.contains("IgnoredPersistedDog") && !names.contains("Object"))
        // Ambiguous names are left out whichever of them the process used, with their linkers:
        // the schema never depends on the order tests (or a program's parts) ran in.
        _ = DiscoveryLeft.DiscoveryTwin.sharedSchema()
        #expect(!names.contains("DiscoveryTwin") && !names.contains("DiscoveryTwinOwner"), "\(names.sorted())")
        try realm.write { realm.add(NeverTouchedDiscoveryModel(value: ["id": 1, "note": "found"])) }
        #expect(realm.object(ofType: NeverTouchedDiscoveryModel.self, forPrimaryKey: 1)?.note == "found")
    }
}
