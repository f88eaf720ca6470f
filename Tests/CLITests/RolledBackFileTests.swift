import Foundation
import Testing
@testable import RealmEngine

/// A file put back to an older version through the command line: the older copy of the page
/// holding the newest header slot put back. Reading commands warn naming the version set aside,
/// `check` fails naming it — never the older version served silently.
@Suite("CLI rolled-back file", .tags(.multiProcess, .integrity))
struct RolledBackFileTests {
    @Test func anOlderCopyOfTheNewestSlotPageWarnsAndFailsCheck() throws {
        let s = try Scratch()
        let file = try s.database()
        func newestSlot() throws -> (index: Int, slot: FileHeader.Slot) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            return try #require(
                try bytes.withUnsafeBytes { raw in
                    try FileHeader.read(base: raw.baseAddress!, fileSize: UInt64(raw.count), path: file)
                }.first)
        }
        func importDog(_ name: String) throws {
            let r = try CLI.run(["import", file, "-"], stdin: #"{"Dog": [{"name": "\#(name)"}]}"#)
            try #require(r.status == 0, "\(r.stderr)")
        }
        // Commit until slot 0 is the newest, keep its page, commit twice more (slot 1, slot 0).
        var n = 0
        while try newestSlot().index != 0 {
            try importDog("d\(n)")
            n += 1
        }
        let page = FileHeader.Layout.paired.headerPages[0]
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))[Int(page.lowerBound)..<Int(page.upperBound)]
        try importDog("late1")
        try importDog("late2")
        let lost = try newestSlot().slot.version
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        try handle.seek(toOffset: page.lowerBound)
        handle.write(saved)
        try handle.close()

        let queried = try CLI.run(["query", file, "Dog", "--format", "count"])
        #expect(queried.status == 0, "\(queried.stderr)")
        #expect(queried.stderr.hasPrefix("warning: "), "\(queried.stderr)")
        #expect(queried.stderr.contains("version \(lost)"), "\(queried.stderr)")
        let checked = try CLI.run(["check", file])
        #expect(checked.status != 0, "check passed a file that went back from version \(lost): \(checked.stdout)")
        #expect(checked.stderr.contains("version \(lost)"), "\(checked.stderr)")
    }
}
