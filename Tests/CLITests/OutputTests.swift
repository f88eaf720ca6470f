import Foundation
import Testing
import RealmTUI

/// The table's width (terminal, then $COLUMNS, then 80), whole dates, --columns, --format line,
/// and nil against the string "null".
@Suite(.tags(.multiProcess)) struct OutputTests {
    /// The test database with a long name, so a table must be cut to fit.
    func wideDatabase(_ s: Scratch) throws -> String {
        let db = try s.database()
        let long = String(repeating: "很长的名字", count: 20)
        let r = try CLI.run(["update", db, "Dog", "age == 1", "--set", "name=\(long)"])
        try #require(r.status == 0, "\(r.stderr)")
        return db
    }

    func widest(_ text: String) -> Int {
        text.split(whereSeparator: \.isNewline).map { displayWidth(String($0)) }.max() ?? 0
    }

    @Test func theTableFitsTheTerminalsOwnWidth() throws {
        let s = try Scratch()
        let db = try wideDatabase(s)
        // `script` runs the command on a pseudo-terminal whose width `stty` sets.
        let script = "/usr/bin/script"
        try #require(
            FileManager.default.isExecutableFile(atPath: script), "util-linux script(1) is needed for a terminal")
        let command = "stty cols 57; '\(CLI.executable.path)' query '\(db)' Dog"
        let r = try CLI.run(
            [], environment: ["COLUMNS": "200"], executable: script, arguments: ["-qec", command, "/dev/null"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("…"), "\(r.stdout)")
        #expect(widest(r.stdout) <= 57 && widest(r.stdout) >= 50, "\(r.stdout)")
    }

    @Test func withoutATerminalColumnsThen80() throws {
        let s = try Scratch()
        let db = try wideDatabase(s)
        let plain = try CLI.run(["query", db, "Dog"])
        #expect(widest(plain.stdout) <= 80 && widest(plain.stdout) >= 75, "\(plain.stdout)")
        let wide = try CLI.run(["query", db, "Dog"], environment: ["COLUMNS": "100"])
        #expect(widest(wide.stdout) <= 100 && widest(wide.stdout) >= 95, "\(wide.stdout)")
        // Dates stay whole while other columns can give way.
        #expect(plain.stdout.contains("2020-01-02T03:04:05.25Z"), "\(plain.stdout)")
    }

    /// The primary key is what tells rows apart: like a date, it is kept whole while other
    /// columns give way.
    @Test func thePrimaryKeyStaysWhole() throws {
        let r = try CLI.run(["query", ExplorerEntryTests.demo, "Book", "pages > 300 AND title BEGINSWITH 'T'"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(widest(r.stdout) <= 80, "\(r.stdout)")
        #expect(r.stdout.contains("978-7-00000-085-5") && r.stdout.contains("978-7-00000-136-6"), "\(r.stdout)")
    }

    @Test func columnsPicksAndOrdersProperties() throws {
        let s = try Scratch()
        let db = try s.database()
        let r = try CLI.run(["query", db, "Dog", "--columns", "age,name", "--sort", "age"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.split(separator: " ") == ["age", "name"], "\(r.stdout)")
        #expect(lines.dropFirst(2).first?.split(separator: " ") == ["1", "大黄"], "\(r.stdout)")
        expectFailure(try CLI.run(["query", db, "Dog", "--columns", "nmae"]), contains: "did you mean 'name'?")
    }

    @Test func lineFormatPrintsOnePropertyALine() throws {
        let s = try Scratch()
        let db = try s.database()
        let r = try CLI.run(["query", db, "Dog", "--format", "line", "--sort", "age"])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = r.stdout.components(separatedBy: "\n\n")
        #expect(objects.count == 2, "\(r.stdout)")
        #expect(
            objects.first == "name = 大黄\n age = 1\nborn = 2020-01-02T03:04:05.25Z\ntags = [\"a\",\"b\"]", "\(r.stdout)")
    }

    @Test func theStringNullAndNilLookDifferent() throws {
        let s = try Scratch()
        let db = try s.database()
        #expect(try CLI.run(["update", db, "Person", "id == 1", "--set", #"name="null""#]).status == 0)
        let r = try CLI.run(["query", db, "Person", "--sort", "id", "--format", "line", "--columns", "name,age"])
        #expect(r.stdout == "name = \"null\"\n age = 30\n\nname = 李四\n age = null\n", "\(r.stdout)")
    }
}
