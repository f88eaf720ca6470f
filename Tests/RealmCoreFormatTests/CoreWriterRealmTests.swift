import Foundation
import RealmCoreFormat
import RealmEngine
import Testing

/// `RealmCoreWriter.write(_:toFile:)`: this engine's Realm written as a Realm Core file, which
/// Realm Core accepts and `RealmCoreConversion` reads back as the same objects.
@Suite(.tags(.multiProcess)) struct CoreWriterRealmTests {
    static let properties: [Property] = [
        Property(name: "n", type: .int), Property(name: "small", type: .int8, isOptional: true),
        Property(name: "flag", type: .bool, isOptional: true), Property(name: "name", type: .string),
        Property(name: "note", type: .string, isOptional: true), Property(name: "ratio", type: .double),
        Property(name: "f", type: .float, isOptional: true), Property(name: "when", type: .date, isOptional: true),
        Property(name: "blob", type: .data, isOptional: true), Property(name: "oid", type: .objectId, isOptional: true),
        Property(name: "u", type: .uuid, isOptional: true), Property(name: "dec", type: .decimal128, isOptional: true),
        Property(name: "tags", type: .string, isList: true),
        Property(name: "scores", type: .double, isOptional: true, isList: true),
    ]

    static func makeRealm(_ dir: TempDir, count: Int, schema: Schema? = nil) throws -> Realm {
        let realm = try Realm(
            path: dir.path("native.realm"),
            schema: schema ?? Schema([ObjectSchema(name: "Item", properties: properties)]))
        try realm.write {
            for i in 0..<count {
                let values: [Value] = [
                    .int(i == 0 ? .min : i == 1 ? .max : Int64(i) * 1_000_003),
                    i % 3 == 0 ? .null : .int(Int64(i % 100)),
                    i % 4 == 0 ? .null : .bool(i % 2 == 0), .string(i % 7 == 0 ? "" : "name \(i) ✓"),
                    i % 5 == 0 ? .null : .string(String(repeating: "note", count: i % 30)),
                    .double(i == 2 ? -0.0 : Double(i) / 3),
                    i % 6 == 0 ? .null : .float(Float(i) * 0.25),
                    i % 2 == 0 ? .null : .date(Timestamp(seconds: Int64(i - 500) * 86_400, nanoseconds: Int32(i))),
                    i % 3 == 1 ? .null : .data(Data(repeating: UInt8(i & 0xFF), count: i % 90)),
                    i % 2 == 1 ? .null : .objectId(ObjectId(words: (UInt32(i), 0xDEAD_BEEF, UInt32(count - i)))),
                    i % 5 == 1
                        ? .null
                        : .uuid(UUID(uuid: (UInt8(i & 0xFF), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))),
                    i % 4 == 2 ? .null : .decimal128(Decimal128(low: UInt64(i), high: 0x3040_0000_0000_0000)),
                    .list((0..<(i % 4)).map { .string("tag \($0)") }),
                    .list((0..<(i % 3)).map { $0 == 1 ? .null : .double(Double($0) / 2) }),
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
        try CoreWriterTests.roundTrip(
            try RealmCoreWriter.tables(from: realm), schemaVersion: realm.schemaVersion, dir, name: "checked.realm")
        let path = dir.path("copy.realm")
        try RealmCoreWriter.write(realm, toFile: path)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
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

    /// Links and lists of links, with the backlink columns Realm Core keeps in the targets
    /// (a self-link included), checked by Realm Core (its verify compares links and backlinks)
    /// and read back by the conversion.
    @Test func linksAndBacklinks() throws {
        let dir = TempDir("core-writer-links")
        let schema = Schema([
            ObjectSchema(
                name: "Dog",
                properties: [
                    Property(name: "name", type: .string),
                    Property(name: "mother", type: .object, isOptional: true, objectClassName: "Dog"),
                ]),
            ObjectSchema(
                name: "Person",
                properties: [
                    Property(name: "name", type: .string),
                    Property(name: "best", type: .object, isOptional: true, objectClassName: "Dog"),
                    Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
                ]),
        ])
        let realm = try Realm(path: dir.path("native.realm"), schema: schema)
        try realm.write {
            var dogs: [ObjectKey] = []
            for i in 0..<30 {
                let mother: Value = i > 2 ? .link(dogs[i % 3]) : .null
                dogs.append(try realm.create("Dog", value: .array([.value(.string("dog \(i)")), .value(mother)])).key)
            }
            for i in 0..<20 {
                let list =
                    (0..<(i % 5)).map { ObjectInput.value(.link(dogs[($0 * 7 + i) % 30])) }
                    + (i == 4 ? [.value(.link(dogs[0])), .value(.link(dogs[0]))] : [])
                try realm.create(
                    "Person",
                    value: .array([.value(.string("p\(i)")), .value(i % 3 == 0 ? .null : .link(dogs[i])), .array(list)])
                )
            }
        }
        try CoreWriterTests.roundTrip(
            try Self.withTableKeys(RealmCoreWriter.tables(from: realm)), schemaVersion: realm.schemaVersion, dir,
            name: "checked.realm")
        let path = dir.path("copy.realm")
        try RealmCoreWriter.write(realm, toFile: path)
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        let conversion = try RealmCoreConversion(file: file)
        #expect(conversion.omissions.isEmpty)
        for className in ["Dog", "Person"] {
            var seen = 0
            try conversion.forEachObject(of: className) { key, values in
                seen += 1
                let original = try realm.object(ofType: className, key: key)?.values()
                #expect(values == original, "\(className) \(key.rawValue)")
                return true
            }
            #expect(seen == (className == "Dog" ? 30 : 20))
        }
        // Realm Core's dump lists each Dog's backlinks; our reader reads the same.
        let dogs = try #require(file.table(named: "class_Dog"))
        let dog0 = try #require(try dogs.object(key: 0))
        let backlinkCount = dog0.backlinks.map(\.count).reduce(0, +)
        #expect(dogs.backlinkColumns.count == 3)
        #expect(backlinkCount > 0, "\(dog0.backlinks)")
        // Dog.mother's backlinks come first: dogs 3, 6, …, 27 have dog 0 as their mother.
        #expect(dog0.backlinks.first == [3, 6, 9, 12, 15, 18, 21, 24, 27])
    }

    /// The links of `tables` given the table keys the writer gives them (metadata first), as
    /// the reader reads them back.
    static func withTableKeys(_ tables: [RealmCoreWriterTable]) -> [RealmCoreWriterTable] {
        let keys = Dictionary(
            tables.enumerated().map { ($0.element.name, Int64($0.offset + 1)) }, uniquingKeysWith: { a, _ in a })
        return tables.map { t in
            var t = t
            for (c, column) in t.columns.enumerated() {
                guard let target = column.linkTarget, let key = keys[target] else { continue }
                func fix(_ v: CoreValue) -> CoreValue {
                    switch v {
                    case .link(_, let k): .link(tableKey: key, key: k)
                    case .list(let items): .list(items.map(fix))
                    case .set(let items): .set(items.map(fix))
                    case .dictionary(let entries):
                        .dictionary(entries.map { CoreDictionaryEntry(key: $0.key, value: fix($0.value)) })
                    default: v
                    }
                }
                for o in t.objects.indices { t.objects[o].values[c] = fix(t.objects[o].values[c]) }
            }
            return t
        }
    }

    /// What the writer cannot write yet is refused naming the class and property; no file.
    @Test func unsupportedSchemaPartsAreRefusedByName() throws {
        let cases: [(ObjectSchema, String)] = [
            (ObjectSchema(name: "S", properties: [Property(name: "xs", type: .mixed, isSet: true)]), "S.xs")
        ]
        for (objectSchema, name) in cases {
            let dir = TempDir("core-writer-refuse")
            let realm = try Realm(path: dir.path("native.realm"), schema: Schema([objectSchema]))
            // Sets of Mixed are written; one holding two values this engine tells apart and Realm
            // Core takes as equal (Decimal128(float) keeps 7 digits: 0.1000000) is not.
            try realm.write {
                _ = try realm.create(
                    "S",
                    value: .array([.array([.value(.float(0.1)), .value(.decimal128(try Decimal128(parsing: "0.1")))])]))
            }
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
