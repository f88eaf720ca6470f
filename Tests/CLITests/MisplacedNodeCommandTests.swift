import Foundation
import Testing
@testable import RealmEngine

/// Two index leaves swapped on disk (each with a checksum right for its own bytes) through the
/// command line: a primary-key query that reaches one is an `error:` line and a failure, never
/// "0 objects" with exit 0, and `check` fails.
@Suite("CLI misplaced nodes", .tags(.multiProcess, .integrity))
struct MisplacedNodeCommandTests {
    @Test func aQueryThroughASwappedIndexLeafFails() throws {
        let s = try Scratch()
        let schema = try s.write("schema.json", Scratch.schemaJSON)
        let draft = s.path("draft.realm")
        let file = s.path("people.realm")
        try #require(try CLI.run(["create", draft, "--schema", schema]).status == 0)
        let people = (0..<3000).map { #"{"id": \#($0), "name": "p\#($0)"}"# }
        let imported = try CLI.run(
            ["import", draft, "-"], stdin: #"{"Person": ["# + people.joined(separator: ",") + "]}")
        try #require(imported.status == 0, "\(imported.stderr)")
        // A compacted copy: every index leaf in it is live (the only index with entries is the
        // primary key's: no dog was imported).
        let copied = try CLI.run(["copy", draft, file])
        try #require(copied.status == 0, "\(copied.stderr)")

        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        var leaves: [Int: [Int]] = [:]  // allocated length → offsets
        var at = FileHeader.size
        while at + Node.headerSize <= bytes.count {
            let length = bytes.withUnsafeBytes {
                Node.aligned(Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))))
            }
            let isLeaf =
                bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
                == Node.magic
                && bytes[at + 4] == NodeKind.indexLeaf.rawValue && length > Node.headerSize
                && at + length <= bytes.count
            if isLeaf { leaves[length, default: []].append(at) }
            at += isLeaf ? length : Node.alignment
        }
        let (length, offsets) = try #require(leaves.filter { $0.value.count >= 2 }.min { $0.key < $1.key }, "\(leaves)")
        let (a, b) = (offsets[0], offsets[1])
        let first = Array(bytes[a..<a + length])
        bytes.replaceSubrange(a..<a + length, with: bytes[b..<b + length])
        bytes.replaceSubrange(b..<b + length, with: first)
        try Data(bytes).write(to: URL(fileURLWithPath: file))

        // A person the swap hides from (or, fixed, makes an error for) the primary-key lookup.
        let affected: Int = try {
            let realm = try Realm(path: file)
            for i in 0..<3000 {
                guard let found = try? realm.object(ofType: "Person", forPrimaryKey: .int(Int64(i))),
                    found["id"] == .int(Int64(i))
                else { return i }
            }
            return -1
        }()
        try #require(affected >= 0, "no lookup reached a swapped leaf")
        try expectUnchanged(file) {
            let q = try CLI.run(["query", file, "Person", "id == \(affected)", "--format", "count"])
            expectFailure(q, contains: "checksum")
            #expect(q.stdout.isEmpty, "\(q.stdout)")
            let check = try CLI.run(["check", file])
            #expect(check.status != 0, "check passed a file with swapped index leaves: \(check.stdout)")
            #expect(check.stderr.contains("error:"), "\(check.stderr)")
        }
    }
}
