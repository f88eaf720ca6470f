import Foundation
import RealmCoreFormat
import RealmEngine
import RealmTUI
import Testing

/// `:export realm PATH`: the open Realm written as a Realm file (Realm Core format 24) through
/// the Realm Core writer, from any screen.
@Suite struct ExplorerExportRealmTests {
    /// The names of `className`'s objects in the Realm file at `path`, as the reader sees them.
    static func names(_ path: String, _ className: String) throws -> [String] {
        let access = try RealmCoreFileAccess.open(path: path)
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
        driver.press(.character(":"))                                          // on the class list
        driver.type("export realm \(target)")
        driver.press(.enter)
        #expect(driver.statusText.contains("exported 6 objects in 2 classes"), "\(driver.statusText)")
        #expect(try Self.names(target, "Dog") == ["Ghost", "Rex", "大黄"])
        #expect(try Self.names(target, "Person").count == 3)

        // A file already there is replaced only after `y`.
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        driver.press(.down, .enter, .character(":"))                          // on a table too
        driver.type("export realm \(target)")
        driver.press(.enter)
        #expect(driver.screen.lines.joined(separator: " ").contains("exists: replace it? (y/n)"), "\(driver.screen.lines)")
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
}
