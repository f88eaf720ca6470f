import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// Damaged and truncated Realm Core files: every read ends in either a value or a `RealmError`
/// with a message — never a crash, trap or hang. (A Realm file has no checksums, so a flipped
/// byte in padding or in a value reads as a different value; what must not happen is a crash.)
@Suite(.tags(.integrity)) struct CoreDamageTests {
    /// Opens and reads every object of every table, and dumps it; returns the error, if any.
    static func readAll(_ bytes: [UInt8], name: String) -> Error? {
        do {
            let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: name)
            // The dump reads every object (forEachObject) and every embedded object by key;
            // a page at the end goes through the skipping path.
            for t in file.tables { _ = try t.objects(from: max(0, t.objectCount - 3), limit: 3) }
            _ = try RealmCoreDumper(file: file, fileName: name).dump()
            return nil
        } catch {
            return error
        }
    }

    static func expectRealmError(_ error: Error?, _ what: String) {
        guard let error else { return }
        guard let realmError = error as? RealmError else {
            Issue.record("\(what): not a RealmError: \(error)")
            return
        }
        #expect(!realmError.description.isEmpty, "\(what): an error without a message")
    }

    /// A small deterministic generator (xorshift), so a failure can be replayed.
    struct Xorshift: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    @Test(arguments: [
        "generated-dogs.realm", "generated-compacted.realm", "realm-core_test_upgrade_database_4_24.realm",
    ])
    func truncatedFilesGiveErrors(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: CoreFixtures.url(name)))
        var g = Xorshift(state: 0x9E37_79B9_7F4A_7C15)
        var lengths = [0, 1, 8, 23, 24, 25, 40, bytes.count - 16, bytes.count - 1]
        for _ in 0..<60 { lengths.append(Int.random(in: 0..<bytes.count, using: &g)) }
        for length in lengths {
            let error = Self.readAll(Array(bytes[0..<length]), name: "\(name) cut at \(length)")
            Self.expectRealmError(error, "\(name) cut at \(length)")
        }
        // Every cut that drops the top or the footer is refused, not read as an empty file.
        #expect(Self.readAll(Array(bytes[0..<24]), name: name) != nil)
    }

    /// Rounds per file keep the test to a few seconds in a debug build.
    @Test(arguments: [
        ("generated-dogs.realm", 40), ("generated-history.realm", 15),
        ("realm-core_test_upgrade_database_1000_23.realm", 20),
    ])
    func flippedBytesNeverCrash(name: String, rounds: Int) throws {
        let original = try [UInt8](Data(contentsOf: CoreFixtures.url(name)))
        var g = Xorshift(state: 0xD1B5_4A32_D192_ED03 ^ UInt64(name.utf8.count))
        for round in 0..<rounds {
            var bytes = original
            // Damage where the structure is (the top and the nodes near it) as often as anywhere.
            let flips = Int.random(in: 1...4, using: &g)
            for _ in 0..<flips {
                let offset = Int.random(in: 0..<bytes.count, using: &g)
                bytes[offset] = UInt8.random(in: 0...255, using: &g)
            }
            Self.expectRealmError(Self.readAll(bytes, name: "\(name) round \(round)"), "\(name) round \(round)")
        }
    }

    @Test func damagedMetadataGivesErrorsNamingWhere() throws {
        let original = try [UInt8](Data(contentsOf: CoreFixtures.url("generated-dogs.realm")))
        let file = try RealmCoreFile(image: RealmCoreImage(copying: original), name: "dogs")
        let top = file.header.topRef
        // Each node header byte of the top array and of the first nodes after it.
        var noticed = 0
        for offset in top..<(top + 8) {
            for value: UInt8 in [0x00, 0xFF, 0x41 ^ 0x01, 0xC7] {
                var bytes = original
                bytes[offset] = value
                let error = Self.readAll(bytes, name: "dogs")
                Self.expectRealmError(error, "top header byte \(offset - top) = \(value)")
                if error != nil { noticed += 1 }
            }
        }
        #expect(noticed > 0)
    }

    @Test func formatsOutsideTwentyToTwentyFourAreRefusedByName() throws {
        var bytes = try [UInt8](Data(contentsOf: CoreFixtures.url("generated-dogs.realm")))
        let slot = Int(bytes[23] & 1)
        bytes[20 + slot] = 25
        #expect(throws: RealmError.self) { try RealmCoreFile(image: RealmCoreImage(copying: bytes)) }
        do {
            _ = try RealmCoreFile(image: RealmCoreImage(copying: bytes))
        } catch {
            #expect("\(error)".contains("25"), "the message names the format: \(error)")
        }
        bytes[20 + slot] = 9
        do {
            _ = try RealmCoreFile(image: RealmCoreImage(copying: bytes))
            Issue.record("format 9 was opened")
        } catch {
            #expect("\(error)".contains("9"), "the message names the format: \(error)")
        }
    }

    @Test func compressedArraysAreRefusedAsFormat25() throws {
        var bytes = try [UInt8](Data(contentsOf: CoreFixtures.url("generated-dogs.realm")))
        let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes))
        // Width type 3 in the top array's flags byte.
        bytes[file.header.topRef + 4] |= 0x18
        do {
            _ = try RealmCoreFile(image: RealmCoreImage(copying: bytes))
            Issue.record("a compressed array was read")
        } catch let error as RealmError {
            #expect(error.description.contains("format 25"), "\(error)")
        }
    }

    @Test(
        .enabled(
            if: CoreFixtures.sharedFixture("generated-big.realm") != nil,
            "../shared/realm-core/fixtures/generated-big.realm is absent"))
    func aWrongNodeShiftIsDetected() throws {
        // An SDK file (shift 8) read as if written by a node-size-4 build: the compact inner
        // nodes then put keys outside their children's ranges.
        let url = try #require(CoreFixtures.sharedFixture("generated-big.realm"))
        let file = try RealmCoreFile(image: RealmCoreImage(copying: Data(contentsOf: url)), name: "big", nodeShift: 2)
        let table = try #require(file.table(named: "class_Big"))
        #expect(throws: RealmError.self) { try table.forEachObject { _ in true } }
    }
}

extension CoreDamageTests {
    /// A node whose header claims more elements than the file holds is reported with the
    /// class and column it belongs to and its offset.
    @Test func damagedColumnNodesAreNamedByClassAndColumn() throws {
        let original = try [UInt8](Data(contentsOf: CoreFixtures.url("generated-dogs.realm")))
        // Every node header (`AAAA`, 8-aligned) in the file.
        var headers: [Int] = []
        for offset in stride(from: 24, to: original.count - 8, by: 8)
        where original[offset] == 0x41 && original[offset + 1] == 0x41 && original[offset + 2] == 0x41
            && original[offset + 3] == 0x41
        {
            headers.append(offset)
        }
        #expect(headers.count > 20)
        var messages: [String] = []
        for offset in headers.prefix(300) {
            var bytes = original
            // Element count 0xFFFFFF with 64-bit width: past the end of the file.
            bytes[offset + 4] = (bytes[offset + 4] & 0xE0) | 7
            bytes[offset + 5] = 0xFF
            bytes[offset + 6] = 0xFF
            bytes[offset + 7] = 0xFF
            do {
                let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: "dogs")
                for t in file.tables { try t.forEachObject { _ in true } }
            } catch let error as RealmError {
                messages.append(error.description)
            }
        }
        // Each such node is either unused (a free block, old history) or reported.
        #expect(
            messages.contains { $0.contains("class_Dog.name") }, "no error named class_Dog.name: \(messages.prefix(5))")
        #expect(messages.contains { $0.contains("class_Person.dogs") }, "no error named class_Person.dogs")
        #expect(messages.allSatisfy { $0.contains("offset") || $0.contains("at ") }, "\(messages.prefix(3))")
    }
}
