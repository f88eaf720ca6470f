import Foundation
import Testing

/// Everything `export` and `query --format json|csv` write, `import` reads back: for every bundled
/// database and the test schema (links to a class without a primary key), each form is imported
/// into an empty copy, and `export` of the copy is byte-identical to `export` of the original.
@Suite(.tags(.multiProcess)) struct RoundTripTests {
    /// The bundled databases under Resources/, found from this source file.
    static var bundled: [String] {
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: resources.path)) ?? []
        return names.filter { $0.hasSuffix(".realm") }.sorted().map { resources.appendingPathComponent($0).path }
    }

    /// The databases to round-trip: every bundled file, and the test schema's.
    func sources(_ scratch: Scratch) throws -> [String] {
        let bundled = Self.bundled
        try #require(!bundled.isEmpty, "no .realm file under Resources/")
        let copies = try bundled.enumerated().map { i, path in
            let copy = scratch.path("source\(i).realm")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            return copy
        }
        return copies + [try scratch.database("test.realm")]
    }

    /// A new, empty database with `source`'s schema (from `schema --json`).
    func emptyCopy(of source: String, _ scratch: Scratch, _ name: String) throws -> String {
        let schema = try CLI.run(["schema", source, "--json"])
        try #require(schema.status == 0, "\(schema.stderr)")
        let schemaFile = try scratch.write(name + ".schema.json", schema.stdout)
        let file = scratch.path(name)
        let created = try CLI.run(["create", file, "--schema", schemaFile])
        try #require(created.status == 0, "\(created.stderr)")
        return file
    }

    /// The classes of a database, in schema order.
    func classes(_ file: String) throws -> [String] {
        let json = parseJSON(try CLI.run(["schema", file, "--json"]).stdout) as? [String: Any]
        // Embedded classes are written inside their parents, never as classes of their own.
        let list = (json?["schema"] as? [[String: Any]] ?? []).filter { $0["embedded"] as? Bool != true }
        return list.compactMap { $0["name"] as? String }
    }

    /// Classes ordered so that the targets of links come before the classes linking to them
    /// (importing one class at a time needs them to exist).
    func dependencyOrder(_ file: String) throws -> [String] {
        let json = parseJSON(try CLI.run(["schema", file, "--json"]).stdout) as? [String: Any]
        let list = (json?["schema"] as? [[String: Any]] ?? []).filter { $0["embedded"] as? Bool != true }
        var targets: [String: Set<String>] = [:]
        for c in list {
            guard let name = c["name"] as? String, let properties = c["properties"] as? [String: Any] else { continue }
            let names = Set(list.compactMap { $0["name"] as? String })
            for (_, p) in properties {
                let type = (p as? String) ?? ((p as? [String: Any])?["type"] as? String) ?? ""
                let base = type.replacingOccurrences(of: "[]", with: "").replacingOccurrences(of: "?", with: "")
                if names.contains(base), base != name { targets[name, default: []].insert(base) }
            }
        }
        var order: [String] = []
        var remaining = list.compactMap { $0["name"] as? String }
        while !remaining.isEmpty {
            let i = remaining.firstIndex { targets[$0, default: []].isSubset(of: Set(order)) } ?? 0
            order.append(remaining.remove(at: i))
        }
        return order
    }

    @Test func theWholeFileExportImportsBackByteIdentical() throws {
        let scratch = try Scratch()
        for (i, source) in try sources(scratch).enumerated() {
            let exported = try CLI.run(["export", source])
            try #require(exported.status == 0, "\(exported.stderr)")
            let copy = try emptyCopy(of: source, scratch, "whole\(i).realm")
            let data = try scratch.write("whole\(i).json", exported.stdout)
            let imported = try CLI.run(["import", copy, data])
            #expect(imported.status == 0, "\(source): \(imported.stderr)")
            let again = try CLI.run(["export", copy])
            #expect(again.stdout == exported.stdout, "\(source): export of the imported copy differs")
            #expect(again.stdout.utf8.count > 10)
        }
    }

    @Test(arguments: ["export-json", "query-json", "export-csv"])
    func everyPerClassFormImportsBackByteIdentical(form: String) throws {
        let scratch = try Scratch()
        for (i, source) in try sources(scratch).enumerated() {
            let copy = try emptyCopy(of: source, scratch, "\(form)\(i).realm")
            let order = try dependencyOrder(source)
            // One class at a time, link targets first: a reference {"$ref": C, "$index": N} to
            // a class the input does not hold names the Nth object of C already imported.
            for className in order {
                let written: CLI.Result
                let name: String
                switch form {
                case "export-json":
                    written = try CLI.run(["export", source, "--class", className])
                    name = "\(className).json"
                case "query-json":
                    written = try CLI.run(["query", source, className, "--format", "json"])
                    name = "\(className).json"
                default:
                    written = try CLI.run(["export", source, "--class", className, "--format", "csv"])
                    name = "\(className).csv"
                }
                try #require(written.status == 0, "\(written.stderr)")
                let data = try scratch.write("\(form)\(i)-\(name)", written.stdout)
                let imported = try CLI.run(["import", copy, data, "--class", className])
                #expect(imported.status == 0, "\(source) \(className) \(form): \(imported.stderr)")
            }
            for className in try classes(source) {
                let original = try CLI.run(["export", source, "--class", className])
                let again = try CLI.run(["export", copy, "--class", className])
                #expect(
                    again.stdout == original.stdout,
                    "\(source) \(className) \(form): export of the imported copy differs")
            }
        }
    }

    /// Dates outside years 0000–9999 (year 10000; milliseconds stored as seconds, year 55,840;
    /// 1 BC… 2 BC) are exported in ISO 8601's expanded form, which import and queries read back.
    @Test func datesOutsideYears0000To9999RoundTrip() throws {
        let scratch = try Scratch()
        let source = try scratch.database()
        let far =
            #"{"Dog": [{"name": "y10000", "born": 253402300800000}, {"name": "y55840", "born": 1700000000000000}, "#
            + #"{"name": "y-1", "born": -62198755200000}]}"#
        let added = try CLI.run(["import", source, "-"], stdin: far)
        try #require(added.status == 0, "\(added.stderr)")
        let exported = try CLI.run(["export", source])
        try #require(exported.status == 0, "\(exported.stderr)")
        for text in ["+10000-01-01T00:00:00Z", "+55840-11-08T22:13:20Z", "-0001-01-01T00:00:00Z"] {
            #expect(exported.stdout.contains(#""born":"\#(text)""#), "\(exported.stdout)")
        }
        let copy = try emptyCopy(of: source, scratch, "copy.realm")
        let imported = try CLI.run(["import", copy, "-"], stdin: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try CLI.run(["export", copy]).stdout == exported.stdout)
        let found = try CLI.run([
            "query", copy, "Dog", "born == $0", "--arg", "\"+10000-01-01T00:00:00Z\"", "--format", "count",
        ])
        #expect(found.stdout == "1\n", "\(found.stderr)")
    }
}
