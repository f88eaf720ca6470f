import Foundation
@testable import RealmEngine
import RealmTUI
import Testing

/// A damaged class reads as damaged in the explorer, never as an empty or plausible table.
@Suite("Explorer on a damaged file")
struct ExplorerDamagedFileTests {
    static let marker = "DAMAGED-LEAF-MARKER-0123456789"

    /// A file of 2,000 dogs, one named with the marker, whose bytes are then overwritten; with
    /// `laterCommit`, a small commit follows, so the damage is not in the newest commit.
    static func damagedFile(laterCommit: Bool) throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "realmtui-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("bad.realm").path
        do {
            let realm = try Realm(path: path, schema: ExplorerFixture.schema)
            try realm.write {
                for i in 0..<2000 {
                    try realm.create(
                        "Dog", ["name": .string(i == 1000 ? Self.marker : "dog \(i)"), "age": .int(Int64(i % 15))])
                }
            }
            if laterCommit { try realm.write { _ = try realm.create("Dog", ["name": .string("late")]) } }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array(Self.marker.utf8)
        var hits = 0
        for i in 0..<(bytes.count - needle.count) where Array(bytes[i..<i + needle.count]) == needle {
            for j in i..<i + needle.count { bytes[j] = 0x23 }
            hits += 1
        }
        try #require(hits > 0)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    @Test func aDamagedLeafIsShownAsAnErrorNotAsNoObjects() throws {
        let (folder, path) = try Self.damagedFile(laterCommit: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "bad.realm", readOnly: true, width: 100, height: 20))
        driver.press(.down, .enter, .character("/"))
        driver.type("age == 3")
        driver.press(.enter)
        let screen = driver.screen.lines.joined(separator: "\n")
        #expect(screen.contains("cannot be read") || screen.contains("checksum"), "\(screen)")
        #expect(!screen.contains("0 objects"), "\(screen)")
        #expect(!screen.contains("no objects"), "\(screen)")
    }

    @Test func aDamagedNewestCommitIsNeverSilent() throws {
        let (folder, path) = try Self.damagedFile(laterCommit: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "bad.realm", readOnly: true, width: 140, height: 20))
        let status = driver.statusText
        #expect(status.contains("⚠"), "\(status)")
        // After the first key the message is gone, but the status line still says it.
        driver.press(.down)
        let lost = try #require(realm.recoveredFromDamagedCommit)
        #expect(driver.statusText.contains("⚠ v\(lost) set aside"), "\(driver.statusText)")
    }

    /// Issue 29, item 2: opened writable, the set-aside commit is kept beside the file; the
    /// status line says so in every session until it is discarded, and `:recover` salvages it.
    @Test func aSetAsideCommitIsOfferedForRecovery() throws {
        let (folder, path) = try Self.damagedFile(laterCommit: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lost: UInt64
        do {
            let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
            lost = try #require(realm.recoveredFromDamagedCommit)
        }
        // A later session: the lock file forgot; the copy beside the file did not.
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
        #expect(realm.recoveredFromDamagedCommit == nil)
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "bad.realm", readOnly: false, width: 140, height: 20))
        driver.press(.down)
        #expect(driver.statusText.contains("⚠ v\(lost) set aside · :recover"), "\(driver.statusText)")
        driver.press(.character(":"))
        driver.type("recover")
        driver.press(.enter)
        let salvaged = path + ".recovered-v\(lost).realm"
        #expect(driver.statusText.contains("recovered"), "\(driver.statusText)")
        #expect(driver.statusText.contains(salvaged), "\(driver.statusText)")
        let copy = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: salvaged), readOnly: true, createIfMissing: false))
        #expect(try copy.objects("Dog").count > 0)
    }

    /// Issue 11, defect 7: a zeroed sector of the newest header slot falls back to the other
    /// slot, and the status line says so.
    @Test func aLostHeaderSlotIsShownInTheStatusLine() throws {
        let scratch = TempDir("realmtui-slot")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        let path = folder.appendingPathComponent("slot.realm").path
        var newestSlotSector = 0
        do {
            let realm = try Realm(path: path, schema: ExplorerFixture.schema)
            try realm.write { _ = try realm.create("Dog", ["name": .string("one")]) }
            try realm.write { _ = try realm.create("Dog", ["name": .string("two")]) }
            // Slots alternate: version 1 in slot 0, so an odd version is in slot 0 (sector 0),
            // an even one in slot 1 (the sector at 32 KiB).
            newestSlotSector = realm.version % 2 == 1 ? 0 : 32 << 10
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(newestSlotSector..<newestSlotSector + 512, with: Data(count: 512))
        try bytes.write(to: URL(fileURLWithPath: path))
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
        let driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "slot.realm", readOnly: true, width: 200, height: 20))
        let status = driver.statusText
        #expect(status.contains("⚠"), "\(status)")
        #expect(status.contains("header slot"), "\(status)")
    }

    /// An object of an opened commit that cannot be read shows the error, not "gone (deleted
    /// since)": it was not deleted.
    @Test func anUnreadableObjectOfACommitIsAnErrorNotGone() throws {
        let (folder, path) = try Self.damagedFile(laterCommit: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
        #expect(throws: (any Error).self) { try realm.object(ofType: "Dog", key: ObjectKey(1000)) }
        var state = ExplorerState(realm: realm, fileName: "bad.realm", readOnly: true, width: 100, height: 20)
        let summary = CommitSummary(
            version: realm.version,
            classes: [
                .init(
                    className: "Dog", inserted: 0, deleted: 0, modified: 1, touchedKeys: [ObjectKey(1000)],
                    insertedKeys: [])
            ], changedSchema: false)
        _ = update(&state, .commits([summary], seenAt: Date()))
        _ = update(&state, .key(.character("c")))
        _ = update(&state, .key(.enter))
        let lines = render(state).lines
        #expect(!lines.contains { $0.contains("gone") }, "\(lines)")
        #expect(lines.contains { $0.contains("Dog#1000") && $0.contains("⚠") }, "\(lines)")
    }

    /// Another process commits a version whose top node then fails its checksum: the explorer
    /// stays on the version it shows (still pinned) and says in the status line that it cannot
    /// move, rather than looking up to date. A later good commit (which no longer reaches the
    /// damaged top node) is followed as usual, live change sets included.
    @Test func aNewerVersionThatCannotBeReadIsShownNotSkipped() throws {
        let scratch = TempDir("realmtui-newest")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch.url
        let path = folder.appendingPathComponent("newest.realm").path
        let writer = try Realm(path: path, schema: ExplorerFixture.schema)
        try writer.write { for i in 0..<5 { try writer.create("Dog", ["name": .string("dog \(i)")]) } }
        // Read-only: a file state of its own, as another process has (the writer's cache of the
        // nodes it wrote would hide the damage from an instance sharing it).
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false))
        var driver = ExplorerDriver(
            state: ExplorerState(realm: realm, fileName: "newest.realm", readOnly: true, width: 140, height: 20))
        // On the class list, nothing is observed: no notifier thread reads the commit before
        // it is damaged.
        try writer.write { try writer.create("Dog", ["name": .string("late")]) }
        try Self.damageNewestTop(path)
        #expect(driver.isBehind)
        let moved = driver.refresh()
        #expect(!moved)
        let status = driver.statusText
        #expect(status.contains("⚠"), "\(status)")
        #expect(status.contains("version \(realm.version + 1)"), "\(status)")
        #expect(status.contains("checksum"), "\(status)")
        // The table is the version shown; its observer cannot compute at the damaged version.
        driver.press(.down, .enter)
        #expect(driver.screen.lines.contains { $0.contains("dog 4") }, "\(driver.screen.lines)")
        #expect(!driver.screen.lines.contains { $0.contains("late") }, "\(driver.screen.lines)")
        try writer.write { try writer.create("Dog", ["name": .string("later")]) }
        let movedLater = driver.refresh()
        #expect(movedLater)
        #expect(driver.screen.lines.contains { $0.contains("later") }, "\(driver.screen.lines)")
        try writer.write { try writer.create("Dog", ["name": .string("last")]) }
        let movedLast = driver.refresh()
        #expect(movedLast)
        #expect(driver.screen.lines.contains { $0.hasPrefix(" +last") }, "live updates ended: \(driver.screen.lines)")
    }

    /// Flips a byte in the payload of the newest version's top node.
    static func damageNewestTop(_ path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let slots = try data.withUnsafeBytes { raw in
            try FileHeader.read(base: try #require(raw.baseAddress), fileSize: UInt64(raw.count), path: path)
        }
        let offset = try #require(slots.first?.slot).topRef + UInt64(Node.headerSize) + 1
        try handle.seek(toOffset: offset)
        let old = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: offset)
        handle.write(Data([old ^ 0x5A]))
    }
}
