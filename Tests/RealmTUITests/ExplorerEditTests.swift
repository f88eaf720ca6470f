import Foundation
import RealmEngine
import RealmTUI
import Testing

/// Editing in the explorer (issue 12, Edit): the editors, refusals, deletes, `:set`, undo and
/// read-only files, each checked through the engine afterwards.
@Suite("Explorer edit")
struct ExplorerEditTests {
    /// A driver on the Dog table of a fixture file, the cursor on 大黄's age.
    func dogAge() throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path)
        driver.press(.down, .enter, .character("l"))
        return (driver, path, folder)
    }

    /// A driver on the Every table, the cursor on column `column`.
    func every(column: Int) throws -> (driver: ExplorerDriver, path: String, folder: URL) {
        let folder = try EditFixture.folder()
        let path = folder.appendingPathComponent("every.realm").path
        try EditFixture.everyFile(at: path)
        var driver = try EditFixture.driver(path: path, width: 120)
        driver.press(.enter)
        for _ in 0..<column { driver.press(.character("l")) }
        return (driver, path, folder)
    }

    @Test func eOpensTheEditorFilledAndEnterAsksForOneWrite() throws {
        var (driver, path, folder) = try dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"))
        #expect(driver.screen.lines.contains("=3"))
        driver.press(.control("u"))
        #expect(driver.screen.lines.contains("="))
        driver.type("7")
        let effects = update(&driver.state, .key(.enter))
        #expect(effects == [.write(.set(className: "Dog", keys: [ObjectKey(0)], property: "age", value: .int(7)))])
        driver.send(.key(.character("e")))
        driver.press(.control("u"))
        driver.type("8")
        driver.press(.enter)
        #expect(driver.screen.lines[3].contains("8"))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(8))
    }

    @Test func escCancelsAndWritesNothing() throws {
        var (driver, path, folder) = try dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = driver.state.realmVersion
        driver.press(.character("e"), .control("u"))
        driver.type("9")
        driver.press(.escape)
        #expect(driver.statusText.contains("nothing written") == true)
        #expect(driver.state.realmVersion == version)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
    }

    @Test func aValueThatDoesNotFitIsRefusedAndNothingWritten() throws {
        var (driver, path, folder) = try dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = driver.state.realmVersion
        driver.press(.character("e"), .control("u"))
        driver.type("abc")
        let effects = update(&driver.state, .key(.enter))
        #expect(effects.isEmpty)
        #expect(driver.screen.lines.contains { $0.hasPrefix("refused, nothing written") && $0.contains("age") })
        #expect(driver.screen.lines.contains("=abc"))
        #expect(driver.state.realmVersion == version)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
    }

    @Test func int8RejectsTwoHundredWithTheEnginesMessage() throws {
        var (driver, path, folder) = try every(column: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"), .control("u"))
        driver.type("200")
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.contains("refused") && $0.contains("int8 in -128...127") })
        driver.press(.control("u"))
        driver.type("-128")
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Every", key: 0, "small") == .int(-128))
    }

    @Test func primaryKeysCannotBeEdited() throws {
        var (driver, _, folder) = try every(column: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"))
        #expect(driver.statusText.contains("id is the primary key") == true)
        #expect(!driver.screen.lines.contains { $0.hasPrefix("=") })
        driver.press(.character(":"))
        driver.type("set id = 4")
        driver.press(.enter)
        #expect(driver.statusText.contains("primary key") == true)
    }

    @Test func boolTogglesWithSpace() throws {
        var (driver, path, folder) = try every(column: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"))
        #expect(driver.screen.lines.contains("=false"))
        driver.press(.character(" "))
        #expect(driver.screen.lines.contains("=true"))
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Every", key: 0, "flag") == .bool(true))
    }

    @Test func datesAcceptNowAndISO8601AndNullOnOptional() throws {
        var (driver, path, folder) = try every(column: 4)
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"))
        #expect(driver.screen.lines.contains("=null"))
        driver.press(.control("u"))
        driver.type("now")
        let before = Date()
        driver.press(.enter)
        let after = Date()
        guard case .date(let written)? = try EditFixture.reread(path, "Every", key: 0, "when") else {
            Issue.record("no date written")
            return
        }
        #expect(written.date >= before.addingTimeInterval(-0.001) && written.date <= after.addingTimeInterval(0.001))
        driver.press(.character("e"), .control("u"))
        driver.type("2020-01-02T03:04:05.25Z")
        driver.press(.enter)
        #expect(
            try EditFixture.reread(path, "Every", key: 0, "when")
                == .date(Timestamp(seconds: 1_577_934_245, nanoseconds: 250_000_000)))
        driver.press(.character("e"), .control("n"))
        #expect(try EditFixture.reread(path, "Every", key: 0, "when") == .null)
    }

    @Test func objectIdAndUUIDAcceptNewAndAreValidated() throws {
        var (driver, path, folder) = try every(column: 5)
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try EditFixture.reread(path, "Every", key: 0, "oid")
        driver.press(.character("e"), .control("u"))
        driver.type("not-an-id")
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.hasPrefix("refused") })
        #expect(try EditFixture.reread(path, "Every", key: 0, "oid") == old)
        driver.press(.control("n"))
        #expect(driver.screen.lines.contains { $0.contains("oid is required") })
        driver.press(.control("u"))
        driver.type("new")
        driver.press(.enter)
        let new = try EditFixture.reread(path, "Every", key: 0, "oid")
        #expect(new != old)
        if case .objectId? = new {} else { Issue.record("oid is \(String(describing: new))") }
        driver.press(.character("l"), .character("e"), .control("u"))
        driver.type("new")
        driver.press(.enter)
        if case .uuid? = try EditFixture.reread(path, "Every", key: 0, "uid") {
        } else {
            Issue.record("no uuid written")
        }
    }

    @Test func dataAcceptsHexAndBase64() throws {
        var (driver, path, folder) = try every(column: 7)
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"), .control("u"))
        driver.type("0xcafe00")
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Every", key: 0, "blob") == .data(Data([0xCA, 0xFE, 0x00])))
        driver.press(.character("e"))
        #expect(driver.screen.lines.contains("=0xcafe00"))
        driver.press(.control("u"))
        driver.type("AQID")
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Every", key: 0, "blob") == .data(Data([1, 2, 3])))
    }

    @Test func enterOnAStringInTheDetailViewEditsItOverSeveralLines() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path)
        driver.press(.enter, .character("G"), .enter, .down)  // Person 3 › name (two lines)
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.hasPrefix("│next line for the detail view") })
        driver.press(.control("u"))
        driver.type("李四")
        driver.press(.enter)  // a new line, not a write
        driver.type("second")
        #expect(try EditFixture.reread(path, "Person", key: 2, "name") != .string("李四\nsecond"))
        driver.press(.control("s"))
        #expect(try EditFixture.reread(path, "Person", key: 2, "name") == .string("李四\nsecond"))
        #expect(driver.screen.lines.contains { $0.contains("name") && $0.contains("李四") })
        driver.press(.down, .enter)  // nickname: null stays null with ^N
        driver.press(.control("n"))
        #expect(try EditFixture.reread(path, "Person", key: 2, "nickname") == .null)
        driver.press(.down, .down, .down, .enter)  // dogs: Enter still opens the list
        #expect(driver.screen.lines[0].contains("dogs"))
    }

    /// One value syntax in every editor. Before, `null` typed in the detail view's editor of an
    /// optional string wrote the string "null" (the table's editor wrote nil), that string was
    /// shown exactly like a null, and ^S in that editor on a null wrote "".
    @Test func nullMeansNilInEveryEditorAndAStringReadingNullIsShownQuoted() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path)
        driver.press(.enter, .enter, .down, .down, .enter)  // Person 1 › nickname "小张", the detail view's editor
        driver.press(.control("u"))
        driver.type("null")
        driver.press(.control("s"))
        #expect(try EditFixture.reread(path, "Person", key: 0, "nickname") == .null)
        driver.press(.enter)  // a null opens as null, and ^S keeps it
        #expect(driver.screen.lines.contains { $0 == "│null" }, "\(driver.screen.lines)")
        driver.press(.control("s"))
        #expect(try EditFixture.reread(path, "Person", key: 0, "nickname") == .null)
        driver.press(.enter, .control("u"))
        driver.type("\"null\"")  // the string "null", written as JSON
        driver.press(.control("s"))
        #expect(try EditFixture.reread(path, "Person", key: 0, "nickname") == .string("null"))
        #expect(
            driver.screen.lines.contains { $0.contains("nickname") && $0.contains("\"null\"") },
            "\(driver.screen.lines)")
        driver.press(.enter)  // it opens quoted, and ^S keeps the string
        #expect(driver.screen.lines.contains { $0 == "│\"null\"" }, "\(driver.screen.lines)")
        driver.press(.control("s"))
        #expect(try EditFixture.reread(path, "Person", key: 0, "nickname") == .string("null"))
        driver.press(.escape, .character("l"), .character("l"))  // the table shows it quoted too
        #expect(driver.screen.lines.contains { $0.contains("张三") && $0.contains("\"null\"") }, "\(driver.screen.lines)")
    }

    @Test func deleteAsksWithTheNumberOfLinksAndNCancels() throws {
        var (driver, path, folder) = try dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("d"))
        #expect(driver.screen.lines.contains { $0.contains("delete Dog 大黄? 2 objects link to it (y/n)") })
        driver.press(.character("n"))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "name") == .string("大黄"))
        driver.press(.character("d"), .character("y"))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "name") == nil)
        #expect(driver.statusText.contains("2 objects") == true)
        #expect(try EditFixture.reread(path, "Dog", key: 1, "friend") == .null)
        driver.press(.enter, .character("d"))  // from Rex's detail view
        #expect(driver.screen.lines.contains { $0.contains("delete Dog Rex? 2 objects link to it (y/n)") })
        driver.press(.character("y"))
        #expect(try EditFixture.reread(path, "Dog", key: 1, "name") == nil)
        #expect(driver.screen.lines[0].trimmingCharacters(in: .whitespaces).hasPrefix("Dog"))
        #expect(driver.statusText.contains("deleted 1 Dog object") == true)
    }

    @Test func deleteAndSetActOnTheWholeResultAfterAPromptWithTheCount() throws {
        var (driver, path, folder) = try dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("/"))
        driver.type("age != nil")
        driver.press(.enter, .character(":"))
        driver.type("set weight = 2.5")
        driver.press(.enter)
        #expect(
            driver.screen.lines.contains { $0.contains("set weight = 2.5 on all 2 Dog objects of this table? (y/n)") })
        driver.press(.character("y"))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "weight") == .double(2.5))
        #expect(try EditFixture.reread(path, "Dog", key: 2, "weight") == .double(2.5))
        #expect(try EditFixture.reread(path, "Dog", key: 1, "weight") == .double(30))
        driver.press(.character(":"))
        driver.type("set age = 300000000000000000000")
        driver.press(.enter)
        #expect(driver.statusText.contains("refused") == true)
        driver.press(.character(":"))
        driver.type("delete")
        driver.press(.enter)
        #expect(driver.screen.lines.contains { $0.contains("delete all 2 Dog objects of this table? (y/n)") })
        driver.press(.character("y"))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "name") == nil)
        #expect(try EditFixture.reread(path, "Dog", key: 2, "name") == nil)
        #expect(try EditFixture.reread(path, "Dog", key: 1, "name") == .string("Rex"))
        #expect(driver.screen.lines.contains { $0.contains("no objects match") })
    }

    @Test func undoRestoresTheOldValueUnlessSomeoneChangedItSince() throws {
        var (driver, path, folder) = try dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("u"))
        #expect(driver.statusText.contains("nothing to undo") == true)
        driver.press(.character("e"), .control("u"))
        driver.type("4")
        driver.press(.enter, .character("u"))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
        driver.press(.character("e"), .control("u"))
        driver.type("5")
        driver.press(.enter)
        let other = try Realm(path: path)
        try other.write { try other.object(ofType: "Dog", key: ObjectKey(0))?.setValue(Value.int(6), forKey: "age") }
        driver.press(.character("u"))
        #expect(driver.statusText.contains("changed since") == true)
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(6))
        // The refused change is dropped: u reaches the one before it (here none).
        #expect(driver.statusText.contains("dropped"), "\(driver.statusText)")
        driver.press(.character("u"))
        #expect(driver.statusText.contains("nothing to undo"), "\(driver.statusText)")
    }

    /// Before, undo had one level (a second u said "nothing to undo") and nothing redid.
    @Test func undoIsAStackAndCtrlRRedoes() throws {
        var (driver, path, folder) = try dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        func setAge(_ text: String) {
            driver.press(.character("e"), .control("u"))
            driver.type(text)
            driver.press(.enter)
        }
        func age() throws -> Value? { try EditFixture.reread(path, "Dog", key: 0, "age") }
        setAge("4")
        driver.press(.down)
        setAge("40")  // Rex
        driver.press(.up)
        setAge("5")
        driver.press(.character("u"))
        #expect(try age() == .int(4))
        driver.press(.character("u"))
        #expect(try EditFixture.reread(path, "Dog", key: 1, "age") == .null)
        driver.press(.character("u"))
        #expect(try age() == .int(3))
        driver.press(.character("u"))
        #expect(driver.statusText.contains("nothing to undo"), "\(driver.statusText)")
        driver.press(.control("r"))
        #expect(try age() == .int(4))
        #expect(driver.statusText.contains("redone"), "\(driver.statusText)")
        driver.press(.control("r"))
        #expect(try EditFixture.reread(path, "Dog", key: 1, "age") == .int(40))
        driver.press(.character("u"))  // a redo can be undone again
        #expect(try EditFixture.reread(path, "Dog", key: 1, "age") == .null)
        setAge("6")  // a new change drops what could be redone
        driver.press(.control("r"))
        #expect(driver.statusText.contains("nothing to redo"), "\(driver.statusText)")
        #expect(try age() == .int(6))
        #expect(KeyMap.standard.action(for: .control("r"), on: .table) == .redo)
    }

    @Test func readOnlyRefusesEveryEditKeyAndCopyOpensAWritableCopy() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("seed.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path, readOnly: true)
        driver.press(.down, .enter, .character("l"))
        for key in ["e", "d", "u"] {
            driver.press(.character(Character(key)))
            #expect(driver.statusText.contains(":copy PATH") == true, "key \(key)")
        }
        driver.press(.character(":"))
        driver.type("set age = 1")
        driver.press(.enter)
        #expect(driver.statusText.contains(":copy PATH") == true)
        let copy = folder.appendingPathComponent("copy.realm").path
        driver.press(.character(":"))
        driver.type("copy \(copy)")
        driver.press(.enter)
        #expect(driver.statusText.contains("copy.realm is open writable") == true)
        #expect(!driver.state.readOnly)
        driver.press(.down, .enter, .character("l"), .character("e"), .control("u"))
        driver.type("12")
        driver.press(.enter)
        #expect(try EditFixture.reread(copy, "Dog", key: 0, "age") == .int(12))
        #expect(try EditFixture.reread(path, "Dog", key: 0, "age") == .int(3))
    }
}

/// A write the writer thread refuses (the object deleted meanwhile, the key taken meanwhile,
/// a full disk) gives back the editor or form with what was typed and the reason: nothing the
/// user typed is lost to a failed commit.
@Suite("Explorer edit: a refused write keeps what was typed")
struct ExplorerRefusedWriteTests {
    @Test func theValueEditorReopensWithTheTextAndTheReason() throws {
        var (driver, path, folder) = try ExplorerEditTests().dogAge()
        defer { try? FileManager.default.removeItem(at: folder) }
        driver.press(.character("e"), .control("u"))
        driver.type("42")
        // Another process deletes 大黄 (Dog#0); the explorer has not seen that commit yet.
        let other = try Realm(path: path)
        try other.write {
            guard let dog = try other.object(ofType: "Dog", key: ObjectKey(0)) else { return }
            try other.delete(dog)
        }
        driver.press(.enter)
        let lines = driver.screen.lines
        #expect(lines.contains("=42"), "\(lines)")
        #expect(lines.contains { $0.contains("nothing written") && $0.contains("deleted meanwhile") }, "\(lines)")
        driver.press(.escape)
        #expect(!driver.screen.lines.contains("=42"))
    }

    @Test func theFormReopensWithItsValuesAndTheReason() throws {
        let folder = try EditFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fixture.realm").path
        try EditFixture.fixtureFile(at: path)
        var driver = try EditFixture.driver(path: path)
        driver.press(.enter, .character("a"), .control("u"))
        driver.type("4")
        driver.press(.down, .control("u"))
        driver.type("Zoe")
        // Another process takes id 4 first.
        let other = try Realm(path: path)
        try other.write { try other.create("Person", ["id": .int(4), "name": .string("Other")]) }
        driver.press(.enter)
        let lines = driver.screen.lines
        #expect(lines.contains { $0.contains("Zoe") } && lines.contains { $0.contains("*id") }, "\(lines)")
        #expect(lines.contains { $0.contains("nothing written") }, "\(lines)")
        driver.press(.up, .control("u"))
        driver.type("5")
        driver.press(.enter)
        #expect(try EditFixture.reread(path, "Person", key: 4, "name") == .string("Zoe"))
    }
}
