import Foundation
import Testing

/// Names and values from a crafted file must not reach the terminal as escape sequences: a class
/// named `Ev␛[31mil` or a property named `na␛]0;pwned␇me` (an OSC that retitles the window)
/// printed raw by `schema`, `check`, `import` or `query --format line` is run by the terminal.
/// Every human format shows control characters as the explorer does (Control Pictures, U+FFFD);
/// the machine formats (JSON, CSV) stay exact.
@Suite("CLI terminal escapes", .tags(.multiProcess))
struct TerminalEscapeTests {
    static let className = "Ev\u{1B}[31mil"
    static let propertyName = "na\u{1B}]0;pwned\u{07}me"

    /// A file whose class and property names hold escape sequences, with one object whose
    /// values do too (ESC, and a C1 CSI).
    static func craftedFile(_ s: Scratch) throws -> String {
        let schema = try s.write(
            "schema.json",
            """
            [{"name": "Ev\\u001b[31mil", "properties": {"na\\u001b]0;pwned\\u0007me": "string", "note": "string?"}}]
            """)
        return try s.createRealm("crafted.realm", schema: schema)
    }

    static let data = #"{"Ev\u001b[31mil": [{"na\u001b]0;pwned\u0007me": "x\u001by", "note": "a\u009bb"}]}"#

    /// Expects no C0 control but the line ends, no DEL and no C1 control in `text`.
    static func expectClean(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bad = text.unicodeScalars.filter { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A) || (0x7F...0x9F).contains(v)
        }
        #expect(
            bad.isEmpty,
            "\(what) printed control characters \(bad.map { String($0.value, radix: 16) }): \(text.debugDescription)",
            sourceLocation: sourceLocation)
    }

    @Test func humanFormatsShowControlCharactersAsPictures() throws {
        let s = try Scratch()
        let file = try Self.craftedFile(s)
        let imported = try CLI.run(["import", file, "-"], stdin: Self.data)
        #expect(imported.status == 0, "\(imported.stderr)")
        Self.expectClean(imported.stdout, "import")
        #expect(imported.stdout.contains("Ev␛[31mil"), "\(imported.stdout)")
        for args in [
            ["schema", file], ["check", file], ["query", file, Self.className, "--format", "line"],
            ["query", file, Self.className], ["query", file, Self.className, "--format", "count"],
        ] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            Self.expectClean(r.stdout, args.joined(separator: " "))
            Self.expectClean(r.stderr, args.joined(separator: " "))
        }
        let lines = try CLI.run(["query", file, Self.className, "--format", "line"])
        #expect(lines.stdout.contains("na␛]0;pwned␇me = x␛y"), "\(lines.stdout)")
    }

    @Test func errorLinesShowControlCharactersAsPictures() throws {
        let s = try Scratch()
        let file = try Self.craftedFile(s)
        // The error lists the class's properties, names from the file.
        let r = try CLI.run(["query", file, Self.className, "--columns", "nope"])
        expectFailure(r, contains: "na␛]0;pwned␇me")
        Self.expectClean(r.stderr, "the error line")
    }

    @Test func machineFormatsStayExact() throws {
        let s = try Scratch()
        let file = try Self.craftedFile(s)
        #expect(try CLI.run(["import", file, "-"], stdin: Self.data).status == 0)
        let json = try CLI.run(["export", file])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""na\u001b]0;pwned\u0007me":"x\u001by""#), "\(json.stdout)")
        let csv = try CLI.run(["query", file, Self.className, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.contains("x\u{1B}y"), "CSV must hold the value's bytes: \(csv.stdout.debugDescription)")
        #expect(csv.stdout.contains("a\u{9B}b"), "CSV must hold the value's bytes: \(csv.stdout.debugDescription)")
        let schema = try CLI.run(["schema", file, "--json"])
        #expect(schema.stdout.contains(#""Ev\u001b[31mil""#), "\(schema.stdout)")
    }
}
