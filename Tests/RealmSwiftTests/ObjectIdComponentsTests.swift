import Foundation
import Testing
import RealmSwift

/// RealmSwift's `ObjectId.stringValue`, `timestamp` and `init(timestamp:machineId:processId:)`
/// (realm-swift's ObjectIdTests use all three), laid out as Realm Core lays out an ObjectId:
/// big-endian seconds, 3 bytes of machine id, 2 of process id, a 3-byte counter.
@Suite struct ObjectIdComponentsTests {
    @Test func stringValueIsTheTwentyFourDigitsParsed() throws {
        let text = "000123450000ffbeef91906c"
        let id = try ObjectId(string: text)
        #expect(id.stringValue == text)
        #expect(try ObjectId(string: "ABCDEF0123456789abcdef01").stringValue == "abcdef0123456789abcdef01")
    }

    @Test func timestampIsTheFirstFourBytesInSeconds() throws {
        let id = try ObjectId(string: "5f3a7b2c0000000000000000")
        #expect(id.timestamp == Date(timeIntervalSince1970: 0x5f3a_7b2c))
    }

    @Test func componentsLandWhereRealmCorePutsThem() throws {
        let when = Date(timeIntervalSince1970: 1_600_000_000.75)
        let id = ObjectId(timestamp: when, machineId: 0x0A0B0C, processId: 0x0102)
        let hex = id.stringValue
        // 1_600_000_000 = 0x5f5e1000; machine id stored least significant byte first, so is the process id.
        #expect(hex.hasPrefix("5f5e1000" + "0c0b0a" + "0201"))
        #expect(id.timestamp == Date(timeIntervalSince1970: 1_600_000_000))
    }

    @Test func idsOfOneSecondSortInCreationOrder() {
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        let ids = (0..<5).map { _ in ObjectId(timestamp: when, machineId: 1, processId: 2) }
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
    }
}
