import Foundation
import Testing

/// CSV that cannot be read as written is refused with the line that says why, and the file is
/// left as it was: a cut-off row, bytes that are not UTF-8, an input with no header row.
/// Columns skipped by `--ignore-unknown` are counted in a warning, as for JSON.
@Suite(.tags(.multiProcess)) struct CSVImportErrorTests {
    func empty(_ scratch: Scratch) throws -> String {
        try ImportTests().empty(scratch)
    }

    @Test func aRowWithFewerCellsThanTheHeaderIsRefused() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let csv = try scratch.write("d.csv", "id,age,buddy\r\n1,3,\r\n2,4")
        try expectUnchanged(file) {
            expectFailure(
                try CLI.run(["import", file, csv, "--class", "Dog"]),
                contains: "CSV line 3): 2 cells, but the header has 3")
        }
    }

    @Test func bytesThatAreNotUTF8AreRefused() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let csv = scratch.path("latin1.csv")
        try Data("id,name\r\n1,Caf".utf8 + [0xE9] + Data("\r\n".utf8)).write(to: URL(fileURLWithPath: csv))
        try expectUnchanged(file) {
            expectFailure(
                try CLI.run(["import", file, csv, "--class", "Person"]), contains: "CSV line 2: not valid UTF-8")
        }
    }

    @Test func anEmptyInputIsRefused() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        try expectUnchanged(file) {
            expectFailure(
                try CLI.run(["import", file, "-", "--class", "Dog", "--format", "csv"], stdin: ""), contains: "header")
            expectFailure(
                try CLI.run(["import", file, "-", "--class", "Dog", "--format", "csv"], stdin: "\r\n\r\n"),
                contains: "header")
        }
    }

    @Test func aHeaderWithoutRowsImportsNothingAndSaysSo() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let r = try CLI.run(["import", file, "-", "--class", "Dog", "--format", "csv"], stdin: "id,age\r\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("imported 0 objects"), "\(r.stdout)")
    }

    @Test func skippedUnknownColumnsAreCountedInAWarning() throws {
        let scratch = try Scratch()
        let file = try empty(scratch)
        let csv = try scratch.write("d.csv", "id,nmae\r\n1,Rex\r\n2,Fido\r\n")
        let r = try CLI.run(["import", file, csv, "--class", "Person", "--ignore-unknown"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: skipped 2 unknown properties"), "\(r.stderr)")
        let q = try CLI.run(["query", file, "Person", "TRUEPREDICATE", "--format", "count"])
        #expect(q.stdout == "2\n")
    }
}

/// CSV cells of data, objectId and uuid properties are their text, never JSON: base64 that
/// spells `null` and an objectId of decimal digits survive export → import.
@Suite(.tags(.multiProcess)) struct CSVTextualCellTests {
    @Test func dataSpellingNullAndDigitOnlyObjectIdsRoundTrip() throws {
        let scratch = try Scratch()
        let schema = try scratch.write(
            "b.json", #"[{"name": "B", "properties": {"d": "data?", "o": "objectId?", "n": "int?"}}]"#)
        let source = try scratch.createRealm("source.realm", schema: schema)
        let data = #"{"B": [{"d": "null", "o": "123456789012345678901234", "n": 1}]}"#
        try #require(try CLI.run(["import", source, "-"], stdin: data).status == 0)
        let csv = try CLI.run(["export", source, "--class", "B", "--format", "csv"])
        try #require(csv.status == 0, "\(csv.stderr)")
        let copy = try scratch.createRealm("copy.realm", schema: schema)
        let back = try CLI.run(["import", copy, "-", "--class", "B", "--format", "csv"], stdin: csv.stdout)
        #expect(back.status == 0, "\(back.stderr)")
        let q = try CLI.run([
            "query", copy, "B", "d != nil AND o == oid(123456789012345678901234) AND n == 1", "--format", "count",
        ])
        #expect(q.stdout == "1\n", "\(q.stdout)\(q.stderr)\n\(csv.stdout)")
    }
}
