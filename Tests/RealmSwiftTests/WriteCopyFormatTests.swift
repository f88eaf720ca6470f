import Foundation
import RealmCoreFormat
import RealmSwift
import Testing

/// `Realm.writeCopy(toFile:format:encryptionKey:)` on the typed Realm: a bundled seed file for a
/// Realm app, written from RealmSwift code.
@Suite struct WriteCopyFormatTests {
    final class Seed: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var price: Decimal128?
    }

    @Test func aSeedFileForARealmApp() throws {
        let config = try fileConfig([Seed.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        try realm.write {
            for i in 0..<40 {
                var value: [String: Any] = ["id": i, "name": "seed \(i)"]
                if i % 3 != 0 { value["price"] = Decimal128(Double(i) / 4) }
                realm.create(Seed.self, value: value)
            }
        }
        let key = Data((0..<64).map { UInt8($0 ^ 0x5A) })
        let url = config.fileURL!.deletingLastPathComponent().appendingPathComponent("seed.realm")
        try realm.writeCopy(toFile: url, format: .realmCore, encryptionKey: key)
        #expect(try Data(contentsOf: url).range(of: Data("seed 1".utf8)) == nil)  // nothing in clear text
        let access = try RealmCoreFileAccess.open(path: url.path, key: [UInt8](key))
        let conversion = try RealmCoreConversion(file: RealmCoreFile(image: access.image, name: url.path))
        var names: [String] = []
        try conversion.forEachObject(of: "Seed") { _, values in
            if case .string(let s) = values[1] { names.append(s) }
            return true
        }
        #expect(names.sorted() == (0..<40).map { "seed \($0)" }.sorted())
        #expect(throws: (any Error).self) { try realm.writeCopy(toFile: url, format: .realmCore) }  // exists
    }
}
