import Foundation
import RealmEngine
import TestSupport
import Testing

/// `realmtui sync init / sync FILE --once / sync status`, run as a user would (issue 27): two
/// files edited on both sides end with the same `realmtui export`.
@Suite(
    "realmtui sync (needs PGHOST: run under pg_virtualenv)", .enabled(if: hasServer, noServerReason),
    .tags(.multiProcess))
struct SyncCommandTests {
    /// Runs realmtui; fails the test with its stderr when the status is not `expected`.
    @discardableResult
    func realmtui(_ arguments: [String], expect expected: Int32 = 0) throws -> String {
        let (status, out, err) = try BuiltExecutable.run("realmtui", arguments)
        #expect(status == expected, "realmtui \(arguments.joined(separator: " ")) exited \(status); stderr: \(err)")
        return expected == 0 ? out : err
    }

    @Test func twoFilesEditedOnBothSidesExportTheSame() throws {
        let server = try ServerNamespace()
        let dir = TempDir()
        let schemaFile = dir.path("schema.json")
        try
            #"[{"name": "Dog", "primaryKey": "id", "properties": {"id": "int", "name": "string", "toys": "string[]", "friend": "Dog?"}}]"#
            .write(toFile: schemaFile, atomically: true, encoding: .utf8)
        let a = dir.path("a.realm")
        let b = dir.path("b.realm")
        for file in [a, b] {
            try realmtui(["create", file, "--schema", schemaFile])
            let said = try realmtui(["sync", "init", file, server.url])
            #expect(said.contains("syncs with"))
        }
        try SyncFixture.write(a) { r in
            let rex = try r.create("Dog", ["id": .int(1), "name": .string("Rex"), "toys": .list([.string("ball")])])
            let fido = try r.create("Dog", ["id": .int(2), "name": .string("Fido")])
            try fido.setValue(.link(rex.key), forKey: "friend")
        }
        try SyncFixture.write(b) { r in _ = try r.create("Dog", ["id": .int(3), "name": .string("Lassie")]) }
        let before = try realmtui(["sync", "status", a])
        #expect(before.contains("pending uploads: 2") && before.contains("last sync: never"), "\(before)")
        #expect(try realmtui(["sync", a, "--once"]).contains("uploaded 1 commit(s)"))
        try realmtui(["sync", b, "--once"])
        try SyncFixture.write(b) { r in
            try r.object(ofType: "Dog", forPrimaryKey: .int(1))?.setValue(.string("Rex II"), forKey: "name")
        }
        try realmtui(["sync", b, "--once"])
        try realmtui(["sync", a, "--once"])
        let status = try realmtui(["sync", "status", a])
        #expect(status.contains("pending uploads: 0"))
        #expect(status.contains("last sync: 20"), "\(status)")
        #expect(!status.contains(ProcessInfo.processInfo.environment["PGPASSWORD"] ?? "\u{0}"))
        let exportA = try realmtui(["export", a])
        #expect(exportA.contains("Rex II") && exportA.contains("Lassie"))
        #expect(!exportA.contains("__realmtui"))
        // The same objects; export lists them in each file's own key order (keys are per file).
        func objects(_ export: String) -> [String] {
            export.split(separator: "\n").filter { $0.hasPrefix("{\"") }.map {
                $0.hasSuffix(",") ? String($0.dropLast()) : String($0)
            }.sorted()
        }
        let exportB = try realmtui(["export", b])
        #expect(objects(exportB) == objects(exportA))
        #expect(objects(exportA).count == 3)
        #expect(!(try realmtui(["schema", a])).contains("__realmtui"))
    }

    @Test func aPollOfZeroSecondsIsAUsageError() throws {
        let dir = TempDir()
        let error = try realmtui(["sync", dir.path("x.realm"), "--poll", "0"], expect: 64)
        #expect(error.contains("--poll"))
    }
}
