import Foundation
import Testing
@testable import RealmEngine

/// A copy (`writeCopy`, `compact`) must not leave its other slot naming the empty version the
/// copy starts from: losing the newest slot's sector would then open an empty database that
/// `check` accepts (found by fuzz-file: compacted-slot1-sector-zeroed-reads-empty-database).
@Suite struct CopySlotsTests {
    @Test func bothSlotsOfACopyHoldItsObjects() throws {
        for lost in [0, 1] {
            let dir = TempDir()
            let source = dir.path("source.realm")
            let copyPath = dir.path("copy.realm")
            do {
                let realm = try Realm(path: source, schema: Fixtures.people)
                try realm.write {
                    for i in 0..<20 { try realm.create("Person", ["id": .int(Int64(i)), "name": .string("p\(i)")]) }
                }
                try realm.writeCopy(toFile: copyPath)
            }
            try SlotSectorTests.zeroSector(copyPath, at: Int(FileHeader.Layout.paired.headerPages[lost].lowerBound))
            do {
                let copy = try Realm(path: copyPath)
                #expect(try copy.objects("Person").checkedCount() == 20, "slot sector \(lost) lost")
            } catch RealmError.corruptFile {
                // Refusing is also honest; an empty database is not.
            }
        }
    }
}
