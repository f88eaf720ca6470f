import Foundation
import Testing
@testable import RealmEngine

/// Each page of an encrypted file has two copies; the one not read now is what a crash during
/// the page's next rewrite falls back to. `check` passed a file whose spare copy was damaged
/// (nothing read it); it now says so with a warning naming the page — and damage to any copy
/// that was written is never passed over in silence.
@Suite(.tags(.integrity)) struct SpareCopyCheckTests {
    @Test func damageToAWrittenCopyOfAPageIsNeverSilent() throws {
        let dir = TempDir()
        let path = dir.path("spare.realm")
        do {
            let realm = try EncryptionTests.open(path)
            // Several commits, so that pages get written to both of their copies.
            for round in 0..<4 {
                try realm.write {
                    for i in 0..<50 {
                        try realm.create(
                            "Person", ["id": .int(Int64(round * 100 + i)), "name": .string("person \(round) \(i)")])
                    }
                }
            }
        }
        let original = try EncryptionTests.bytes(path)
        let url = URL(fileURLWithPath: path)
        var damagedSpares = 0
        let pages = EncryptedFile.logicalPages(physical: UInt64(original.count))
        for page in 0..<pages {
            let counters = try EncryptedFile.storedCounters(of: page, in: path)
            for copy in 0..<2 where (copy == 0 ? counters.0 : counters.1) > 0 {
                var damaged = original
                let at = Int(EncryptedFile.dataOffset(page, copy: copy)) + 100
                damaged[at] ^= 0x01
                try damaged.write(to: url)
                try? FileManager.default.removeItem(atPath: path + ".lock")
                let isSpare = (copy == 0) == (counters.0 < counters.1)
                do {
                    let report = try Realm.check(path: path, encryptionKey: EncryptionTests.key)
                    #expect(
                        report.warnings.contains { $0.contains("page \(page)") },
                        "copy \(copy) of page \(page) (counters \(counters)) damaged: check passed with warnings \(report.warnings)"
                    )
                    if isSpare { damagedSpares += 1 }
                } catch {
                    // An error is loud enough (the current copy failed and no fallback helps).
                }
            }
        }
        try original.write(to: url)
        #expect(damagedSpares > 0, "no page had a spare copy to damage; the test did not test")
        #expect(try Realm.check(path: path, encryptionKey: EncryptionTests.key).warnings.isEmpty)
    }
}
