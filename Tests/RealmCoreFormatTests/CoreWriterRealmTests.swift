import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// `RealmCoreWriter.write(_:toFile:)`: this engine's Realm written as a Realm Core file, which
/// Realm Core accepts and `RealmCoreConversion` reads back as the same objects.
@Suite struct CoreWriterRealmTests {
    static let properties: [Property] = [
        Property(name: "n", type: .int), Property(name: "small", type: .int8, isOptional: true),
        Property(name: "flag", type: .bool, isOptional: true), Property(name: "name", type: .string),
        Property(name: "note", type: .string, isOptional: true), Property(name: "ratio", type: .double),
        Property(name: "f", type: .float, isOptional: true), Property(name: "when", type: .date, isOptional: true),
        Property(name: "blob", type: .data, isOptional: true), Property(name: "oid", type: .objectId, isOptional: true),
        Property(name: "u", type: .uuid, isOptional: true), Property(name: "dec", type: .decimal128, isOptional: true),
        Property(name: "tags", type: .string, isList: true), Property(name: "scores", type: .double, isOptional: true, isList: true),
    ]

    static func makeRealm(_ dir: TempDir, count: Int, schema: Schema? = nil) throws -> Realm {
        let realm = try Realm(path: dir.path("native.realm"), schema: schema ?? Schema([ObjectSchema(name: "Item", properties: properties)]))
        try realm.write {
            for i in 0..<count {
                let values: [Value] = [
                    .int(i == 0 ? .min : i == 1 ? .max : Int64(i) * 1_000_003), i % 3 == 0 ? .null : .int(Int64(i % 100)),
                    i % 4 == 0 ? .null : .bool(i % 2 == 0), .string(i % 7 == 0 ? "" : "name \(i) ✓"),
                    i % 5 == 0 ? .null : .string(String(repeating: "note", count: i % 30)), .double(i == 2 ? -0.0 : Double(i) / 3),
                    i % 6 == 0 ? .null : .float(Float(i) * 0.25), i % 2 == 0 ? .null : .date(Timestamp(seconds: Int64(i - 500) * 86_400, nanoseconds: Int32(i))),
                    i % 3 == 1 ? .null : .data(Data(repeating: UInt8(i & 0xFF), count: i % 90)),
                    i % 2 == 1 ? .null : .objectId(ObjectId(words: (UInt32(i), 0xDEAD_BEEF, UInt32(count - i)))),
                    i % 5 == 1 ? .null : .uuid(UUID(uuid: (UInt8(i & 0xFF), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))),
                    i % 4 == 2 ? .null : .decimal128(Decimal128(low: UInt64(i), high: 0x3040_0000_0000_0000)),
                    .list((0..<(i % 4)).map { .string("tag \($0)") }), .list((0..<(i % 3)).map { $0 == 1 ? .null : .double(Double($0) / 2) }),
                ]
                try realm.create("Item", value: .array(values.map(ObjectInput.value)))
            }
        }
        return realm
    }

    @Test func aRealmIsWrittenAndReadBackEqual() throws {
        let dir = TempDir("core-writer-realm")
        let realm = try Self.makeRealm(dir, count: 600)
        // Realm Core's checks on the tables the engine gives.
        try CoreWriterTests.roundTrip(try RealmCoreWriter.tables(from: realm), schemaVersion: realm.schemaVersion, dir, name: "checked.realm")
        let path = dir.path("copy.realm")
        try RealmCoreWriter.write(realm, toFile: path)
        let file = try RealmCoreFile(image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        let conversion = try RealmCoreConversion(file: file)
        #expect(conversion.omissions.isEmpty)
        var original: [Int64: [Value]] = [:]
        for key in try realm.objects("Item").keys() {
            original[key.rawValue] = try realm.object(ofType: "Item", key: key)?.values()
        }
        var seen = 0
        try conversion.forEachObject(of: "Item") { key, values in
            seen += 1
            #expect(values == original[key.rawValue], "object \(key.rawValue)")
            return true
        }
        #expect(seen == 600)
        #expect(try file.schemaVersion() == Int64(realm.schemaVersion))
    }

    /// What the writer cannot write yet is refused naming the class and property; no file.
    @Test func unsupportedSchemaPartsAreRefusedByName() throws {
        let cases: [(ObjectSchema, String)] = [
            (ObjectSchema(name: "P", properties: [Property(name: "id", type: .int, isPrimaryKey: true)]), "P.id"),
            (ObjectSchema(name: "I", properties: [Property(name: "s", type: .string, isIndexed: true)]), "I.s"),
            (ObjectSchema(name: "S", properties: [Property(name: "xs", type: .int, isSet: true)]), "S.xs"),
            (ObjectSchema(name: "M", properties: [Property(name: "any", type: .mixed, isOptional: true)]), "M.any"),
        ]
        for (objectSchema, name) in cases {
            let dir = TempDir("core-writer-refuse")
            let realm = try Realm(path: dir.path("native.realm"), schema: Schema([objectSchema]))
            let path = dir.path("out.realm")
            do {
                try RealmCoreWriter.write(realm, toFile: path)
                Issue.record("\(name) was written")
            } catch let error as RealmError {
                #expect("\(error)".contains(name), "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
