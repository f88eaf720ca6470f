import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Encrypted Realm files (Realm Core's AES-256-CBC + HMAC-SHA-224 page layout) decrypt with the
/// app's key into exactly what Realm Core dumps, and every bad key or damaged page is an error.
@Suite struct CoreDecryptionTests {
    static func key(_ name: String = "generated-encrypted.key") throws -> [UInt8] {
        let text = try String(contentsOf: CoreFixtures.url(name), encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(text[index..<next], radix: 16)))
            index = next
        }
        return bytes
    }

    /// The 64 ASCII bytes realm-core's tests used as a key before 2024 (PUBLIC-FIXTURES.md, 10).
    static let legacyTestKey = Array("1234567890123456789012345678901123456789012345678901234567890123".utf8)

    static func decrypt(_ bytes: [UInt8], key: [UInt8]) throws -> RealmCoreImage {
        try bytes.withUnsafeBytes { try RealmCoreDecryption.decrypt($0, key: key, path: "test.realm") }
    }

    /// The decrypted bytes, copied while the image is alive (its memory goes with it).
    static func plaintext(_ bytes: [UInt8], key: [UInt8]) throws -> [UInt8] {
        let image = try decrypt(bytes, key: key)
        return withExtendedLifetime(image) { Array(image.bytes) }
    }

    static func fixtureBytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: CoreFixtures.url(name))) }

    @Test func theEncryptedFixtureDecryptsToWhatRealmCoreDumps() throws {
        let image = try Self.decrypt(try Self.fixtureBytes("generated-encrypted.realm"), key: try Self.key())
        let file = try RealmCoreFile(image: image, name: "generated-encrypted.realm")
        let dump = try RealmCoreDumper(file: file, fileName: "generated-encrypted.realm").dump()
        let expected = try CoreJSONCompare.parse(CoreJSONCompare.readJSON(CoreFixtures.url("generated-encrypted.json")))
        let differences = CoreJSONCompare.differences(expected, try CoreJSONCompare.parse(Data(dump.utf8)))
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
        #expect(file.formatVersion == 24)
    }

    @Test func theOpenFormOfAccessDecryptsFromThePath() throws {
        let access = try RealmCoreFileAccess.open(
            path: CoreFixtures.url("generated-encrypted.realm").path, key: try Self.key())
        #expect(access.facts.format == 24)
        #expect(access.inUseCopyTakenAt == nil)
    }

    /// Realm Core's own test file of 2017: one table of IVs, 4 pages written and 14 never
    /// written; inside, a Realm header of format 9 (which the reader then refuses by name).
    @Test func realmCoresLegacyEncryptedTestFileDecrypts() throws {
        let bytes = try Self.fixtureBytes("realm-core_test_shared_decrypt_4k_page.realm")
        let image = try Self.decrypt(bytes, key: Self.legacyTestKey)
        #expect(image.bytes.count == 18 * 4096)
        #expect(RealmCoreHeaderFacts.hasMnemonic(image.bytes))
        guard case .realmCore(let facts) = RealmCoreHeaderFacts.classify(file: image.bytes, path: "legacy.realm") else {
            Issue.record("the decrypted bytes are not a Realm file")
            return
        }
        #expect(facts.format == 9)
        #expect(facts.unsupportedReason != nil)
    }

    @Test func aWrongKeyIsAnEncryptionErrorNotGarbage() throws {
        var wrong = try Self.key()
        wrong[40] ^= 1  // the HMAC half
        #expect { try Self.decrypt(try Self.fixtureBytes("generated-encrypted.realm"), key: wrong) } throws: { error in
            guard case RealmError.encryption(_, let reason) = error else { return false }
            return reason.contains("wrong key")
        }
        #expect(throws: RealmError.self) {
            try Self.decrypt(try Self.fixtureBytes("generated-encrypted.realm"), key: Array(try Self.key().prefix(32)))
        }
    }

    @Test func aPlainRealmFileWithAKeyIsRefusedAsNotEncrypted() throws {
        #expect {
            try RealmCoreFileAccess.open(path: CoreFixtures.url("generated-dogs.realm").path, key: try Self.key())
        } throws: { error in
            guard case RealmError.encryption(_, let reason) = error else { return false }
            return reason.contains("not encrypted")
        }
    }

    /// Every byte flipped in a written page or its IV table entry, or cut off the end, gives an
    /// error or (a flip in a page never written, or in the kept previous HMAC) the same
    /// plaintext — never different bytes. The IV is not covered by Realm's HMAC: a flipped IV is
    /// caught by the iv1 = iv2 + 1 rule Realm Core writes by.
    @Test func damagedPagesAndEntriesAreErrors() throws {
        let original = try Self.fixtureBytes("generated-encrypted.realm")
        let key = try Self.key()
        let plain = try Self.plaintext(original, key: key)
        var generator = SeededGenerator(seed: 24)
        var errors = 0
        for _ in 0..<200 {
            var damaged = original
            let at = Int.random(in: 0..<damaged.count, using: &generator)
            damaged[at] ^= UInt8.random(in: 1...255, using: &generator)
            do {
                let unchanged = try Self.plaintext(damaged, key: key) == plain
                #expect(unchanged, "a flip at \(at) changed the plaintext without an error")
            } catch let error as RealmError {
                switch error {
                case .corruptFile, .encryption: errors += 1
                default: Issue.record("flip at \(at): unexpected \(error)")
                }
            }
        }
        #expect(
            errors > 50,
            "\(errors) of 200 flips were errors (half the pages were never written: a flip there changes nothing)")
        for cut in [4096, 8192 + 100, original.count - 4096] {
            do {
                let shorter = try Self.plaintext(Array(original.prefix(cut)), key: key)
                // A shorter image can only hold fewer whole pages, each one verified.
                let isPrefix = shorter == Array(plain.prefix(shorter.count))
                #expect(isPrefix, "cut at \(cut): the plaintext changed")
            } catch let error as RealmError {
                switch error {
                case .corruptFile, .encryption, .notARealmFile: break
                default: Issue.record("cut at \(cut): unexpected \(error)")
                }
            }
        }
    }
}
