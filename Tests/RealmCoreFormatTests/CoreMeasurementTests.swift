import Foundation
import RealmCoreFormat
@testable import RealmEngine
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

/// Figures for the report (printed, not asserted): the 200,000-object file read in place
/// (`RealmCoreVersion`) against the same file converted into an in-memory Realm first.
@Suite struct CoreInPlaceMeasurementTests {
    @Test(
        .enabled(
            if: CoreFixtures.sharedFixture("generated-big.realm") != nil,
            "../shared/realm-core/fixtures/generated-big.realm is absent"))
    func openCountAndFirstWindowInPlaceAndConverted() throws {
        let url = try #require(CoreFixtures.sharedFixture("generated-big.realm"))
        var inPlace: RealmCoreVersion?
        let openInPlace = try CoreMeasurementTests.seconds { inPlace = try RealmCoreVersion(path: url.path) }
        let version = try #require(inPlace)
        let big = try #require(version.schema.objectSchemas.firstIndex { $0.name == "Big" })
        var count = 0
        let countInPlace = try CoreMeasurementTests.seconds { count = try version.count(classIndex: big) }
        #expect(count == 200_000)
        var rows: [[Value]] = []
        let windowInPlace = try CoreMeasurementTests.seconds {
            rows = try version.keys(classIndex: big, in: 0..<50).compactMap {
                try version.row(classIndex: big, key: $0)
            }
        }
        #expect(rows.count == 50)

        var realm: Realm?
        let openConverted = try CoreMeasurementTests.seconds {
            let access = try RealmCoreFileAccess.open(path: url.path)
            var conversion = try RealmCoreConversion(file: RealmCoreFile(image: access.image, name: url.path))
            let r = try Realm(
                configuration: .init(inMemoryIdentifier: "measure-\(UUID().uuidString)", schema: conversion.schema))
            try r.write { try conversion.copy(into: r) }
            realm = r
        }
        let converted = try #require(realm)
        var convertedCount = 0
        let countConverted = try CoreMeasurementTests.seconds {
            convertedCount = try converted.objects("Big").count
        }
        #expect(convertedCount == 200_000)
        var convertedRows = 0
        let windowConverted = try CoreMeasurementTests.seconds {
            let results = try converted.objects("Big")
            let keys = try results.keys(in: 0..<50)
            let properties = try #require(converted.schema["Big"]).persistedProperties
            for key in keys {
                let object = try #require(try converted.object(ofType: "Big", key: key))
                _ = try properties.map { try object.value(forKey: $0.name) }
                convertedRows += 1
            }
        }
        #expect(convertedRows == 50)
        // An unindexed scan query over every object, both ways.
        var inPlaceMatches = 0
        let scanInPlace = try CoreMeasurementTests.seconds {
            var q = QueryDescription(classIndex: big)
            q.add(try BoundQuery.parse("count > 100", classIndex: big, schema: version.schema, arguments: []))
            inPlaceMatches = try version.evaluate(q, missingOwnerIsEmpty: false).count
        }
        var convertedMatches = 0
        let scanConverted = try CoreMeasurementTests.seconds {
            convertedMatches = try converted.objects("Big").filter("count > 100").count
        }
        #expect(inPlaceMatches == convertedMatches)
        func ms(_ s: Double) -> String { String(format: "%.3f ms", s * 1000) }
        print(
            "RealmCoreVersion measure (200,000 objects): in place open \(ms(openInPlace)), count \(ms(countInPlace)), "
                + "first 50 rows \(ms(windowInPlace)); converted open \(ms(openConverted)), count \(ms(countConverted)), "
                + "first 50 rows \(ms(windowConverted)); scan 'count > 100' (\(inPlaceMatches) matches) in place "
                + "\(ms(scanInPlace)), converted \(ms(scanConverted))")
    }
}
