import Foundation
import Testing
@testable import RealmEngine

/// Issue 11, defect 7: when the newest commit does not verify, the command line says so.
@Suite("CLI recovery warning", .tags(.multiProcess, .integrity))
struct RecoveryWarningTests {
    /// Flips a byte inside the first node the newest commit's record lists; returns its version.
    static func damageNewestCommit(_ path: String) throws -> UInt64 {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let slots = try bytes.withUnsafeBytes { raw in
            try FileHeader.read(base: raw.baseAddress!, fileSize: UInt64(raw.count), path: path)
        }
        let newest = try #require(slots.first?.slot)
        try #require(newest.commitRef != 0)
        let listed = bytes.withUnsafeBytes {
            Int(
                UInt64(
                    littleEndian: $0.loadUnaligned(
                        fromByteOffset: Int(newest.commitRef) + Node.headerSize + 8, as: UInt64.self)))
        }
        bytes[listed + Node.headerSize + 1] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return newest.version
    }

    /// Issue 29, item 2: a commit set aside is kept, not destroyed by the next write; `check`
    /// exits 0 with a warning naming it and where its bytes are; `recover` salvages them and
    /// `check --discard-set-aside` discards them.
    @Test func checkWarnsReadingCommandsWarnAndAWriteKeepsTheCommit() throws {
        let s = try Scratch()
        let file = try s.database()
        let lost = try Self.damageNewestCommit(file)
        let checked = try CLI.run(["check", file])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(
            checked.stderr.hasPrefix("warning: ") && checked.stderr.contains("version \(lost)"), "\(checked.stderr)")
        let queried = try CLI.run(["query", file, "Person"])
        #expect(queried.status == 0, "\(queried.stderr)")
        #expect(queried.errorLines.count == 1)
        #expect(queried.stderr.hasPrefix("warning: "), "\(queried.stderr)")
        #expect(queried.stderr.contains("version \(lost)"))
        // A write on top: the commit's bytes are copied aside first.
        let imported = try CLI.run(["import", file, "-"], stdin: #"{"Person": [{"id": 4242, "name": "after"}]}"#)
        #expect(imported.status == 0, "\(imported.stderr)")
        let copy = URL(fileURLWithPath: file).standardizedFileURL.path + ".set-aside-v\(lost)"
        #expect(FileManager.default.fileExists(atPath: copy))
        let after = try CLI.run(["check", file])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stderr.contains(copy), "\(after.stderr)")
        let recovered = try CLI.run(["recover", copy, s.path("salvaged.realm")])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stdout.contains("(version \(lost))"), "\(recovered.stdout)")
        let discarded = try CLI.run(["check", file, "--discard-set-aside"])
        #expect(discarded.status == 0, "\(discarded.stderr)")
        #expect(discarded.stdout.contains("discarded \(copy)"), "\(discarded.stdout)")
        #expect(!FileManager.default.fileExists(atPath: copy))
        let clean = try CLI.run(["check", file])
        #expect(clean.status == 0 && clean.stderr.isEmpty, "\(clean.stderr)")
    }

    /// A zeroed sector of the newest header slot (issue 11, defect 7): `check` fails naming the
    /// version that slot would hold, reading commands warn.
    @Test func aLostHeaderSlotFailsCheckAndWarns() throws {
        let s = try Scratch()
        let file = try s.database()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let slots = try bytes.withUnsafeBytes { raw in
            try FileHeader.read(base: raw.baseAddress!, fileSize: UInt64(raw.count), path: file)
        }
        let newest = try #require(slots.first)
        let sector = Int(FileHeader.Layout.paired.headerPages[newest.index].lowerBound)
        for i in sector..<sector + 512 { bytes[i] = 0 }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let lost = newest.slot.version
        let checked = try CLI.run(["check", file])
        expectFailure(checked, contains: "version \(lost)")
        let queried = try CLI.run(["query", file, "Person"])
        #expect(queried.status == 0, "\(queried.stderr)")
        #expect(queried.stderr.hasPrefix("warning: "), "\(queried.stderr)")
        #expect(queried.stderr.contains("header slot"), "\(queried.stderr)")
        #expect(queried.stderr.contains("version \(lost)"), "\(queried.stderr)")
    }
}
