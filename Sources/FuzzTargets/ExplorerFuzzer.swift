import Foundation
import RealmEngine
import RealmTUI

/// The explorer target: a new `Realm` instance per input on a small filled in-memory database,
/// an `ExplorerDriver` over it, and the input's bytes read as key presses, mouse events, resizes
/// and ticks, with the screen rendered after each. `:` is never typed, so no command line can
/// write an export file.
///
/// Every input starts from the same filled database at the same version. Creating and filling
/// it was a sixth of each input's time, so it is made once and kept (`PreparedMemoryRealm`) until
/// an input commits to it (an edit, a delete, an undo); then the next input gets a new one.
/// An input with an odd first byte runs the explorer read-only: committing then is a finding.
public final class ExplorerFuzzer {
    private let prepared = PreparedMemoryRealm(prefix: "fuzz-explorer", schema: ExplorerFuzzer.schema) {
        try ExplorerFuzzer.fill($0)
    }
    /// At most this many events per input.
    public static let maxEvents = 300

    /// A target; each run gets its own Realm instance and driver.
    public init() {}

    private static let specials: [Key] = [
        .enter, .escape, .backspace, .delete, .tab, .backTab, .up, .down, .left, .right,
        .home, .end, .pageUp, .pageDown, .function(1), .function(2), .function(5), .function(10),
    ]
    private static let characters: [Character] = {
        var list: [Character] = []
        for scalar in UInt8(ascii: " ")...UInt8(ascii: "}")
        where scalar != UInt8(ascii: ":") && scalar != UInt8(ascii: "/") {
            list.append(Character(UnicodeScalar(scalar)))
        }
        return list + ["大", "é", "\u{301}", "\u{1B}", "\t", "😀"]
    }()

    /// Runs one input.
    public func run(_ data: Data) throws {
        let bytes = [UInt8](data)
        let readOnly = bytes.first.map { $0 & 1 == 1 } ?? false
        // The driver (its writer thread's Realm included) is gone when this returns.
        try drive(bytes, readOnly: readOnly, realm: try prepared.open())
        if prepared.release(), readOnly {
            throw FuzzFinding("the read-only explorer committed to the database")
        }
    }

    private func drive(_ bytes: [UInt8], readOnly: Bool, realm: Realm) throws {
        let state = ExplorerState(realm: realm, fileName: "fuzz.realm", readOnly: readOnly, width: 80, height: 24)
        var driver = ExplorerDriver(state: state)
        var i = 1
        var events = 0
        while i < bytes.count, events < Self.maxEvents, !driver.didQuit {
            let b = bytes[i]
            i += 1
            events += 1
            switch b {
            case 0..<0x60:
                driver.send(.key(.character(Self.characters[Int(b) % Self.characters.count])))
            case 0x60..<0x80:
                driver.send(.key(.control(Character(UnicodeScalar(UInt8(ascii: "a") + (b - 0x60) % 26)))))
            case 0x80..<0xC0:
                driver.send(.key(Self.specials[Int(b - 0x80) % Self.specials.count]))
            case 0xC0..<0xE0:
                guard i + 1 < bytes.count else { break }
                let kinds: [MouseEvent.Kind] = [.press(button: 1), .press(button: 3), .wheelUp, .wheelDown]
                let event = MouseEvent(
                    kinds[Int(b) % kinds.count], column: Int(bytes[i]) % 100, row: Int(bytes[i + 1]) % 40)
                i += 2
                driver.send(.mouse(event))
            case 0xE0..<0xF0:
                guard i + 1 < bytes.count else { break }
                driver.send(.resize(width: Int(bytes[i]) % 140, height: Int(bytes[i + 1]) % 60))
                i += 2
            default:
                driver.send(.tick(seconds: Double(b - 0xF0)))
            }
            _ = driver.screen
        }
    }

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

    static func fill(_ realm: Realm) throws {
        try realm.write {
            let dahuang = try realm.create("Dog", ["name": .string("大黄"), "age": .int(3), "weight": .double(12.5)])
            let rex = try realm.create("Dog", ["name": .string("Rex"), "age": .null, "weight": .double(30)])
            try rex.setValue(.link(dahuang.key), forKey: "friend")
            for i in 0..<30 {
                try realm.create("Dog", ["name": .string("dog \(i)"), "age": .int(Int64(i % 7))])
            }
            try realm.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(1)), "name": .value(.string("张三")), "nickname": .value(.string("小张")),
                    "born": .value(.date(Timestamp(seconds: 631_152_000, nanoseconds: 250_000_000))),
                    "photo": .value(.data(Data([0xCA, 0xFE, 0x00, 0x01]))),
                    "dogs": .array([.value(.link(dahuang.key)), .value(.link(rex.key))]),
                    "tags": .array([.value(.string("owner")), .value(.string("北京"))]),
                ]))
            try realm.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(2)), "name": .value(.string("A long name \u{1B}[31mred\u{1B}[0m and\nnext line")),
                    "nickname": .value(.string("")), "dogs": .array([.value(.link(rex.key))]),
                ]))
        }
    }
}
