import Foundation
// The shared helpers (TempDir, SeededGenerator, child processes, tags, TestSize) for every file of this target.
@_exported import TestSupport
import RealmEngine
import RealmTUI
import Testing

/// A small in-memory database for the explorer's tests: CJK text, nulls, an empty string, a
/// long value with control characters, dates with fractions, data, links, lists and backlinks.
enum ExplorerFixture {
    static let schema = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string),
                Property(name: "nickname", type: .string, isOptional: true),
                Property(name: "born", type: .date, isOptional: true),
                Property(name: "photo", type: .data, isOptional: true),
                Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
                Property(name: "tags", type: .string, isList: true),
            ]),
        ObjectSchema(
            name: "Dog",
            properties: [
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "age", type: .int, isOptional: true),
                Property(name: "weight", type: .double, isOptional: true),
                Property(name: "friend", type: .object, isOptional: true, objectClassName: "Dog"),
                Property(
                    name: "owners", type: .linkingObjects, objectClassName: "Person", linkOriginPropertyName: "dogs"),
            ]),
    ])

    /// A fresh in-memory Realm (a new identifier each call) filled with the fixture's objects.
    static func realm(extraDogs: Int = 0) throws -> Realm {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "explorer-\(UUID().uuidString)", schema: schema))
        try realm.write {
            let dahuang = try realm.create("Dog", ["name": .string("大黄"), "age": .int(3), "weight": .double(12.5)])
            let rex = try realm.create("Dog", ["name": .string("Rex"), "age": .null, "weight": .double(30)])
            try rex.setValue(.link(dahuang.key), forKey: "friend")
            try realm.create("Dog", ["name": .string("Ghost"), "age": .int(11)])
            for i in 0..<extraDogs {
                try realm.create("Dog", ["name": .string("dog \(i)"), "age": .int(Int64(i % 20))])
            }
            try realm.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(1)), "name": .value(.string("张三")), "nickname": .value(.string("小张")),
                    "born": .value(.date(Timestamp(seconds: 631_152_000, nanoseconds: 250_000_000))),
                    "photo": .value(.data(Data([0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05]))),
                    "dogs": .array([.value(.link(dahuang.key)), .value(.link(rex.key))]),
                    "tags": .array([.value(.string("owner")), .value(.string("北京"))]),
                ]))
            try realm.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(2)), "name": .value(.string("Ann")), "nickname": .value(.string("")),
                    "dogs": .array([.value(.link(rex.key))]),
                ]))
            try realm.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(3)),
                    "name": .value(
                        .string(
                            "A very long name that goes on and on \u{1B}[31mred\u{1B}[0m and\nnext line for the detail view"
                        )),
                ]))
        }
        return realm
    }

    /// A driver over a fresh fixture Realm, on a terminal of the given size, without colour.
    static func driver(width: Int = 80, height: Int = 24, extraDogs: Int = 0) throws -> ExplorerDriver {
        let realm = try realm(extraDogs: extraDogs)
        let state = ExplorerState(
            realm: realm, fileName: "fixture.realm", readOnly: false, width: width, height: height)
        return ExplorerDriver(state: state)
    }
}

/// Compares a screen with `Golden/NAME.txt`; `REALMTUI_UPDATE_GOLDEN=1 swift test` rewrites the
/// files (review them in the diff).
func expectGolden(_ name: String, _ grid: Grid, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name).txt")
    let actual = grid.lines.joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["REALMTUI_UPDATE_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
        actual == expected, "screen \(name) differs from Golden/\(name).txt:\n\(actual)", sourceLocation: sourceLocation
    )
}

/// Files and a class of every scalar type for the editors' tests (issue 12).
enum EditFixture {
    /// One property of each editable type, optional and required, behind an int primary key.
    static let everySchema = Schema([
        ObjectSchema(
            name: "Every",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "small", type: .int8),
                Property(name: "flag", type: .bool),
                Property(name: "ratio", type: .float),
                Property(name: "when", type: .date, isOptional: true),
                Property(name: "oid", type: .objectId),
                Property(name: "uid", type: .uuid, isOptional: true),
                Property(name: "blob", type: .data, isOptional: true),
                Property(name: "note", type: .string, isOptional: true),
            ])
    ])

    /// A folder of its own for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("realmtui-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The explorer fixture's objects in a file at `path` (a compacted copy of the in-memory one).
    static func fixtureFile(at path: String) throws {
        try ExplorerFixture.realm().writeCopy(toFile: path)
    }

    /// A file holding one `Every` object (id 1, small 5, flag false, ratio 1.5, a new ObjectId, note hello).
    static func everyFile(at path: String) throws {
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: everySchema))
        try realm.write {
            try realm.create(
                "Every",
                [
                    "id": .int(1), "small": .int(5), "flag": .bool(false), "ratio": .float(1.5),
                    "oid": .objectId(.generate()), "note": .string("hello"),
                ])
        }
    }

    /// A driver over the file at `path`.
    static func driver(path: String, readOnly: Bool = false, width: Int = 80, height: Int = 24) throws -> ExplorerDriver
    {
        let realm = try Realm(path: path, readOnly: readOnly)
        return ExplorerDriver(
            state: ExplorerState(
                realm: realm, fileName: URL(fileURLWithPath: path).lastPathComponent,
                readOnly: readOnly, width: width, height: height))
    }

    /// A property's value read through a fresh instance of the file (what another reader sees).
    static func reread(_ path: String, _ className: String, key: Int64, _ property: String) throws -> Value? {
        let realm = try Realm(path: path, readOnly: true)
        return try realm.object(ofType: className, key: ObjectKey(key))?.value(forKey: property)
    }
}
