import Foundation
import Testing
import RealmSwift

/// `Realm.Error` and its codes, as RealmSwift's tests catch them (realm-swift's
/// `RealmTests.testCatchSpecificErrors`, `testReadOnlyRealmMustExist`, `testInitFailable`,
/// `testFilePermissionDenied`, `MigrationTests.testSchemaVersionAtURL`, rewritten).
@Suite(.serialized) struct RealmErrorCodeTests {
    final class ErrorCodeDog: Object { @Persisted var name = "" }
    final class ErrorCodeDogV2: Object {
        override class func _realmObjectName() -> String? { "ErrorCodeDog" }
        @Persisted var name = ""
        @Persisted var age = 0
    }

    /// The code a block's error has, through `catch let e as Realm.Error where e.code == …`
    /// (the form RealmSwift's `assertFails` uses).
    private func caught(_ expected: Realm.Error.Code, _ block: () throws -> Void) -> Realm.Error? {
        do {
            try block()
            Issue.record("no error thrown, expected \(expected)")
        } catch let error as Realm.Error where error.code == expected {
            return error
        } catch {
            Issue.record("expected \(expected), caught \(error)")
        }
        return nil
    }

    @Test func openingAMissingFileReadOnlyIsFileNotFound() throws {
        var config = try fileConfig([ErrorCodeDog.self])
        defer { removeFolder(of: config) }
        config.readOnly = true
        let error = caught(.fileNotFound) { _ = try Realm(configuration: config) }
        #expect(error?.fileURL?.path == config.fileURL?.path)
        // The same, caught by a pattern of the code.
        do {
            _ = try Realm(configuration: config)
            Issue.record("a read-only open of a missing file succeeded")
        } catch Realm.Error.fileNotFound {
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aPathThroughAFileIsFileOperationFailed() {
        let url = URL(fileURLWithPath: "/dev/null/foo")
        do {
            _ = try Realm(configuration: .init(fileURL: url, objectTypes: [ErrorCodeDog.self]))
            Issue.record("a Realm opened below /dev/null")
        } catch Realm.Error.fileOperationFailed {
        } catch {
            Issue.record("unexpected \(error) (code \((error as? Realm.Error)?.code.description ?? "none"))")
        }
    }

    @Test func aFileThatIsNotARealmIsInvalidDatabase() throws {
        let config = try fileConfig([ErrorCodeDog.self])
        defer { removeFolder(of: config) }
        let url = try #require(config.fileURL)
        try Data("a".utf8).write(to: url)
        let error = caught(.invalidDatabase) { _ = try Realm(configuration: config) }
        #expect(error?.fileURL?.path == url.path)
    }

    @Test func anUnreadableFileIsPermissionDenied() throws {
        // Root reads every file whatever its mode: the check would not mean anything there.
        guard geteuid() != 0 else { return }
        let config = try fileConfig([ErrorCodeDog.self])
        defer { removeFolder(of: config) }
        let url = try #require(config.fileURL)
        do { _ = try Realm(configuration: config) }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }
        let error = caught(.filePermissionDenied) { _ = try Realm(configuration: config) }
        #expect(error?.fileURL?.path == url.path)
    }

    @Test func aChangedSchemaWithoutMigrationIsSchemaMismatch() throws {
        let config = try fileConfig([ErrorCodeDog.self])
        defer { removeFolder(of: config) }
        do { _ = try Realm(configuration: config) }
        var changed = config
        changed.objectTypes = [ErrorCodeDogV2.self]
        _ = caught(.schemaMismatch) { _ = try Realm(configuration: changed) }
    }

    @Test func badInputIsInvalidInputAndMisuseIsFail() throws {
        final class ErrorCodeKeyed: Object { @Persisted(primaryKey: true) var id = 0 }
        let realm = try Realm(configuration: memoryConfig([ErrorCodeKeyed.self]))
        _ = caught(.invalidInput) {
            try realm.write {
                realm.create(ErrorCodeKeyed.self, value: ["id": 1])
                realm.create(ErrorCodeKeyed.self, value: ["id": 1])
            }
        }
        _ = caught(.invalidInput) { _ = try realm.objects(ErrorCodeKeyed.self).filter(query: "nope == 1") }
        _ = caught(.fail) { try realm.commitWrite() }
    }

    @Test func anErrorMadeFromACodeHasThatCode() {
        for code in Realm.Error.Code.allCases {
            #expect(Realm.Error(code).code == code, "\(code)")
            switch Realm.Error(code) as any Error {
            case code: break
            default: Issue.record("the pattern \(code) does not match Realm.Error(\(code))")
            }
        }
        #expect(Realm.Error.Code.fileNotFound.rawValue == 5)
        #expect(Realm.Error.Code.schemaMismatch.rawValue == 10)
        #expect(Realm.Error.Code.incompatibleLockFile.rawValue == 8)
    }

    @Test func everyErrorHasOneCode() {
        // Each case of the engine's error, with the code RealmSwift gives that situation.
        let cases: [(RealmError, Realm.Error.Code)] = [
            (.fileNotFound(path: "/x"), .fileNotFound),
            (.notARealmFile(path: "/x", reason: "r"), .invalidDatabase),
            (.notARealmFile(path: "/x.lock", reason: "r"), .incompatibleLockFile),
            (.corruptFile(path: "/x", offset: 0, reason: "r"), .invalidDatabase),
            (.newerFormat(path: "/x", found: 9, supported: 1), .unsupportedFileFormatVersion),
            (.io(path: "/x", operation: "open", errno: EACCES, message: "m"), .filePermissionDenied),
            (.io(path: "/x", operation: "open", errno: EEXIST, message: "m"), .fileExists),
            (.io(path: "/x", operation: "write", errno: ENOSPC, message: "m"), .outOfDiskSpace),
            (.io(path: "/x", operation: "read", errno: EIO, message: "m"), .fileAccess),
            (.schemaMismatch("m"), .schemaMismatch),
            (.resourceLimit("m"), .addressSpaceExhausted),
            (.busy("m"), .incompatibleSession),
            (.encryption(path: "/x", reason: "r"), .invalidDatabase),
            (.primaryKey("m"), .invalidInput),
            (.wrongThread, .fail),
        ]
        for (error, code) in cases { #expect(error.code == code, "\(error)") }
    }
}
