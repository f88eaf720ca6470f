import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

@Suite(.tags(.multiProcess)) struct RealmCoreHeaderFactsTests {
    private func facts(_ name: String) throws -> RealmCoreHeaderFacts {
        let data = try Data(contentsOf: CoreFixtures.url(name))
        return try data.withUnsafeBytes { try RealmCoreHeaderFacts(file: $0, path: name) }
    }

    /// Realm Core's own `info` reading of a file's header, or nil without `../shared`.
    private func oracle(_ url: URL) throws -> [String: Any]? {
        let tool = try CoreFixtures.requireTool()
        let process = Process()
        process.executableURL = tool
        process.arguments = ["info", url.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0, "realm-core-tool info failed: \(String(decoding: errors, as: UTF8.self))")
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    @Test func committedAndStreamingFormsMatchRealmCoreTool() throws {
        let names = [
            "generated-dogs.realm", "generated-compacted.realm", "generated-history.realm",
            "realm-core_test_upgrade_database_20.realm", "realm-core_test_upgrade_database_1000_22.realm",
            "realm-core_test_upgrade_database_4_23.realm", "realm-core_test_upgrade_database_4_24.realm",
            "realm-studio_asset_file.realm", "realm-dotnet_guids.realm", "realm-kotlin_benchmarks_default.realm",
            "realm-swift_migration_default-v5.realm",
        ]
        var compared = 0
        for name in names {
            let facts = try facts(name)
            #expect(facts.unsupportedReason == nil, "\(name): \(facts.unsupportedReason ?? "")")
            guard let info = try oracle(CoreFixtures.url(name)) else { continue }
            #expect(facts.format == info["file_format_version"] as? Int, "\(name)")
            #expect(facts.topRef == (info["top_ref"] as? NSNumber)?.uint64Value, "\(name)")
            #expect((facts.form == .streaming) == (info["streaming_form"] as? Bool), "\(name)")
            if facts.form == .committed, let header = info["header"] as? [String: Any] {
                #expect(facts.selectedSlot == header["selected_slot"] as? Int, "\(name)")
            }
            compared += 1
        }
        if CoreFixtures.sharedIsPresent { #expect(compared == names.count) }
    }

    @Test func describesFormatAndCoreVersion() throws {
        let dogs = try facts("generated-dogs.realm")
        #expect(dogs.format == 24 && dogs.form == .committed && dogs.selectedSlot == 1 && dogs.topRef == 42952)
        #expect(dogs.summary == "Realm file, format 24, written by Realm Core 14 or later")
        let old = try facts("realm-core_test_upgrade_database_20.realm")
        #expect(old.form == .streaming && old.format == 20 && old.topRef == 0x4B0)
        #expect(old.summary == "Realm file, format 20, written by Realm Core 10")
    }

    @Test func olderAndNewerFormatsAreRefusedByName() {
        let base = RealmCoreHeaderFacts(
            format: 9, form: .committed, selectedSlot: 0, topRefs: (64, 0), topRef: 64,
            fileSize: 4096, encrypted: false)
        #expect(base.unsupportedReason?.contains("format 9 is older than 20") == true)
        let newer = RealmCoreHeaderFacts(
            format: 25, form: .committed, selectedSlot: 0, topRefs: (64, 0), topRef: 64,
            fileSize: 4096, encrypted: false)
        #expect(newer.unsupportedReason?.contains("format 25 is newer than 24") == true)
    }

    @Test func damagedHeadersAreClearErrors() throws {
        var data = try Data(contentsOf: CoreFixtures.url("generated-compacted.realm"))
        // A truncated streaming file loses its footer cookie.
        let truncated = data.prefix(data.count - 5)
        #expect(throws: RealmError.self) {
            try truncated.withUnsafeBytes { try RealmCoreHeaderFacts(file: $0, path: "t") }
        }
        // A header shorter than 24 bytes.
        let short = data.prefix(20)
        #expect(throws: RealmError.self) { try short.withUnsafeBytes { try RealmCoreHeaderFacts(file: $0, path: "s") } }
        // A top ref past the end of the file.
        let footer = data.count - 16
        data.replaceSubrange(
            footer..<footer + 8, with: withUnsafeBytes(of: UInt64(data.count + 8).littleEndian) { Array($0) })
        #expect(throws: RealmError.self) { try data.withUnsafeBytes { try RealmCoreHeaderFacts(file: $0, path: "r") } }
        // An odd top ref in a committed header.
        var dogs = try Data(contentsOf: CoreFixtures.url("generated-dogs.realm"))
        dogs[8] = 0xC9
        #expect(throws: RealmError.self) { try dogs.withUnsafeBytes { try RealmCoreHeaderFacts(file: $0, path: "d") } }
    }

    @Test func classifiesEncryptedAndForeignFiles() throws {
        let encrypted = try Data(contentsOf: CoreFixtures.url("generated-encrypted.realm"))
        #expect(
            encrypted.withUnsafeBytes { RealmCoreHeaderFacts.classify(file: $0, path: "e") } == .possiblyEncryptedRealm)
        let text = Data("hello, this is not a realm file at all".utf8)
        if case .other = text.withUnsafeBytes({ RealmCoreHeaderFacts.classify(file: $0, path: "x") }) {
        } else {
            Issue.record("a text file was not classified as other")
        }
        let dogs = try Data(contentsOf: CoreFixtures.url("generated-dogs.realm"))
        if case .realmCore(let facts) = dogs.withUnsafeBytes({ RealmCoreHeaderFacts.classify(file: $0, path: "d") }) {
            #expect(facts.format == 24)
        } else {
            Issue.record("generated-dogs.realm was not classified as a Realm Core file")
        }
    }
}
