import Foundation
import Testing

@testable import RealmCoreFormat
@testable import RealmEngine

/// A Realm Core file read in place (`RealmCoreVersion`) answers every question of the
/// readable-version protocol as the same file converted into this engine does (its `Snapshot`):
/// classes, counts, keys in order, positions, windows, every row of every object, primary keys,
/// backlinks and queries; and queries answer as Realm Core's own query engine does.
@Suite struct RealmCoreVersionTests {
    /// Every committed fixture this version of Realm Core's formats opens (the encrypted one with
    /// its key), and the 200,000-object one from `../shared` when present.
    static let fixtures: [String] =
        [
            "generated-dogs.realm", "generated-alltypes.realm", "generated-compacted.realm",
            "generated-history.realm", "generated-embedded-chain.realm", "generated-encrypted.realm",
            "watch-before.realm", "watch-after.realm",
        ] + CorePublicFixtureTests.fixtures

    /// The fixture converted into an in-memory Realm (its snapshot, and the Realm, which keeps
    /// the snapshot's memory alive) and read in place.
    static func open(_ url: URL, key: [UInt8]? = nil) throws -> (
        converted: Snapshot, inPlace: RealmCoreVersion, realm: Realm
    ) {
        let access =
            try key.map { try RealmCoreFileAccess.open(path: url.path, key: $0) }
            ?? RealmCoreFileAccess.open(path: url.path)
        var conversion = try RealmCoreConversion(file: RealmCoreFile(image: access.image, name: url.lastPathComponent))
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "in-place-\(UUID().uuidString)", schema: conversion.schema))
        try realm.write { try conversion.copy(into: realm) }
        let inPlace = try RealmCoreVersion(path: url.path, key: key)
        return (try realm.readView, inPlace, realm)
    }

    static func key(for name: String) throws -> [UInt8]? {
        name == "generated-encrypted.realm" ? try CoreDecryptionTests.key() : nil
    }

    /// Classes, counts, keys, positions, windows, every row, missing objects, primary keys and
    /// backlinks: the same on both.
    static func expectSameObjects(_ converted: Snapshot, _ inPlace: RealmCoreVersion, _ fixture: String) throws {
        #expect(
            inPlace.schema.objectSchemas.map(\.name) == converted.schema.objectSchemas.map(\.name), "\(fixture) classes"
        )
        for (c, objectSchema) in inPlace.schema.objectSchemas.enumerated() {
            let place = "\(fixture) \(objectSchema.name)"
            let s = try #require(converted.schema.objectSchemas.firstIndex { $0.name == objectSchema.name })
            let columns = inPlace.persistedColumnCount(classIndex: c)
            #expect(columns == converted.persistedColumnCount(classIndex: s), "\(place) columns")
            for property in objectSchema.persistedProperties {
                #expect(
                    inPlace.column(classIndex: c, named: property.name)
                        == converted.column(classIndex: s, named: property.name), "\(place).\(property.name)")
            }
            let count = try inPlace.count(classIndex: c)
            #expect(count == (try converted.count(classIndex: s)), "\(place) count")
            let keys = try inPlace.keys(classIndex: c)
            #expect(keys == (try converted.keys(classIndex: s)), "\(place) keys")
            #expect(try inPlace.keyBound(classIndex: c) == converted.keyBound(classIndex: s), "\(place) key bound")
            for range in [
                0..<50, 7..<19, (count / 2)..<(count / 2 + 50), (count - 3)..<(count + 5), (count + 1)..<(count + 3),
            ] {
                #expect(
                    try inPlace.keys(classIndex: c, in: range) == converted.keys(classIndex: s, in: range),
                    "\(place) window \(range)")
            }
            for position in Set([0, 1, count / 3, count / 2, count - 1]) where (0..<count).contains(position) {
                #expect(try inPlace.key(classIndex: c, at: position) == keys[position], "\(place) #\(position)")
            }
            #expect(throws: RealmError.self) { try inPlace.key(classIndex: c, at: count) }
            #expect(throws: RealmError.self) { try inPlace.key(classIndex: c, at: -1) }
            // Every row, value for value (from the end as well: leaves read out of order).
            for key in keys + keys.reversed().prefix(300) {
                let expected = try converted.row(classIndex: s, key: key).map { Array($0.prefix(columns)) }
                let actual = try inPlace.row(classIndex: c, key: key)
                #expect(
                    actual.map { Value.identical($0, expected ?? []) } == true,
                    "\(place)[\(key.rawValue)]: \(String(describing: actual)) ≠ \(String(describing: expected))")
                #expect(try inPlace.contains(classIndex: c, key: key))
            }
            for missing in [try inPlace.keyBound(classIndex: c), -1, keys.count > 1 ? keys[0].rawValue + 1 : 0]
            where !keys.contains(ObjectKey(missing)) {
                #expect(try !inPlace.contains(classIndex: c, key: ObjectKey(missing)), "\(place) \(missing)")
                #expect(try inPlace.row(classIndex: c, key: ObjectKey(missing)) == nil)
                #expect(throws: RealmError.self) {
                    try inPlace.value(classIndex: c, key: ObjectKey(missing), column: 0)
                }
            }
            if let pk = objectSchema.persistedProperties.firstIndex(where: \.isPrimaryKey) {
                for key in keys.prefix(200) + keys.suffix(50) {
                    let value = try inPlace.value(classIndex: c, key: key, column: pk)
                    #expect(try inPlace.object(classIndex: c, primaryKey: value) == key, "\(place) pk \(value)")
                    #expect(try converted.object(classIndex: s, primaryKey: value) == key, "\(place) pk \(value)")
                }
            } else {
                #expect(try inPlace.object(classIndex: c, primaryKey: .int(1)) == nil)
            }
        }
        // Backlinks of every link column, from the file's backlink columns.
        for (o, origin) in inPlace.schema.objectSchemas.enumerated() {
            let so = try #require(converted.schema.objectSchemas.firstIndex { $0.name == origin.name })
            for (j, property) in origin.persistedProperties.enumerated() where property.isLink {
                let targetName = try #require(property.objectClassName)
                let t = try #require(inPlace.schema.objectSchemas.firstIndex { $0.name == targetName })
                let st = try #require(converted.schema.objectSchemas.firstIndex { $0.name == targetName })
                #expect(inPlace.listsBacklinks(classIndex: t, originClass: o, originColumn: j))
                for key in try inPlace.keys(classIndex: t).prefix(300) {
                    #expect(
                        try inPlace.backlinks(classIndex: t, key: key, originClass: o, originColumn: j).sorted()
                            == converted.backlinks(classIndex: st, key: key, originClass: so, originColumn: j).sorted(),
                        "\(fixture) \(targetName)[\(key.rawValue)] ← \(origin.name).\(property.name)")
                }
            }
        }
    }

    /// Queries a class's schema allows: a comparison per scalar property, a count per
    /// collection, nil links, and sorted, limited and distinct forms.
    static func queries(for objectSchema: ObjectSchema) -> [String] {
        var out = ["TRUEPREDICATE", "FALSEPREDICATE"]
        for p in objectSchema.persistedProperties {
            let n = p.name
            if p.isList || p.isSet || p.isMap {
                out += ["\(n).@count > 1", "\(n).@count == 0"]
                continue
            }
            switch p.type {
            case .int:
                out += [
                    "\(n) > 5", "\(n) <= 2 OR \(n) == nil", "\(n) > 0 SORT(\(n) DESC) LIMIT(20)",
                    "\(n) < 100 DISTINCT(\(n))",
                ]
            case .string:
                out += [
                    "\(n) BEGINSWITH[c] 'a'", "\(n) CONTAINS 'e'", "\(n) == nil",
                    "TRUEPREDICATE SORT(\(n) ASC) LIMIT(17)",
                ]
            case .bool: out += ["\(n) == true", "\(n) == nil"]
            case .double, .float: out += ["\(n) > 0.5", "\(n) == nil"]
            case .object: out += ["\(n) == nil", "\(n) != nil"]
            case .mixed: out += ["\(n) == nil", "\(n) > 3"]
            default: out += ["\(n) == nil"]
            }
        }
        return out
    }

    /// Every query the schema allows answers the same on both (an error on both counts as the same).
    static func expectSameQueries(
        _ converted: Snapshot, _ inPlace: RealmCoreVersion, _ fixture: String, extra: [String: [String]] = [:]
    ) throws -> Int {
        var ran = 0
        for (c, objectSchema) in inPlace.schema.objectSchemas.enumerated() where !objectSchema.isEmbedded {
            let s = try #require(converted.schema.objectSchemas.firstIndex { $0.name == objectSchema.name })
            for text in queries(for: objectSchema) + extra[objectSchema.name, default: []] {
                guard let predicate = try? BoundQuery.parse(text, classIndex: c, schema: inPlace.schema, arguments: [])
                else { continue }
                var q = QueryDescription(classIndex: c)
                q.add(predicate)
                var qs = QueryDescription(classIndex: s)
                qs.add(try BoundQuery.parse(text, classIndex: s, schema: converted.schema, arguments: []))
                let expected = Result { try converted.evaluate(qs, missingOwnerIsEmpty: false) }
                let actual = Result { try inPlace.evaluate(q, missingOwnerIsEmpty: false) }
                switch (expected, actual) {
                case (.success(let e), .success(let a)): #expect(a == e, "\(fixture) \(objectSchema.name): \(text)")
                case (.failure, .failure): break
                default:
                    Issue.record("\(fixture) \(objectSchema.name): \(text): converted \(expected), in place \(actual)")
                }
                ran += 1
            }
        }
        return ran
    }

    @Test(arguments: fixtures)
    func inPlaceAnswersAsTheConversion(fixture: String) throws {
        let (converted, inPlace, realm) = try Self.open(CoreFixtures.url(fixture), key: try Self.key(for: fixture))
        defer { withExtendedLifetime(realm) {} }
        try Self.expectSameObjects(converted, inPlace, fixture)
        let ran = try Self.expectSameQueries(converted, inPlace, fixture)
        #expect(ran > 0 || inPlace.schema.objectSchemas.allSatisfy(\.isEmbedded), "\(fixture): no query ran")
    }

    /// The people-and-dogs fixture with ReadableVersionTests' kinds of queries: through links,
    /// lists and backlinks, sorted, limited, distinct.
    @Test func dogsAnswerLinkListAndBacklinkQueriesAsTheConversion() throws {
        let (converted, inPlace, realm) = try Self.open(CoreFixtures.url("generated-dogs.realm"))
        let extra = [
            "Person": [
                "ANY dogs.name BEGINSWITH 'ポチ'", "bestFriend.age > 5", "bestFriend == nil", "ANY dogs.age < 3",
                "dogs.@count > 1", "ALL dogs.age > 4", "age > 20 SORT(age DESC, _id ASC)",
                "name CONTAINS[c] 'a' OR age < 10", "_id IN {3, 15, 300, 1500}", "_id > 200 LIMIT(5)",
            ],
            "Dog": [
                "@links.Person.dogs.@count == 1", "ANY @links.Person.dogs.age > 40", "color == nil",
                "age >= 8 SORT(name DESC)", "@links.Person.bestFriend.@count > 0",
            ],
        ]
        let ran = try Self.expectSameQueries(converted, inPlace, "generated-dogs.realm", extra: extra)
        #expect(ran > 40)
        withExtendedLifetime(realm) {}
    }

    /// Realm Core's own query engine (`realm-core-tool query`) finds the same objects.
    @Test(.enabled(if: CoreFixtures.tool() != nil, "../shared/realm-core/tools/realm-core-tool is absent"))
    func queriesFindWhatRealmCoreFinds() throws {
        let tool = try CoreFixtures.requireTool()
        let cases: [(fixture: String, className: String, ours: String, core: String)] = [
            ("generated-dogs.realm", "Dog", "age > 5", "age > 5"),
            ("generated-dogs.realm", "Dog", "color == nil", "color == nil"),
            ("generated-dogs.realm", "Dog", "name BEGINSWITH 'ポチ'", "name BEGINSWITH 'ポチ'"),
            ("generated-dogs.realm", "Person", "ANY dogs.age > 10", "ANY dogs.age > 10"),
            ("generated-dogs.realm", "Person", "bestFriend.age < 3", "bestFriend.age < 3"),
            ("generated-dogs.realm", "Dog", "@links.Person.dogs.@count == 1", "@links.Person.dogs.@count == 1"),
            ("generated-dogs.realm", "Dog", "ANY @links.Person.dogs.age > 40", "ANY @links.Person.dogs.age > 40"),
            ("generated-history.realm", "Item", "TRUEPREDICATE", "TRUEPREDICATE"),
        ]
        for c in cases {
            let url = CoreFixtures.url(c.fixture)
            let inPlace = try RealmCoreVersion(path: url.path)
            let classIndex = try #require(inPlace.schema.objectSchemas.firstIndex { $0.name == c.className })
            var q = QueryDescription(classIndex: classIndex)
            q.add(try BoundQuery.parse(c.ours, classIndex: classIndex, schema: inPlace.schema, arguments: []))
            let ours = try inPlace.evaluate(q, missingOwnerIsEmpty: false).map(\.rawValue)
            let output = try CoreProcess.run(tool, ["query", url.path, c.className, c.core]).stdout
            let json = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
            let theirs = try #require(json["object_keys"] as? [NSNumber]).map(\.int64Value)
            #expect(ours.sorted() == theirs.sorted(), "\(c.fixture) \(c.className): \(c.ours)")
            #expect(ours.count == json["count"] as? Int)
        }
    }

    /// The 200,000-object file: the same objects both ways.
    @Test(
        .enabled(
            if: CoreFixtures.sharedFixture("generated-big.realm") != nil,
            "../shared/realm-core/fixtures/generated-big.realm is absent"))
    func bigFileAnswersAsTheConversion() throws {
        let url = try #require(CoreFixtures.sharedFixture("generated-big.realm"))
        let (converted, inPlace, realm) = try Self.open(url)
        try Self.expectSameObjects(converted, inPlace, "generated-big.realm")
        _ = try Self.expectSameQueries(converted, inPlace, "generated-big.realm")
        withExtendedLifetime(realm) {}
    }
}
