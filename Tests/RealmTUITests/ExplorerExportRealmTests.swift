import Foundation
import RealmCoreFormat
import RealmEngine
import RealmTUI
import Testing

/// `:export realm PATH`: the open Realm written as a Realm file (Realm Core format 24) through
/// the Realm Core writer, from any screen.
@Suite struct ExplorerExportRealmTests {
    /// The names of `className`'s objects in the Realm file at `path`, as the reader sees them
    /// (decrypted with `key` when given).
    static func names(_ path: String, _ className: String, key: [UInt8]? = nil) throws -> [String] {
        let access =
            try key.map { try RealmCoreFileAccess.open(path: path, key: $0) } ?? RealmCoreFileAccess.open(path: path)
        let conversion = try RealmCoreConversion(file: RealmCoreFile(image: access.image, name: path))
        let schema = try #require(conversion.schema.objectSchemas.first { $0.name == className })
        let column = try #require(schema.persistedProperties.firstIndex { $0.name == "name" })
        var out: [String] = []
        try conversion.forEachObject(of: className) { _, values in
            if case .string(let s) = values[column] { out.append(s) }
            return true
        }
        return out.sorted()
    }

    @Test func exportRealmWritesARealmFile() throws {
        let scratch = TempDir("realmtui-export-realm")
        let target = scratch.path("seed.realm")
        var driver = try ExplorerFixture.driver()
        driver.press(.character(":"))  // on the class list
        driver.type("export realm \(target)")
        driver.press(.enter)
        #expect(driver.statusText.contains("exported 6 objects in 2 classes"), "\(driver.statusText)")
        #expect(try Self.names(target, "Dog") == ["Ghost", "Rex", "大黄"])
        #expect(try Self.names(target, "Person").count == 3)

        // A file already there is replaced only after `y`.
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        driver.press(.down, .enter, .character(":"))  // on a table too
        driver.type("export realm \(target)")
        driver.press(.enter)
        #expect(
            driver.screen.lines.joined(separator: " ").contains("exists: replace it? (y/n)"), "\(driver.screen.lines)")
        driver.press(.character("n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        driver.press(.character(":"))
        driver.type("export realm \(target)")
        driver.press(.enter, .character("y"))
        #expect(driver.statusText.contains("exported 6 objects"), "\(driver.statusText)")
        #expect(try Self.names(target, "Dog") == ["Ghost", "Rex", "大黄"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["seed.realm"])

        driver.press(.character(":"))
        driver.type("export realm /nonexistent-folder/x.realm")
        driver.press(.enter)
        #expect(driver.statusText.contains("export failed"), "\(driver.statusText)")
    }

    /// `:export realm PATH --key HEX`: the file encrypted with Realm's encryption and that key,
    /// so a Realm app opens it with `encryptionKey` — Realm Core verifies and dumps it with the
    /// key and refuses it without; a malformed key writes nothing and says why.
    @Test(.enabled(if: ExplorerRealmFileEditTests.tool != nil, "needs ../shared/realm-core/tools/realm-core-tool"))
    func exportRealmWithAKeyEncryptsTheFile() throws {
        let tool = try #require(ExplorerRealmFileEditTests.tool)
        let scratch = TempDir("realmtui-export-realm")
        let target = scratch.path("secret.realm")
        let key = (0..<64).map { UInt8(($0 * 37 + 11) & 0xFF) }
        let hex = key.map { String(format: "%02x", $0) }.joined()
        var driver = try ExplorerFixture.driver()
        driver.press(.character(":"))
        driver.type("export realm \(target) --key \(hex)")
        driver.press(.enter)
        #expect(driver.statusText.contains("exported 6 objects in 2 classes"), "\(driver.statusText)")
        #expect(driver.statusText.contains("encrypted"), "\(driver.statusText)")
        #expect(try Self.names(target, "Dog", key: key) == ["Ghost", "Rex", "大黄"])
        for command in ["verify", "write-test"] {
            let result = try runChild(tool, [command, target, "--key", hex])
            #expect(
                result.status == 0 && result.stdout.contains("\"result\": \"ok\""),
                "realm-core-tool \(command): \(result.stderr)")
        }
        let dump = try runChild(tool, ["dump", target, "--key", hex])
        #expect(dump.status == 0 && dump.stdout.contains("\"大黄\""), "\(dump.stderr)")
        let withoutKey = try runChild(tool, ["dump", target])
        #expect(withoutKey.status != 0, "Realm Core read the exported file without its key")

        // The key from a file (64 raw bytes), as --key-file takes it.
        let keyFile = scratch.path("k.key")
        try Data(key).write(to: URL(fileURLWithPath: keyFile))
        let second = scratch.path("second.realm")
        driver.press(.character(":"))
        driver.type("export realm \(second) --key-file \(keyFile)")
        driver.press(.enter)
        #expect(driver.statusText.contains("exported 6 objects"), "\(driver.statusText)")
        #expect(try Self.names(second, "Person", key: key).count == 3)

        // A key that is not 128 hex digits: nothing written, the reason shown.
        for bad in ["abc", String(hex.dropLast()) + "g", "--key"] {
            let path = scratch.path("bad.realm")
            driver.press(.character(":"))
            driver.type("export realm \(path) --key \(bad)")
            driver.press(.enter)
            #expect(driver.statusText.contains("128 hex digits"), "\(bad): \(driver.statusText)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == [
                "k.key", "second.realm", "secret.realm",
            ])
    }
}
