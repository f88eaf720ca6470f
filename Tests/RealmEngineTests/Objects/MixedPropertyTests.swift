import Foundation
import Testing
@testable import RealmEngine

/// Mixed properties (`AnyRealmValue`): every kind of value stored, read back and surviving a
/// reopen and a copy; typed links to any class checked when written and cleared (at any depth)
/// when their target is deleted; nested lists and dictionaries; lists, sets and dictionaries of
/// Mixed; Realm's order across types; the codec refusing corrupt bytes; the integrity check;
/// migrations adding, removing and converting to Mixed.
@Suite struct MixedPropertyTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Box",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "value", type: .mixed),
                Property(name: "items", type: .mixed, isList: true),
                Property(name: "bag", type: .mixed, isSet: true),
                Property(name: "attrs", type: .mixed, isMap: true),
            ]),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
    ])

    static func open(_ dir: TempDir, _ name: String = "mixed.realm") throws -> Realm {
        try Realm(path: dir.path(name), schema: schema)
    }

    /// One value of every kind a Mixed holds (links aside).
    static let scalars: [Value] = [
        .null, .bool(true), .int(-42), .float(1.5), .double(.nan), .double(-0.0), .string("5"),
        .data(Data([0, 1, 255])),
        .date(Timestamp(seconds: -1, nanoseconds: 5)), .objectId(ObjectId("0123456789abcdef01234567")),
        .uuid(UUID(uuidString: "d1b186e1-e9e0-4768-a1a7-c492519d47ee")!), .decimal128(Decimal128("12.50")),
    ]

    static let nested: Value = .list([
        .int(1), .map(["k": .list([.string("deep"), .map(["x": .null])]), "e": .list([])]), .map([:]),
    ])

    @Test func theSchemaSaysMixedAndIsAlwaysOptional() throws {
        let value = try #require(Self.schema["Box"]?["value"])
        #expect(value.isOptional && value.typeDescription == "mixed")
        #expect(Property(name: "m", type: .mixed, isOptional: false).isOptional)
        #expect(Self.schema["Box"]?["items"]?.typeDescription == "mixed[]")
        try Self.schema.validate()
        var required = Property(name: "m", type: .mixed)
        required.isOptional = false
        #expect(throws: RealmError.self) { try Schema([ObjectSchema(name: "A", properties: [required])]).validate() }
        // A schema without Mixed encodes as before: no new key or value appears.
        let plain = try JSONEncoder().encode(
            Schema([ObjectSchema(name: "A", properties: [Property(name: "n", type: .int)])]))
        #expect(!String(decoding: plain, as: UTF8.self).contains("mixed"))
    }

    @Test func everyKindIsStoredAndReadBackAfterReopening() throws {
        let dir = TempDir()
        do {
            let realm = try Self.open(dir)
            try realm.write {
                for (i, v) in Self.scalars.enumerated() { try realm.create("Box", ["id": .int(Int64(i)), "value": v]) }
                try realm.create(
                    "Box",
                    [
                        "id": .int(100), "value": Self.nested, "items": .list(Self.scalars + [Self.nested]),
                        "attrs": .map(["a": .int(1), "b": .null, "c": Self.nested]),
                    ])
            }
        }
        let realm = try Self.open(dir)
        for (i, v) in Self.scalars.enumerated() {
            let stored = try #require(try realm.object(ofType: "Box", forPrimaryKey: .int(Int64(i))))["value"]
            #expect(stored.map { Value.identical($0, v) } == true, "\(v.kindName): \(String(describing: stored))")
        }
        let box = try #require(try realm.object(ofType: "Box", forPrimaryKey: .int(100)))
        #expect(box["value"] == Self.nested)
        #expect(box["items"].map { Value.identical($0, .list(Self.scalars + [Self.nested])) } == true)
        #expect(box["attrs"] == .map(["a": .int(1), "b": .null, "c": Self.nested]))
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        let copy = dir.path("copy.realm")
        try realm.writeCopy(toFile: copy)
        let reopened = try Realm(path: copy, schema: Self.schema)
        #expect(try reopened.object(ofType: "Box", forPrimaryKey: .int(100))?["value"] == Self.nested)
    }

    @Test func typedLinksAreCheckedAndClearedWhenTheTargetIsDeleted() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        let (rex, fido) = try realm.write {
            (try realm.create("Dog", ["name": .string("Rex")]), try realm.create("Dog", ["name": .string("Fido")]))
        }
        let toRex = Value.typedLink(TypedLink(className: "Dog", key: rex.key))
        let toFido = Value.typedLink(TypedLink(className: "Dog", key: fido.key))
        try realm.write {
            try realm.create(
                "Box",
                [
                    "id": .int(1), "value": toRex, "items": .list([toRex, .int(3), toFido]),
                    "bag": .list([toRex, .string("x")]),
                    "attrs": .map(["dog": toRex, "deep": .list([.map(["d": toRex])])]),
                ])
        }
        // A link to a missing object or an unknown class, or an untyped link, is refused; nothing written.
        for bad in [
            Value.typedLink(TypedLink(className: "Dog", key: ObjectKey(99))),
            .typedLink(TypedLink(className: "Cat", key: rex.key)), .link(rex.key),
        ] {
            #expect(throws: RealmError.self) {
                try realm.write { try realm.create("Box", ["id": .int(2), "value": bad]) }
            }
            #expect(throws: RealmError.self) {
                try realm.write { try realm.create("Box", ["id": .int(2), "items": .list([bad])]) }
            }
        }
        #expect(try realm.objects("Box").count == 1)
        try realm.write { try realm.delete(rex) }
        let box = try #require(try realm.object(ofType: "Box", forPrimaryKey: .int(1)))
        #expect(box["value"] == .null)
        #expect(box["items"] == .list([.null, .int(3), toFido]))  // cleared in place, as Realm Core does
        #expect(box["bag"] == .list([.string("x")]))  // a set drops it
        #expect(box["attrs"] == .map(["dog": .null, "deep": .list([.map(["d": .null])])]))
        #expect(try realm.checkIntegrity().warnings.isEmpty)
    }

    @Test func valuesAreCheckedAsRealmChecksThem() throws {
        let dir = TempDir()
        let realm = try Self.open(dir)
        // Nested dictionary keys follow a dictionary's rules; a set holds no collection; nesting is bounded.
        var deep = Value.int(1)
        for _ in 0...Value.maxMixedDepth { deep = .list([deep]) }
        for bad: [String: Value] in [
            ["value": .map(["$x": .int(1)])], ["value": .list([.map(["a.b": .int(1)])])],
            ["bag": .list([.list([])])], ["value": deep],
        ] {
            #expect(throws: RealmError.self) {
                try realm.write { try realm.create("Box", ["id": .int(1)].merging(bad) { a, _ in a }) }
            }
        }
        // A set of Mixed is unique by Realm's equality: 1, 1.0 and decimal 1 are one element; "1" is another.
        try realm.write {
            try realm.create(
                "Box",
                [
                    "id": .int(1),
                    "bag": .list([.string("1"), .int(1), .double(1), .decimal128(Decimal128(1)), .null, .bool(true)]),
                ])
        }
        #expect(
            try realm.object(ofType: "Box", forPrimaryKey: .int(1))?["bag"]
                == .list([.null, .bool(true), .int(1), .string("1")]))
    }

    @Test func orderAcrossTypesIsRealms() {
        let dog = Value.typedLink(TypedLink(className: "Dog", key: ObjectKey(1)))
        let sorted: [Value] = [
            .null, .bool(false), .int(-1), .decimal128(Decimal128("0.5")), .double(2), .string(""), .data(Data()),
            .date(Timestamp(seconds: 0)), .objectId(ObjectId("000000000000000000000000")),
            .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!), dog, .list([]), .map([:]),
        ]
        for (i, a) in sorted.enumerated() {
            for (j, b) in sorted.enumerated() {
                #expect(ValueOrder.sortCompare(a, b) == (i < j ? -1 : i == j ? 0 : 1), "\(a.kindName) vs \(b.kindName)")
            }
        }
        #expect(ValueOrder.equal(.int(1), .double(1)) && ValueOrder.equal(.decimal128(Decimal128(1)), .float(1)))
        #expect(!ValueOrder.equal(.string("1"), .int(1)) && !ValueOrder.equal(.bool(true), .int(1)))
        #expect(!ValueOrder.equal(.string("a"), .data(Data("a".utf8))))
    }

    @Test func theCodecRefusesCorruptMixedBytes() throws {
        let props = [Property(name: "m", type: .mixed)]
        let data = ClusterData(keys: [0, 1], columns: [[.string("abc"), .list([.int(1), .map(["a": .bool(true)])])]])
        var bytes = [UInt8]()
        ClusterCodec.encode(data, columns: props, into: &bytes)
        #expect(bytes.count == ClusterCodec.encodedSize(data, columns: props))
        let decoded = try bytes.withUnsafeBytes { try ClusterView($0, columns: props).decode() }
        #expect(decoded == data)
        // Any bytes MixedCodec cannot have written are refused: an unknown tag, a short value,
        // keys out of order, a count beyond the bytes, trailing bytes.
        for bad: [UInt8] in [
            [99], [3, 1, 2], [14, 2, 0, 0, 0, 1, 0, 0, 0, 98, 0, 1, 0, 0, 0, 97, 0], [13, 255, 255, 0, 0, 0], [1, 1],
            [12, 0, 0, 0, 0] + Array(repeating: 0, count: 8),
        ] {
            #expect(throws: CodecError.self) { try bad.withUnsafeBytes { _ = try MixedCodec.decode($0) } }
            let corrupt = ClusterData(keys: [0], columns: [[.data(Data(bad))]])
            var out = [UInt8]()
            ClusterCodec.encode(corrupt, columns: [Property(name: "m", type: .data, isOptional: true)], into: &out)
            #expect(throws: CodecError.self) { _ = try out.withUnsafeBytes { try ClusterView($0, columns: props) } }
        }
    }

    @Test func migrationsAddRemoveAndConvertToMixed() throws {
        let dir = TempDir()
        let path = dir.path("m.realm")
        let v0 = Schema([
            ObjectSchema(
                name: "Item",
                properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true), Property(name: "n", type: .int),
                    Property(name: "dog", type: .object, objectClassName: "Dog"), Property(name: "gone", type: .mixed),
                ]), ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
        ])
        let v1 = Schema([
            ObjectSchema(
                name: "Item",
                properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true), Property(name: "n", type: .mixed),
                    Property(name: "dog", type: .mixed), Property(name: "added", type: .mixed, isMap: true),
                ]), ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
        ])
        do {
            let realm = try Realm(path: path, schema: v0)
            try realm.write {
                let dog = try realm.create("Dog", ["name": .string("Rex")])
                try realm.create("Item", ["id": .int(1), "n": .int(7), "dog": .link(dog.key), "gone": .string("x")])
            }
        }
        let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: v1, schemaVersion: 1))
        let item = try #require(try realm.objects("Item").first)
        let dog = try #require(try realm.objects("Dog").first)
        #expect(item["n"] == .int(7))
        #expect(item["dog"] == .typedLink(TypedLink(className: "Dog", key: dog.key)))
        #expect(item["added"] == .map([:]))
        #expect(item["gone"] == nil)
        #expect(try realm.checkIntegrity().warnings.isEmpty)
    }
}
