import Foundation
@testable import RealmEngine
@testable import realmtui
import Testing

/// An engine error's `error:` line ends with its stable code (issue 28, item 5), and the README
/// lists every code.
@Suite(.tags(.multiProcess)) struct ErrorCodeTests {
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
        for error in EveryRealmError.all {
            #expect(text.contains("`\(error.code)`"), "README lists no \(error.code)")
        }
    }

    /// Every case has its own code (a script can tell them apart), and the command line's
    /// `error:` line for it is one line ending in that code.
    @Test func everyCaseHasADistinctCodeThatTheCommandLinePrints() {
        #expect(
            Set(EveryRealmError.all.map(EveryRealmError.caseNumber)) == Set(0..<EveryRealmError.caseCount),
            "EveryRealmError.all misses a case")
        let codes = EveryRealmError.all.map(\.code)
        #expect(Set(codes).count == EveryRealmError.caseCount, "codes shared by two cases: \(codes)")
        for error in EveryRealmError.all {
            #expect(error.code.allSatisfy { $0 == "-" || ("a"..."z").contains($0) }, "\(error.code)")
            let line = ExitStatus.errorLine(for: error)
            #expect(line.hasPrefix("error: ") && line.hasSuffix(" [\(error.code)]"), "\(line)")
            #expect(!line.contains("\n"), "\(line)")
        }
    }
}

/// One error of every case of `RealmError`, with messages of two lines (the `error:` line
/// must stay one). `caseNumber` names every case without a `default`, so a new case does not
/// compile until it is numbered there, and `everyCaseHasADistinctCode…` fails until `all`
/// holds one of it.
enum EveryRealmError {
    static let caseCount = 33

    static let all: [RealmError] = [
        .fileNotFound(path: "x.realm"), .notARealmFile(path: "x.realm", reason: "two\nlines"),
        .corruptFile(path: "x.realm", offset: 4096, reason: "two\nlines"),
        .newerFormat(path: "x.realm", found: 9, supported: 3),
        .io(path: "x.realm", operation: "write", errno: 28, message: "No space left on device"),
        .readOnly(path: "x.realm"),
        .notInWriteTransaction, .alreadyInWriteTransaction, .wrongThread, .closed, .invalidSchema("two\nlines"),
        .schemaMismatch("two\nlines"), .noSuchClass("Persn"),
        .noSuchProperty(className: "Person", property: "nme", available: ["name"]),
        .typeMismatch(className: "Person", property: "age", expected: "int", got: "string"),
        .missingValue(className: "Person", property: "name"), .limitExceeded("two\nlines"), .primaryKey("two\nlines"),
        .invalidatedObject, .indexOutOfRange(index: 3, count: 2), .query(message: "two\nlines", column: 4),
        .unsupportedFormat("two\nlines"), .unsupportedFeature("two\nlines"), .notSyncable("two\nlines"),
        .invalidOperation("two\nlines"), .invalidState("two\nlines"), .resourceLimit("two\nlines"),
        .internalError("two\nlines"),
        .cancelled, .busy("two\nlines"), .invalidInput("two\nlines"),
        .encryption(path: "x.realm", reason: RealmError.missingKeyReason),
        .server(server: "postgres://u@h:5432/d", operation: "query", state: "23505", message: "two\nlines"),
    ]

    static func caseNumber(_ error: RealmError) -> Int {
        switch error {
        case .fileNotFound: 0
        case .notARealmFile: 1
        case .corruptFile: 2
        case .newerFormat: 3
        case .io: 4
        case .readOnly: 5
        case .notInWriteTransaction: 6
        case .alreadyInWriteTransaction: 7
        case .wrongThread: 8
        case .closed: 9
        case .invalidSchema: 10
        case .schemaMismatch: 11
        case .noSuchClass: 12
        case .noSuchProperty: 13
        case .typeMismatch: 14
        case .missingValue: 15
        case .limitExceeded: 16
        case .primaryKey: 17
        case .invalidatedObject: 18
        case .indexOutOfRange: 19
        case .query: 20
        case .unsupportedFormat: 21
        case .unsupportedFeature: 22
        case .notSyncable: 23
        case .invalidOperation: 24
        case .invalidState: 25
        case .resourceLimit: 26
        case .internalError: 27
        case .cancelled: 28
        case .busy: 29
        case .invalidInput: 30
        case .encryption: 31
        case .server: 32
        }
    }
}
