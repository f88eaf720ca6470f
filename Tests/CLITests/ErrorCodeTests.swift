import Foundation
@testable import RealmEngine
import Testing

/// An engine error's `error:` line ends with its stable code (issue 28, item 5), and the README
/// lists every code.
@Suite struct ErrorCodeTests {
    @Test func engineErrorsEndWithTheirCode() throws {
        let s = try Scratch()
        let file = try s.database()
        let query = try CLI.run(["query", file, "Person", "age >>> 3"])
        expectFailure(query, contains: "[query]")
        #expect(query.stderr.hasSuffix("[query]\n"), "\(query.stderr)")
        let foreign = try s.write("foreign.realm", String(repeating: "not a database ", count: 400))
        let schema = try CLI.run(["schema", foreign])
        #expect(schema.stderr.hasSuffix("[not-a-realm-file]\n"), "\(schema.stderr)")
        let noClass = try CLI.run(["query", file, "Persn"])
        #expect(noClass.stderr.hasSuffix("[no-such-class]\n"), "\(noClass.stderr)")
        // A usage mistake is the command line's own: no engine code.
        let usage = try CLI.run(["query", file])
        #expect(usage.status == 64)
        #expect(!usage.stderr.contains("["), "\(usage.stderr)")
    }

    @Test func theReadmeListsEveryCode() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let errors: [RealmError] = [
            .fileNotFound(path: ""), .notARealmFile(path: "", reason: ""), .corruptFile(path: "", offset: 0, reason: ""),
            .newerFormat(path: "", found: 0, supported: 0), .io(path: "", operation: "", errno: 0, message: ""),
            .readOnly(path: ""), .notInWriteTransaction, .alreadyInWriteTransaction, .wrongThread, .closed,
            .invalidSchema(""), .schemaMismatch(""), .noSuchClass(""), .noSuchProperty(className: "", property: "", available: []),
            .typeMismatch(className: "", property: "", expected: "", got: ""), .missingValue(className: "", property: ""),
            .limitExceeded(""), .primaryKey(""), .invalidatedObject, .indexOutOfRange(index: 0, count: 0),
            .query(message: "", column: 0), .unsupported(""), .busy(""), .invalidInput(""), .encryption(path: "", reason: ""),
            .invalidOperation(""), .invalidState(""), .resourceLimit(""), .internalError(""), .cancelled,
            .server(server: "", operation: "", state: "", message: ""),
        ]
        for error in errors {
            #expect(text.contains("`\(error.code)`"), "README lists no \(error.code)")
        }
    }
}
