import Foundation
import RealmCoreFormat
import Testing

/// Figures for the report (printed, not asserted: this machine is shared and loaded). Opening
/// reads only the header, the top and the specs; a full read decodes leaf by leaf.
@Suite struct CoreMeasurementTests {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test(.enabled(if: CoreFixtures.sharedFixture("generated-big.realm") != nil, "../shared/realm-core/fixtures/generated-big.realm is absent"))
    func openAndReadBig() throws {
        let url = try #require(CoreFixtures.sharedFixture("generated-big.realm"))
        let image = try RealmCoreImage(copying: Data(contentsOf: url))
        var file: RealmCoreFile?
        let open = try Self.seconds { file = try RealmCoreFile(image: image, name: "big") }
        let table = try #require(file?.table(named: "class_Big"))
        #expect(table.objectCount == 200_000)
        var n = 0
        var sum: Int64 = 0
        let read = try Self.seconds {
            try table.forEachObject { o in
                n += 1
                if case .int(let v) = o.values[1] { sum &+= v }
                return true
            }
        }
        #expect(n == 200_000)
        var page: [RealmCoreObject] = []
        let middle = try Self.seconds { page = try table.objects(from: 150_000, limit: 50) }
        #expect(page.first?.key == 150_000)
        print("RealmCoreFormat measure: open big \(open * 1000) ms; read 200,000 objects \(read) s; 50 objects at 150,000: \(middle * 1000) ms")
    }

    @Test func openAlltypes() throws {
        let image = try RealmCoreImage(copying: Data(contentsOf: CoreFixtures.url("generated-alltypes.realm")))
        var file: RealmCoreFile?
        let open = try Self.seconds { file = try RealmCoreFile(image: image, name: "alltypes") }
        #expect(file?.tables.count == 6)
        print("RealmCoreFormat measure: open alltypes \(open * 1000) ms")
    }
}
