import Foundation
import Testing

/// A link to an object without a primary key is written by position (`{"$ref", "$index"}`).
/// In the output of a sorted, filtered or limited query, a link to the queried class counts
/// positions in that output, which is what `import --class` counts; a target the output leaves
/// out cannot be named, and the command says so instead of naming another object.
@Suite(.tags(.multiProcess)) struct QueryOutputLinksTests {
    /// Notes a, b, c, d (in that order), b linking to c and d to a.
    func notes(_ scratch: Scratch) throws -> String {
        let file = try ImportTests().empty(scratch)
        let data =
            #"{"Note": [{"text": "a"}, {"text": "b", "next": {"$ref": "Note", "$index": 2}}, "#
            + #"{"text": "c"}, {"text": "d", "next": {"$ref": "Note", "$index": 0}}]}"#
        let r = try CLI.run(["import", file, "-"], stdin: data)
        try #require(r.status == 0, "\(r.stderr)")
        return file
    }

    @Test(arguments: ["json", "csv"])
    func aSortedOutputImportsBackWithTheSameLinks(format: String) throws {
        let scratch = try Scratch()
        let file = try notes(scratch)
        let out = try CLI.run(["query", file, "Note", "TRUEPREDICATE", "--sort", "-text", "--format", format])
        try #require(out.status == 0, "\(out.stderr)")
        let copy = try ImportTests().empty(scratch, "copy.realm")
        let back = try CLI.run(["import", copy, "-", "--class", "Note", "--format", format], stdin: out.stdout)
        try #require(back.status == 0, "\(back.stderr)")
        for (from, to) in [("b", "c"), ("d", "a")] {
            let q = try CLI.run([
                "query", copy, "Note", "text == '\(from)' AND next.text == '\(to)'", "--format", "count",
            ])
            #expect(q.stdout == "1\n", "\(from) → \(to): \(q.stdout)\(q.stderr)")
        }
        let unlinked = try CLI.run(["query", copy, "Note", "next == nil", "--format", "count"])
        #expect(unlinked.stdout == "2\n")
    }

    @Test func aTargetTheOutputLeavesOutIsAnError() throws {
        let scratch = try Scratch()
        let file = try notes(scratch)
        let out = try CLI.run(["query", file, "Note", "text == 'b'", "--format", "json"])
        expectFailure(out, contains: "not in this output")
        // With the target included, the output is written.
        let both = try CLI.run(["query", file, "Note", "text IN {'b', 'c'}", "--format", "json"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout.contains(#""next":{"$ref":"Note","$index":1}"#), "\(both.stdout)")
    }
}
