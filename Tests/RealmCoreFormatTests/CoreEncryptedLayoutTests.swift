import Foundation
import Testing
@testable import RealmCoreFormat

/// `RealmCoreDecryption.looksEncrypted`: the encrypted fixtures have the layout of Realm's IV
/// table, the plaintext ones and random pages do not.
@Suite struct CoreEncryptedLayoutTests {
    static func looksEncrypted(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { RealmCoreDecryption.looksEncrypted(start: $0, fileSize: bytes.count) }
    }

    @Test func theEncryptedFixturesAndOnlyThemLookEncrypted() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: CoreFixtures.folder.path).filter {
            $0.hasSuffix(".realm")
        }
        #expect(names.count > 5)
        for name in names {
            let bytes = try Data(contentsOf: CoreFixtures.url(name))
            let encrypted = name.contains("encrypted") || name.contains("decrypt")
            #expect(Self.looksEncrypted(bytes) == encrypted, "\(name)")
        }
    }

    @Test func randomPagesDoNotLookEncrypted() {
        var generator = SystemRandomNumberGenerator()
        for pages in [2, 3, 65, 70] {
            let bytes = Data((0..<pages * 4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
            #expect(!Self.looksEncrypted(bytes), "\(pages) pages")
        }
        #expect(!Self.looksEncrypted(Data(count: 3 * 4096)), "zeros")
    }
}
