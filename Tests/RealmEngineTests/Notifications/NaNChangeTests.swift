import Foundation
import Testing
@testable import RealmEngine

/// A stored NaN is the same value as the NaN stored before: change detection compares stored
/// values bitwise. Before, `==` (NaN ≠ NaN) reported a property holding NaN as changed by every
/// write that touched the object, and an import of the same NaN counted as an update.
@Suite struct NaNChangeTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Probe",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "x", type: .double),
                Property(name: "f", type: .float, isOptional: true),
                Property(name: "n", type: .int),
                Property(name: "xs", type: .double, isList: true),
            ])
    ])

    @Test func identityIsBitwise() {
        #expect(Value.double(.nan).isIdentical(to: .double(.nan)))
        #expect(Value.float(.nan).isIdentical(to: .float(.nan)))
        #expect(Value.list([.double(.nan), .int(1)]).isIdentical(to: .list([.double(.nan), .int(1)])))
        #expect(Value.identical([.double(.nan)], [.double(.nan)]))
        #expect(Value.identical(Value?.some(.double(.nan)), .some(.double(.nan))))
        #expect(!Value.double(0).isIdentical(to: .double(-0.0)))  // a different stored value
        #expect(!Value.double(.nan).isIdentical(to: .float(.nan)))
        #expect(!Value.double(1).isIdentical(to: .int(1)))
        #expect(!Value.identical(Value?.none, .some(.null)))
        #expect(Value.string("a").isIdentical(to: .string("a")) && !Value.string("a").isIdentical(to: .string("b")))
    }

    @Test func anObjectHoldingNaNReportsOnlyThePropertiesThatChanged() throws {
        let dir = TempDir()
        let path = dir.path("n.realm")
        let writer = try Realm(path: path, schema: Self.schema)
        let observed = try Realm(path: path, schema: Self.schema)
        try writer.write {
            try writer.create(
                "Probe",
                [
                    "id": .int(1), "x": .double(.nan), "f": .float(.nan), "n": .int(0),
                    "xs": .list([.double(.nan)]),
                ])
        }
        observed.refresh()
        let probe = try #require(try observed.objects("Probe").first)
        var events: [[String]] = []
        let token = probe.observe { change in
            if case .change(_, let properties) = change { events.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        let w = try #require(try writer.objects("Probe").first)
        try writer.write {
            try w.setValue(.double(.nan), forKey: "x")
            try w.setValue(.float(.nan), forKey: "f")
            try w.list(forKey: "xs").removeAll()
            try w.list(forKey: "xs").append(.value(.double(.nan)))
            try w.setValue(.int(1), forKey: "n")
        }
        pumpRunLoop { events.count >= 1 }
        #expect(events == [["n"]])
    }

    @Test func importingTheSameNaNCountsAsUnchanged() throws {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "nan-\(UUID().uuidString)", schema: Self.schema))
        let json = #"{"Probe": [{"id": 1, "x": "nan", "f": "nan", "n": 2, "xs": ["nan"]}]}"#
        func load() throws -> DataImport.Summary {
            let groups = try ImportDocument.groups(fromJSON: Data(json.utf8), className: nil, schema: Self.schema)
            var summary = DataImport.Summary()
            try realm.write { summary = try DataImport(realm: realm).run(groups) }
            return summary
        }
        _ = try load()
        let again = try load()
        #expect(again.unchanged == 1 && again.updated == 0, "\(again)")
    }

    /// The writers skipped a value `==` to the stored one: -0.0 over 0.0 was not written (one
    /// object or many), and NaN over NaN was recorded as a modification.
    @Test(arguments: [1, 20])
    func writersCompareStoredValuesBitwise(objects: Int) throws {
        let dir = TempDir()
        let path = dir.path("w.realm")
        let realm = try Realm(path: path, schema: Self.schema)
        try realm.write {
            for i in 0..<objects { try realm.create("Probe", ["id": .int(Int64(i)), "x": .double(0), "n": .int(0)]) }
        }
        try realm.write { try realm.objects("Probe").setValue(.value(.double(-0.0)), forKey: "x") }
        for probe in try realm.objects("Probe") {
            guard case .double(let x)? = try? probe.value(forKey: "x") else {
                Issue.record("x is not a double")
                continue
            }
            #expect(x.sign == .minus, "-0.0 was not written")
        }
        try realm.write { try realm.objects("Probe").setValue(.value(.double(.nan)), forKey: "x") }
        let observed = try #require(try realm.objects("Probe").first)
        var events: [[String]] = []
        let token = observed.observe { change in
            if case .change(_, let properties) = change { events.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        let other = try Realm(path: path, schema: Self.schema)
        try other.write {
            try other.objects("Probe").setValue(.value(.double(.nan)), forKey: "x")
            try other.objects("Probe").setValue(.value(.int(2)), forKey: "n")
        }
        pumpRunLoop { events.count >= 1 }
        #expect(events == [["n"]])
    }
}
