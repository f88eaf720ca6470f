import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// `Realm.writeCopy(toFile:format:encryptionKey:)`: the API's way to a Realm file.
@Suite struct RealmWriteCopyFormatTests {
    static let key = Data((0..<64).map { UInt8(255 - $0 * 3 & 0xFF) })

    /// The objects of `Item` as the conversion reads them from `file`, by key.
    static func objects(_ file: RealmCoreFile) throws -> [Int64: [Value]] {
        let conversion = try RealmCoreConversion(file: file)
        #expect(conversion.omissions.isEmpty)
        var out: [Int64: [Value]] = [:]
        try conversion.forEachObject(of: "Item") { key, values in
            out[key.rawValue] = values
            return true
        }
        return out
    }

    @Test func realmCoreCopiesPlainAndEncrypted() throws {
        let dir = TempDir("write-copy-format")
        let realm = try CoreWriterRealmTests.makeRealm(dir, count: 120)
        var original: [Int64: [Value]] = [:]
        for key in try realm.objects("Item").keys() {
            original[key.rawValue] = try realm.object(ofType: "Item", key: key)?.values()
        }

        let plainPath = dir.path("seed.realm")
        try realm.writeCopy(toFile: plainPath, format: .realmCore)
        let plain = try RealmCoreFileAccess.open(path: plainPath)
        #expect(try Self.objects(RealmCoreFile(image: plain.image, name: plainPath)) == original)

        let encryptedPath = dir.path("seed-encrypted.realm")
        try realm.writeCopy(toFile: encryptedPath, format: .realmCore, encryptionKey: Self.key)
        #expect(throws: RealmError.self) { _ = try RealmCoreFileAccess.open(path: encryptedPath) }
        let encrypted = try RealmCoreFileAccess.open(path: encryptedPath, key: [UInt8](Self.key))
        #expect(try Self.objects(RealmCoreFile(image: encrypted.image, name: encryptedPath)) == original)
        #expect(
            try RealmCoreFile(image: encrypted.image, name: encryptedPath).schemaVersion() == Int64(realm.schemaVersion)
        )

        // The engine's own format through the same call.
        let nativePath = dir.path("copy.realm")
        try realm.writeCopy(toFile: nativePath, format: .realmtui, encryptionKey: Self.key)
        let copy = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: nativePath), encryptionKey: Self.key))
        #expect(try copy.objects("Item").count == 120)
    }

    @Test func badRequestsWriteNothing() throws {
        let dir = TempDir("write-copy-format-bad")
        let realm = try CoreWriterRealmTests.makeRealm(dir, count: 3)
        let path = dir.path("seed.realm")
        #expect {
            try realm.writeCopy(toFile: path, format: .realmCore, encryptionKey: Self.key.prefix(63))
        } throws: { error in
            guard case RealmError.encryption(_, let reason) = error else { return false }
            return reason.contains("64 bytes")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        try realm.writeCopy(toFile: path, format: .realmCore)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: RealmError.self) {
            try realm.writeCopy(toFile: path, format: .realmCore, encryptionKey: Self.key)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
