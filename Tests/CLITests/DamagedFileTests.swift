import Foundation
import Testing

/// Damaged files through the command line: a truncated file and one with bad bytes in a node
/// are refused by every command (exit 1, the file unchanged), never read as an empty or a
/// plausible database, and never laundered into a new file that passes `check`.
@Suite("CLI damaged files", .tags(.multiProcess, .integrity))
struct DamagedFileTests {
    /// A database with 3,000 people (one bulk import), each with a long name that starts with
    /// `marker`, so the string column's bytes can be found in the file.
    static func bigDatabase(_ s: Scratch, marker: String = "NAME-MARKER") throws -> String {
        let schema = try s.write("schema.json", Scratch.schemaJSON)
        let file = s.path("big.realm")
        let created = try CLI.run(["create", file, "--schema", schema])
        try #require(created.status == 0, "\(created.stderr)")
        let people = (0..<3000).map {
            #"{"id": \#($0), "name": "\#(marker)-\#($0)-abcdefghijklmnopqrstuvwxyz", "age": \#($0 % 90)}"#
        }
        let imported = try CLI.run(
            ["import", file, "-"], stdin: #"{"Person": ["# + people.joined(separator: ",") + "]}")
        try #require(imported.status == 0, "\(imported.stderr)")
        // A later small commit, so the damage below is not in the newest commit (whose nodes
        // the first opener checks against its commit record).
        let dog = try CLI.run(["import", file, "-"], stdin: #"{"Dog": [{"name": "Rex"}]}"#)
        try #require(dog.status == 0, "\(dog.stderr)")
        try? FileManager.default.removeItem(atPath: file + ".lock")
        return file
    }

    @Test func aTruncatedFileIsRefusedByEveryCommand() throws {
        let s = try Scratch()
        let file = try DamagedFileTests.bigDatabase(s)
        let full = try Data(contentsOf: URL(fileURLWithPath: file))
        try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: file))
        try s.write("more.json", #"{"Dog": [{"name": "Rex"}]}"#)
        for args in [
            ["check", file], ["schema", file], ["import", file, s.path("more.json")],
            ["query", file, "Person", "--format", "count"], ["export", file],
        ] {
            try expectUnchanged(file) {
                let r = try CLI.run(args)
                expectFailure(r, contains: "truncated")
                #expect(r.stderr.contains("bytes but its header needs"), "\(args[0]): \(r.stderr)")
            }
        }
    }

    /// Overwrites 64 bytes at every place `marker` occurs in the file (the name of one person,
    /// so one leaf's string column is hit, and its live copy whatever else the file holds).
    static func smash(_ file: String, marker: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let needle = Array(marker.utf8)
        var hits = 0
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && Array(bytes[i..<i + needle.count]) == needle {
                for j in i..<min(i + 64, bytes.count) { bytes[j] = UInt8(ascii: "#") }
                hits += 1
                i += 64
            } else {
                i += 1
            }
        }
        try #require(hits > 0, "the marker is not in the file")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }

    @Test func badBytesInAStringColumnAreNeverServedOrLaundered() throws {
        let s = try Scratch()
        let file = try DamagedFileTests.bigDatabase(s, marker: "SMASH-ME-1500")
        try DamagedFileTests.smash(file, marker: "SMASH-ME-1500-1500-")
        for args in [
            ["query", file, "Person"], ["query", file, "Person", "name BEGINSWITH 'SMASH'"],
            ["export", file], ["copy", file, s.path("copy.realm")], ["compact", file],
        ] {
            try expectUnchanged(file) {
                let r = try CLI.run(args)
                expectFailure(r, contains: "checksum")
                #expect(r.stderr.contains("Person"), "\(args[0]) names the class: \(r.stderr)")
            }
            if s.exists("copy.realm") {
                let check = try CLI.run(["check", s.path("copy.realm")])
                #expect(check.status != 0, "copy produced a file that passes check")
            }
        }
        let check = try CLI.run(["check", file])
        #expect(check.status == 1)
    }

    /// Dogs read well but link to a person in a damaged leaf: writing the link needs the
    /// person's primary key, and the read error fails the command; it is not written as an
    /// unimportable `{"class", "key"}` with exit 0 (a copy verifies what it reads).
    @Test func aLinkToAnObjectThatCannotBeReadFailsTheExport() throws {
        let s = try Scratch()
        let schema = try s.write(
            "owners.json",
            """
            [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string"}},
             {"name": "Dog", "properties": {"name": "string", "owner": "Person?"}}]
            """)
        let file = s.path("owners.realm")
        let created = try CLI.run(["create", file, "--schema", schema])
        try #require(created.status == 0, "\(created.stderr)")
        let people = (0..<3000).map { #"{"id": \#($0), "name": "SMASH-ME-1500-\#($0)-abcdefghijklmnopqrstuvwxyz"}"# }
        let imported = try CLI.run(
            ["import", file, "-"],
            stdin: #"{"Person": ["# + people.joined(separator: ",")
                + #"], "Dog": [{"name": "Fido", "owner": 1500}]}"#)
        try #require(imported.status == 0, "\(imported.stderr)")
        // A later commit, so the damaged leaf is not the newest commit's (see `bigDatabase`).
        let later = try CLI.run(["import", file, "-"], stdin: #"{"Dog": [{"name": "Rex"}]}"#)
        try #require(later.status == 0, "\(later.stderr)")
        try? FileManager.default.removeItem(atPath: file + ".lock")
        try DamagedFileTests.smash(file, marker: "SMASH-ME-1500-1500-")
        for args in [
            ["export", file, "--class", "Dog"], ["export", file, "--class", "Dog", "--format", "csv"],
            ["query", file, "Dog", "--format", "json"], ["query", file, "Dog"],
        ] {
            try expectUnchanged(file) {
                let r = try CLI.run(args)
                expectFailure(r, contains: "checksum")
                #expect(r.stderr.contains("Person"), "\(args) names the class: \(r.stderr)")
                #expect(!r.stdout.contains(#""class":"Person""#), "\(args): \(r.stdout)")
            }
        }
    }

    /// `recover` on each damaged file: exit 0, a report of what was lost, a warning on stderr,
    /// a new file that passes `check`, and the damaged file unchanged.
    @Test func recoverSalvagesWhatCanBeRead() throws {
        let s = try Scratch()
        let smashed = try DamagedFileTests.bigDatabase(s, marker: "SMASH-ME-1500")
        try DamagedFileTests.smash(smashed, marker: "SMASH-ME-1500-1500-")
        let cut = s.path("cut.realm")
        let full = try Data(contentsOf: URL(fileURLWithPath: smashed))
        try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: cut))
        for (name, broken) in [("smashed", smashed), ("cut", cut)] {
            let out = s.path("out-\(name).realm")
            try expectUnchanged(broken) {
                let r = try CLI.run(["recover", broken, out])
                #expect(r.status == 0, "\(name): \(r.stderr)")
                #expect(r.stdout.contains("Person: "), "\(name): \(r.stdout)")
                #expect(r.stdout.contains("lost"), "\(name): \(r.stdout)")
                #expect(r.stderr.hasPrefix("warning: "), "\(name): \(r.stderr)")
            }
            let check = try CLI.run(["check", out])
            #expect(check.status == 0, "\(name): \(check.stderr)")
            let count = try CLI.run(["query", out, "Person", "--format", "count"])
            let n = Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            // The smashed file loses one leaf; the cut one loses the people's tree (a bulk
            // import writes the root last, past the cut) but keeps the later dog.
            #expect(name == "cut" ? n == 0 : n > 2000 && n < 3000, "\(name): \(count.stdout)")
            let dogs = try CLI.run(["query", out, "Dog", "--format", "count"])
            #expect(dogs.stdout == "1\n", "\(name): \(dogs.stdout)")
        }
        // The cut file's only readable object, the dog, in the singular.
        try FileManager.default.removeItem(atPath: s.path("out-cut.realm"))
        let one = try CLI.run(["recover", cut, s.path("out-cut.realm")])
        #expect(one.stdout.hasPrefix("recovered 1 object from "), "\(one.stdout)")
        // An existing OUT is refused and left alone.
        try expectUnchanged(s.path("out-cut.realm")) {
            expectFailure(try CLI.run(["recover", cut, s.path("out-cut.realm")]), contains: "already exists")
        }
    }
}
