import Foundation
import RealmTUI
import Testing

@testable import RealmEngine

/// The explorer on a second storage: the fixture copied into `InMemoryVersion` (objects as
/// arrays of values: no leaves, no search index, no kept backlinks) and opened read-only with
/// `Realm(reading:path:)`. Each screen is the one the engine's own snapshot draws — the same
/// golden file, or the same grid as a driver on the engine's Realm.
@Suite("Explorer golden screens on the in-memory version")
struct ExplorerReadableVersionTests {
    /// The fixture's objects in memory, and a driver over a Realm that reads them.
    static func fake(width: Int = 80, height: Int = 24) throws -> (InMemoryVersion, ExplorerDriver) {
        let version = try copy(try ExplorerFixture.realm())
        let realm = try Realm(reading: version, path: "fixture.realm")
        let state = ExplorerState(
            realm: realm, fileName: "fixture.realm", readOnly: false, width: width, height: height)
        return (version, ExplorerDriver(state: state))
    }

    /// Every object of `realm` in memory (the Realm kept alive while its snapshot is read).
    static func copy(_ realm: Realm) throws -> InMemoryVersion {
        try withExtendedLifetime(realm) { try InMemoryVersion(copying: try realm.readView) }
    }

    static func driver(width: Int = 80, height: Int = 24) throws -> ExplorerDriver {
        try fake(width: width, height: height).1
    }

    @Test func classListWithCounts() throws {
        try expectGolden("classes", try Self.driver().screen)
    }

    @Test func table() throws {
        var driver = try Self.driver(width: 140, height: 12)
        driver.press(.enter)
        try expectGolden("table-person", driver.screen)
    }

    @Test func narrowTable() throws {
        var driver = try Self.driver(width: 40, height: 10)
        driver.press(.enter)
        try expectGolden("table-narrow", driver.screen)
        driver.press(.character("$"))
        try expectGolden("table-narrow-last-column", driver.screen)
    }

    @Test func detailListAndBacklinks() throws {
        var driver = try Self.driver()
        driver.press(.enter, .enter)
        try expectGolden("detail-person", driver.screen)
        driver.press(.character("j"), .character("j"), .character("j"), .character("j"), .character("j"), .enter)
        try expectGolden("list-dogs", driver.screen)
        driver.press(.enter)
        driver.press(.character("G"), .enter)
        try expectGolden("backlinks-owners", driver.screen)
    }

    @Test func detailOfALongValue() throws {
        var driver = try Self.driver(width: 60, height: 14)
        driver.press(.enter, .character("G"), .enter)
        try expectGolden("detail-long", driver.screen)
    }

    @Test func valueList() throws {
        var driver = try Self.driver(width: 60, height: 12)
        driver.press(.enter, .enter, .character("G"), .enter)
        try expectGolden("values-tags", driver.screen)
    }

    @Test func queryAndSort() throws {
        var driver = try Self.driver(width: 80, height: 12)
        driver.press(.down, .enter)
        driver.press(.character("/"))
        driver.type("age != nil")
        driver.press(.enter, .character("l"), .character("S"))
        try expectGolden("query-sorted", driver.screen)
    }

    @Test func queryError() throws {
        var driver = try Self.driver(width: 80, height: 12)
        driver.press(.enter, .character("/"))
        driver.type("id > 1 AND nmae == 'x'")
        driver.press(.enter)
        try expectGolden("query-error", driver.screen)
    }

    @Test func schema() throws {
        var driver = try Self.driver(width: 80, height: 24)
        driver.press(.character(":"))
        driver.type("schema")
        driver.press(.enter)
        try expectGolden("schema", driver.screen)
    }

    /// Sorts with no golden file of their own: each step's grid is the engine's.
    @Test func sortsDrawWhatTheEngineDraws() throws {
        let steps: [[ExplorerEvent]] = [
            [.key(.enter)],
            [.key(.character("l")), .key(.character("s"))],
            [.key(.character("S"))],
            [.key(.character("l")), .key(.character("s"))],
            [.key(.escape), .key(.down), .key(.enter), .key(.character("s"))],
            [.key(.character("l")), .key(.character("l")), .key(.character("S"))],
        ]
        var native = try ExplorerFixture.driver(width: 120, height: 14, extraDogs: 30)
        let version = try Self.copy(try ExplorerFixture.realm(extraDogs: 30))
        var fake = ExplorerDriver(
            state: ExplorerState(
                realm: try Realm(reading: version, path: "fixture.realm"), fileName: "fixture.realm", readOnly: false,
                width: 120, height: 14))
        for (i, step) in steps.enumerated() {
            for event in step {
                native.send(event)
                fake.send(event)
            }
            #expect(
                fake.screen.lines == native.screen.lines, "step \(i):\n\(fake.screen.lines.joined(separator: "\n"))")
        }
    }

    /// The screens really come from the fake: an object added to it shows in the counts.
    @Test func theCountsAreTheFakes() throws {
        let (version, _) = try Self.fake()
        let dog = try #require(version.schema.objectSchemas.firstIndex { $0.name == "Dog" })
        let key = ObjectKey(try version.keyBound(classIndex: dog))
        version.add(classIndex: dog, key: key, values: [.string("Fido"), .int(2), .null, .null])
        let driver = ExplorerDriver(
            state: ExplorerState(
                realm: try Realm(reading: version, path: "fixture.realm"), fileName: "fixture.realm", readOnly: false,
                width: 80, height: 24))
        let dogRow = try #require(driver.screen.lines.first { $0.contains("Dog") })
        #expect(dogRow.split(separator: " ").contains("4"), "\(dogRow)")
    }

    /// Writing needs the engine's own file: a Realm over another storage refuses it.
    @Test func aRealmOverAnotherStorageRefusesWrites() throws {
        let realm = try Realm(reading: try Self.fake().0, path: "fixture.realm")
        #expect(realm.isFrozen)
        #expect(realm.path == "fixture.realm")
        #expect(throws: RealmError.self) { try realm.beginWrite() }
        #expect(!realm.isInWriteTransaction)
        #expect(throws: RealmError.self) { try realm.tryBeginWrite() }
        #expect(throws: RealmError.self) { try realm.writeCopy(toFile: "/tmp/s26-readable-never.realm") }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/s26-readable-never.realm"))
        #expect(try realm.objects("Person").count == 3)
        #expect(realm.latestVersion == realm.version)
    }
}
