import Foundation
import Testing
@testable import RealmEngine

/// A file shorter than its header says (an interrupted copy or download, `truncate -s`) is
/// refused at open with `corruptFile` naming both sizes — never opened as an older or empty
/// version.
@Suite(.tags(.integrity)) struct TruncatedFileTests {
    /// A file whose slot 0 holds the empty version 1 and slot 1 a version with 2,000 people.
    static func makeFile(_ path: String) throws {
        let realm = try Realm(path: path, schema: Fixtures.people)
        try realm.write {
            for i in 0..<2000 {
                try realm.create(
                    "Person", ["id": .int(Int64(i)), "name": .string("person number \(i)"), "age": .int(Int64(i % 90))])
            }
        }
    }

    static func truncate(_ path: String, to size: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// The error of opening `path`, or nil if it opened.
    static func openError(_ path: String) -> RealmError? {
        do {
            _ = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
            return nil
        } catch let e as RealmError {
            return e
        } catch {
            return .invalidInput("\(error)")
        }
    }

    @Test func halfAFileIsCorruptNotEmpty() throws {
        let dir = TempDir()
        let path = dir.path("half.realm")
        try Self.makeFile(path)
        let full = try Self.size(path)
        try Self.truncate(path, to: full / 2)
        let error = try #require(Self.openError(path), "a truncated file opened")
        guard case .corruptFile(_, _, let reason) = error else {
            Issue.record("expected corruptFile, got \(error)")
            return
        }
        #expect(reason.contains("truncated"), "\(reason)")
        #expect(reason.contains(FileHeader.groupedDigits(UInt64(full / 2)) + " bytes"), "\(reason)")
        // The file is left as it was: nothing erased, nothing written.
        #expect(try Self.size(path) == full / 2)
    }

    @Test func anyCutShorterThanTheLogicalSizeIsRefused() throws {
        let dir = TempDir()
        let path = dir.path("cut.realm")
        try Self.makeFile(path)
        let logical = try Realm(path: path).snapshot.bytes.size
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try? Realm.deleteFiles(for: path)
        for cut in [Int(logical) - 8, Int(logical) * 3 / 4, 70_000] {
            try original.write(to: URL(fileURLWithPath: path))
            try Self.truncate(path, to: cut)
            let error = Self.openError(path)
            #expect(error?.code == "corrupt-file", "cut to \(cut) of \(logical): \(String(describing: error))")
            #expect("\(String(describing: error))".contains("truncated"), "cut to \(cut)")
            try? Realm.deleteFiles(for: path)
        }
    }

    @Test func aFileLongerThanItsLogicalSizeStillOpens() throws {
        let dir = TempDir()
        let path = dir.path("long.realm")
        try Self.makeFile(path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(try Self.size(path) + 8192))
        try handle.close()
        #expect(try Realm(path: path).objects("Person").count == 2000)
    }
}
