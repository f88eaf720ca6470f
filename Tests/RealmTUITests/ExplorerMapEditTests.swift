import Foundation
import RealmEngine
@testable import RealmTUI
import Testing

/// Editing dictionaries in their values screen: a dictionary of links (a puts a key and picks
/// its object, e picks again, ctrl-n in the picker sets null, r renames, x removes), one of
/// embedded objects (a puts a key with a new object made by the form, r renames, x removes and
/// deletes it), one inside a Mixed value; each in its own write with undo. A key Realm refuses
/// or one already there is refused in the editor, nothing written.
@Suite("Explorer dictionaries, edited")
struct ExplorerMapEditTests {
    static func text(_ driver: ExplorerDriver) -> String { driver.screen.lines.joined(separator: "\n") }

    static func box(_ path: String, _ property: String) throws -> Value? {
        try EditFixture.reread(path, "Box", key: 0, property)
    }

    @Test func aDictionaryOfLinksIsEdited() throws {
        var (driver, path, folder) = try ExplorerFollowLinksTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("j"), .character("j"), .character("j"), .enter)  // Box 1 › dogs
        driver.press(.character("a"))
        driver.type("best")
        driver.press(.enter)  // the Dog table to pick from
        #expect(driver.statusText.contains("pick a Dog"), "\(Self.text(driver))")
        driver.press(.character("j"), .enter)  // Fido
        #expect(
            try Self.box(path, "dogs")
                == .map(["best": .link(ObjectKey(1)), "none": .null, "rex": .link(ObjectKey(0))]),
            "\(Self.text(driver))")
        driver.press(.character("e"), .control("n"))  // best → null
        #expect(
            try Self.box(path, "dogs") == .map(["best": .null, "none": .null, "rex": .link(ObjectKey(0))]),
            "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(
            try Self.box(path, "dogs")
                == .map(["best": .link(ObjectKey(1)), "none": .null, "rex": .link(ObjectKey(0))]),
            "\(driver.statusText)")
        driver.press(.character("j"), .character("r"), .control("u"))  // none → nobody
        driver.type("nobody")
        driver.press(.enter)
        driver.press(.character("g"), .character("x"))  // best removed
        #expect(
            try Self.box(path, "dogs") == .map(["nobody": .null, "rex": .link(ObjectKey(0))]), "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(
            try Self.box(path, "dogs")
                == .map(["best": .link(ObjectKey(1)), "nobody": .null, "rex": .link(ObjectKey(0))]),
            "\(driver.statusText)")
    }

    @Test func aKeyRealmRefusesIsRefusedWithNothingWritten() throws {
        var (driver, path, folder) = try ExplorerFollowLinksTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.enter, .character("j"), .character("j"), .character("j"), .enter)  // Box 1 › dogs
        let before = try Self.box(path, "dogs")
        for (key, says) in [("a.b", "'.'"), ("$x", "'$'"), ("rex", "already has the key 'rex'")] {
            driver.press(.character("a"))
            driver.type(key)
            driver.press(.enter)
            #expect(
                Self.text(driver).contains("refused, nothing written") && Self.text(driver).contains(says),
                "\(Self.text(driver))")
            #expect(driver.state.current.kind == .values, "\(Self.text(driver))")
            if key == "a.b" { try expectGolden("map-edit-bad-key", driver.screen) }
            driver.press(.escape)
        }
        #expect(try Self.box(path, "dogs") == before)
    }

    @Test func aDictionaryOfEmbeddedObjectsIsEdited() throws {
        var (driver, path, folder) = try ExplorerFollowLinksTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        func cities() throws -> [String: Value] {
            let realm = try Realm(path: path, readOnly: true)
            guard case .map(let entries)? = try Self.box(path, "places") else { return [:] }
            return try entries.mapValues { value in
                guard case .link(let key) = value else { return value }
                return try realm.object(ofType: "Place", key: key)?.value(forKey: "city") ?? .null
            }
        }
        driver.press(.enter, .character("G"), .enter)  // Box 1 › places
        driver.press(.character("a"))
        driver.type("work")
        driver.press(.enter)
        #expect(Self.text(driver).contains("Enter creates"), "\(Self.text(driver))")
        driver.type("Bergen")
        driver.press(.enter)
        #expect(try cities() == ["home": .string("Oslo"), "work": .string("Bergen")], "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(try cities() == ["home": .string("Oslo")], "\(driver.statusText)")
        driver.press(.control("r"))
        #expect(try cities() == ["home": .string("Oslo"), "work": .string("Bergen")], "\(driver.statusText)")
        driver.press(.character("g"), .character("r"), .control("u"))  // home → house
        driver.type("house")
        driver.press(.enter)
        #expect(try cities() == ["house": .string("Oslo"), "work": .string("Bergen")], "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(try cities() == ["home": .string("Oslo"), "work": .string("Bergen")], "\(driver.statusText)")
        driver.press(.character("g"), .character("x"))  // home removed, its Place deleted
        #expect(try cities() == ["work": .string("Bergen")], "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(try cities() == ["home": .string("Oslo"), "work": .string("Bergen")], "\(driver.statusText)")
        driver.press(.character("e"))
        #expect(driver.statusText.contains("Enter opens it"), "\(driver.statusText)")
        _ = try Realm(path: path, readOnly: true).checkIntegrity()
    }

    @Test func aDictionaryInsideAMixedIsEdited() throws {
        var (driver, path, folder) = try ExplorerFollowLinksTests.driver()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fido = Value.typedLink(TypedLink(className: "Dog", key: ObjectKey(1)))
        let rex = Value.typedLink(TypedLink(className: "Dog", key: ObjectKey(0)))
        driver.press(.enter, .character("j"), .enter, .character("G"), .enter)  // Box 1 › value › [2]
        driver.press(.character("a"))
        driver.type("n")
        driver.press(.enter)  // the new key's value: its type first (issue 23)
        guard case .edit(.choosingType) = driver.state.mode else {
            Issue.record("a new key's Mixed value did not open the type picker: \(Self.text(driver))")
            return
        }
        driver.press(.character("i"), .enter, .control("u"))
        driver.type("5")
        driver.press(.enter)
        #expect(
            try Self.box(path, "value") == .list([.int(1), rex, .map(["k": fido, "n": .int(5)])]),
            "\(Self.text(driver))")
        driver.press(.character("u"))
        #expect(try Self.box(path, "value") == .list([.int(1), rex, .map(["k": fido])]), "\(driver.statusText)")
        driver.press(.escape, .character("g"), .character("e"))  // [0]: 1 → "one", picked as a string
        driver.press(.character("s"), .enter, .control("u"))
        driver.type("one")
        driver.press(.enter)
        #expect(try Self.box(path, "value") == .list([.string("one"), rex, .map(["k": fido])]), "\(Self.text(driver))")
    }
}
