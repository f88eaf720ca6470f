import Foundation
@testable import RealmCoreFormat
@testable import RealmEngine
import Testing

/// A search index on a Mixed column written as Realm Core builds it (`Mixed::get_index_data`):
/// Realm Core verifies the file, rebuilds the same tables from its dump and has node-for-node
/// the same index, and finds values through it; columns whose index this writer cannot make
/// exactly are refused by class and property.
@Suite(.tags(.multiProcess)) struct CoreWriterMixedIndexTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Box",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "val", type: .mixed, isOptional: true, isIndexed: true),
            ]),
        ObjectSchema(name: "T", properties: [Property(name: "n", type: .int)]),
    ])

    static func realm(_ dir: TempDir, _ values: [Value]) throws -> Realm {
        let realm = try Realm(path: dir.path("native-\(UUID().uuidString).realm"), schema: schema)
        try realm.write {
            let t = try realm.create("T", ["n": .int(1)]).key
            for (i, v) in (values + [.typedLink(TypedLink(className: "T", key: t))]).enumerated() {
                try realm.create("Box", ["id": .int(Int64(i)), "val": v])
            }
        }
        return realm
    }

    @Test(.enabled(if: CoreWriterTests.toolPresent, "realm-core-tool is absent"))
    func aMixedIndexIsRealmCoresOwn() throws {
        let dir = TempDir("core-writer-mixed-index")
        var values: [Value] = (0..<1100).map { .int(Int64($0 * 13 % 1500)) }  // over 1000 keys: an inner root
        values += [
            .int(5 + (1 << 32)), .int(5 + (2 << 32)), .double(3), .float(4), .decimal128(Decimal128(9)),
            .double(2.5), .double(-7.25), .double(1e300), .float(0.5), .double(5e9),
            .string("a"), .string("ab"), .string("abcd"), .string("abcde"), .string("a"), .string("__list"),
            .string(""),
            .data(Data([0, 1, 2])), .data(Data("zz".utf8)), .date(Timestamp(seconds: 86_400, nanoseconds: 5)),
            .objectId(ObjectId("0123456789abcdef01234567")),
            .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
            .null, .null,
        ]
        values += [3, 1, 2].map { .string(String(repeating: "p", count: 210) + "\($0)") }
        let realm = try Self.realm(dir, values)
        let path = try CoreWriterTests.roundTrip(
            CoreWriterRealmTests.withTableKeys(try RealmCoreWriter.tables(from: realm)),
            schemaVersion: realm.schemaVersion, dir, name: "mixed.realm")
        try CoreWriterIndexTests.expectRealmCoreBuildsTheSameIndexes(path, tables: 3, dir)
        // Realm Core's answers through the index are this engine's.
        for rql in [
            "val == 3", "val == 5", "val == 'a'", "val == 2.5", "val == 4", "val == 9", "val == nil",
            "val == '\(String(repeating: "p", count: 210))2'",
        ] {
            let core = try CoreWriterIndexTests.query(path, "Box", rql)
            let ours = try realm.objects("Box").filter(rql).keys().map(\.rawValue)
            #expect(core == ours, "\(rql)")
        }
    }

    /// Values Realm Core keys alike but does not take as equal (the string "a" and the binary
    /// "a"), and a decimal with a fraction (keyed by Realm Core as its truncated int), are refused
    /// by class and property rather than written with an index Realm Core would not have built.
    @Test func anIndexThisWriterCannotMakeExactlyIsRefusedByName() throws {
        let dir = TempDir("core-writer-mixed-refused")
        for values: [Value] in [
            [.string("a"), .data(Data("a".utf8))], [.decimal128(try Decimal128(parsing: "1.5"))],
            [.int(1), .bool(true)], [.double(.nan), .double(.nan)],
        ] {
            let realm = try Self.realm(dir, values)
            #expect {
                try RealmCoreWriter.write(realm, toFile: dir.path("refused-\(UUID().uuidString).realm"))
            } throws: { error in
                guard case RealmError.unsupportedFeature(let text) = error else { return false }
                return text.hasPrefix("Box.val: a search index on a Mixed column")
            }
        }
    }
}
