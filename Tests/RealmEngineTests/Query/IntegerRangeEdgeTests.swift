import Foundation
import Testing
@testable import RealmEngine

/// Range tests on an int column answered from its packed values (`ColumnTest.intRange`: a
/// count without listing keys, a window, the rows a bulk delete takes) at the edges of `Int64`:
/// the range is half-open, so `Int64.max` itself cannot be its exclusive upper bound. Found by
/// comparing a Realm Core file read in place with its conversion: `value > 0` counted one object
/// fewer than it listed when an object held `Int64.max`.
@Suite struct IntegerRangeEdgeTests {
    static let values: [Int64] = [0, .max, .min, -1, 1 << 32, .max - 1, .min + 1]

    /// A file (leaves encoded, as the packed paths need) with one `M` object per value.
    static func makeRealm() throws -> (Realm, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("int-edges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let schema = Schema([ObjectSchema(name: "M", properties: [Property(name: "value", type: .int)])])
        let realm = try Realm(configuration: .init(fileURL: dir.appendingPathComponent("m.realm"), schema: schema))
        try realm.write {
            for value in values { _ = try realm.create("M", ["value": .int(value)]) }
        }
        return (realm, dir)
    }

    static func expected(_ op: String, _ bound: Int64) -> Int {
        values.filter { value in
            switch op {
            case ">": value > bound
            case ">=": value >= bound
            case "<": value < bound
            case "<=": value <= bound
            default: value == bound
            }
        }.count
    }

    @Test func countsAndWindowsIncludeBothEnds() throws {
        let (realm, dir) = try Self.makeRealm()
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshot = try realm.readView
        for op in [">", ">=", "<", "<=", "=="] {
            for bound in Self.values {
                let text = "value \(op) $0"
                let results = try realm.objects("M").filter(text, .int(bound))
                let listed = try results.keys()
                let want = Self.expected(op, bound)
                #expect(listed.count == want, "listed: \(text) with \(bound)")
                #expect(try results.checkedCount() == want, "count: \(text) with \(bound)")
                let predicate = try BoundQuery.parse(
                    text, classIndex: 0, schema: snapshot.schema, arguments: [.int(bound)])
                if let counted = try snapshot.count(matching: predicate) {
                    #expect(counted == want, "count(matching:): \(text) with \(bound)")
                }
                if let window = try snapshot.window(matching: predicate, skip: 0, limit: 100) {
                    #expect(window == listed, "window: \(text) with \(bound)")
                }
            }
        }
    }

    @Test func aBulkDeleteTakesTheObjectHoldingInt64Max() throws {
        let (realm, dir) = try Self.makeRealm()
        defer { try? FileManager.default.removeItem(at: dir) }
        try realm.write { try realm.delete(realm.objects("M").filter("value > 0")) }
        let left = try realm.objects("M").keys().compactMap { key -> Int64? in
            guard case .int(let value) = try realm.object(ofType: "M", key: key)?.value(forKey: "value") else {
                return nil
            }
            return value
        }
        #expect(left.sorted() == Self.values.filter { $0 <= 0 }.sorted())
    }
}
