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

    @Test(
        .enabled(
            if: CoreFixtures.sharedFixture("generated-big.realm") != nil,
            "../shared/realm-core/fixtures/generated-big.realm is absent"))
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
        print(
            "RealmCoreFormat measure: open big \(open * 1000) ms; read 200,000 objects \(read) s; 50 objects at 150,000: \(middle * 1000) ms"
        )
    }

    /// One in-place commit of one value on the 11 MB, 200,000-object file, ten times in a row
    /// (the commit alone: reading the file into an editable Realm is not part of it).
    @Test(
        .enabled(
            if: CoreFixtures.sharedFixture("generated-big.realm") != nil,
            "../shared/realm-core/fixtures/generated-big.realm is absent"))
    func inPlaceCommitOnBig() throws {
        let url = try #require(CoreFixtures.sharedFixture("generated-big.realm"))
        let dir = TempDir("s24-inplace-measure")
        let path = dir.path("big.realm")
        try FileManager.default.copyItem(atPath: url.path, toPath: path)
        let lock = try RealmCoreEditLock(path: path)
        defer { lock.release() }
        var times: [Double] = []
        for i in 0..<10 {
            let change = RealmCoreCellChange(
                table: "class_Big", key: Int64(100_000 + i), column: "label", value: .string("edited \(i)"))
            var result: RealmCoreInPlaceCommit.Result?
            times.append(try Self.seconds { result = try RealmCoreInPlaceCommit.commit(path: path, changes: [change]) })
            guard case .committed = result else {
                Issue.record("not in place: \(String(describing: result))")
                return
            }
        }
        let file = try RealmCoreFile(image: RealmCoreFileAccess.open(path: path, lockHeld: true).image, name: path)
        let object = try #require(try file.table(named: "class_Big")?.object(key: 100_009))
        #expect(object.values.contains(.string("edited 9")))
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        print(
            "RealmCoreFormat measure: in-place commit of one value on big (11 MB): "
                + times.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ") + " ms; file \(size) bytes")
    }

    @Test func openAlltypes() throws {
        let image = try RealmCoreImage(copying: Data(contentsOf: CoreFixtures.url("generated-alltypes.realm")))
        var file: RealmCoreFile?
        let open = try Self.seconds { file = try RealmCoreFile(image: image, name: "alltypes") }
        #expect(file?.tables.count == 6)
        print("RealmCoreFormat measure: open alltypes \(open * 1000) ms")
    }
}
