import Foundation
import Testing
@testable import RealmEngine

/// A scan's evaluator reads the tested object's columns from the leaf it is on
/// (`LeafCachedStore`); every answer must equal the object-at-a-time evaluation through the
/// store itself — sets, dictionaries, lists of links, backlinks (a hidden column), Mixed, and
/// links to other objects of the same class (read from other leaves).
@Suite struct LeafCachedScanTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "tags", type: .string, isSet: true),
                Property(name: "attrs", type: .int, isMap: true),
                Property(name: "value", type: .mixed, isOptional: true),
                Property(name: "next", type: .object, isOptional: true, objectClassName: "Item"),
                Property(name: "friends", type: .object, isList: true, objectClassName: "Item"),
                Property(
                    name: "followers", type: .linkingObjects, objectClassName: "Item", linkOriginPropertyName: "friends"
                ),
            ])
    ])

    static let queries = [
        "ANY tags == 'tag3'", "tags.@count >= 2", "ANY tags IN {'tag1', 'tag5'}", "NONE tags == 'tag0'",
        "attrs['color'] == 4", "ANY attrs.@values > 7", "ANY attrs.@keys == 'rank'", "attrs.@count == 0",
        "value == 3", "value.@type == 'list'", "value[0] == 1", "next.id > 500", "next.next.id < 100",
        "ANY friends.id < 50", "friends.@count > 1", "@links.Item.friends.@count > 0", "followers.@count >= 1",
        "ANY followers.tags == 'tag2'", "id > 300 AND ANY tags == 'tag4'",
    ]

    @Test func scansAgreeWithEvaluatingEachObject() throws {
        var rng = SeededGenerator(seed: 7)
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "leaf-cached-\(UUID())", schema: Self.schema))
        try realm.beginWrite()
        let count = 1200  // several leaves
        for id in 0..<count {
            let r = rng.next()
            let tags = (0..<Int(r % 4)).map { Value.string("tag\((r >> (8 * $0)) % 6)") }
            var attrs: [String: Value] = [:]
            for (bit, key) in ["color", "size", "rank"].enumerated() where (r >> (20 + bit)) & 1 == 1 {
                attrs[key] = .int(Int64((r >> (24 + 4 * bit)) % 10))
            }
            let value: Value =
                r % 3 == 0 ? .int(Int64(r % 5)) : r % 3 == 1 ? .list([.int(Int64(r % 2)), .string("x")]) : .null
            try realm.create(
                "Item",
                [
                    "id": .int(Int64(id)), "tags": .list(tags), "attrs": .map(attrs), "value": value,
                ])
        }
        let items = try realm.objects("Item").keys()
        for (index, key) in items.enumerated() {
            let r = rng.next()
            let object = try #require(try realm.object(ofType: "Item", key: key))
            try object.setValue(.link(items[Int(r % UInt64(count))]), forKey: "next")
            if index % 2 == 0 {
                try object.setValue(
                    .list([.link(items[Int((r >> 16) % UInt64(count))]), .link(items[Int((r >> 32) % UInt64(count))])]),
                    forKey: "friends")
            }
        }
        try check(realm, inWrite: true)
        try realm.commitWrite()
        try check(realm, inWrite: false)
    }

    private func check(_ realm: Realm, inWrite: Bool) throws {
        let store = try realm.readView
        let all = try store.keys(classIndex: 0)
        for text in Self.queries {
            let query = try BoundQuery.parse(text, classIndex: 0, schema: Self.schema, arguments: [])
            let expected = try all.filter { try query.matches($0, in: store) }
            let scanned = try realm.objects("Item").filter(text).keys()
            #expect(scanned == expected, "\(text) (in a write: \(inWrite))")
            #expect(
                try realm.objects("Item").filter(text).count == expected.count,
                "\(text) counted (in a write: \(inWrite))")
            #expect(
                !expected.isEmpty || text.contains("@count == 0"), "\(text) matches something, so it tests something")
        }
    }
}
