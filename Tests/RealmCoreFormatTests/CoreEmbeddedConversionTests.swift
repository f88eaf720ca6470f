import Foundation
@testable import RealmCoreFormat
@testable import RealmEngine
import Testing

/// The embedded tables of a real Realm file (alltypes: `Embedded` with a string, a double, a
/// list of strings, a link to the top-level `Target` and an embedded `EmbeddedChild`; used by
/// `AllTypes.embeddedObj`, `embeddedList` and `embeddedDict`) converted into this engine's
/// embedded classes, against Realm Core's own JSON dump, which writes each embedded object
/// inline in its parent: every parent holds exactly the objects the dump shows, value for value.
@Suite struct CoreEmbeddedConversionTests {
    struct Unexpected: Error, CustomStringConvertible { var description: String }

    /// Compares `actual` (a value of `property` of a converted object) with the dump's `json`,
    /// embedded objects recursively; returns the number of embedded objects compared.
    static func compare(_ actual: Value, _ json: Any, _ property: Property, in realm: Realm, at place: String) throws
        -> Int
    {
        let schema = realm.schema
        if property.type == .object, let target = property.objectClassName, schema[target]?.isEmbedded == true {
            func one(_ value: Value, _ json: Any, _ place: String) throws -> Int {
                if json is NSNull {
                    #expect(value == .null, "\(place): \(value), the dump has null")
                    return 0
                }
                guard let inline = json as? [String: Any], let key = (inline["_key"] as? NSNumber)?.int64Value,
                    let fields = inline["fields"] as? [String: Any]
                else { throw Unexpected(description: "\(place): \(json)") }
                guard case .link(let k) = value, k == ObjectKey(key) else {
                    Issue.record("\(place): \(value), the dump has \(target) \(key)")
                    return 0
                }
                let object = try #require(
                    try realm.object(ofType: target, key: k), "\(place): \(target) \(key) is missing")
                let objectSchema = try #require(schema[target])
                #expect(
                    Set(fields.keys) == Set(objectSchema.properties.map(\.name)), "\(place): \(fields.keys.sorted())")
                var compared = 1
                for p in objectSchema.properties {
                    compared += try compare(
                        try object.value(forKey: p.name), fields[p.name] ?? NSNull(), p, in: realm,
                        at: "\(place).\(p.name)")
                }
                return compared
            }
            if property.isList {
                guard case .list(let items) = actual, let array = json as? [Any], items.count == array.count else {
                    Issue.record("\(place): \(actual), the dump has \(json)")
                    return 0
                }
                var compared = 0
                for (i, item) in items.enumerated() { compared += try one(item, array[i], "\(place)[\(i)]") }
                return compared
            }
            if property.isMap {
                guard case .map(let entries) = actual, let members = json as? [String: Any],
                    Set(entries.keys) == Set(members.keys)
                else {
                    Issue.record("\(place): \(actual), the dump has \(json)")
                    return 0
                }
                return try members.reduce(0) {
                    $0 + (try one(entries[$1.key] ?? .null, $1.value, "\(place)['\($1.key)']"))
                }
            }
            return try one(actual, json, place)
        }
        let expected: Value
        if property.isList {
            guard let array = json as? [Any] else { throw Unexpected(description: "\(place): \(json)") }
            expected = .list(try array.map { try CoreSetDictionaryConversionTests.value($0, property.type) })
        } else {
            expected = try CoreSetDictionaryConversionTests.value(json, property.type)
        }
        #expect(CoreSetDictionaryConversionTests.same(actual, expected), "\(place): \(actual) ≠ \(expected)")
        return 0
    }

    @Test func embeddedObjectsEqualRealmCoresDump() throws {
        let (file, conversion, realm) = try CoreConversionTests.convert("generated-alltypes.realm")
        // Both embedded tables are embedded classes, with every column.
        let embedded = try #require(conversion.schema["Embedded"])
        let child = try #require(conversion.schema["EmbeddedChild"])
        #expect(embedded.isEmbedded && child.isEmbedded)
        #expect(embedded.properties.map(\.name) == ["label", "num", "child", "tags", "target"])
        #expect(embedded.properties.first { $0.name == "child" }?.objectClassName == "EmbeddedChild")
        #expect(embedded.properties.first { $0.name == "target" }?.objectClassName == "Target")
        #expect(child.properties.map(\.name) == ["depth", "note"])
        #expect(!conversion.omissions.contains { $0.description.contains("mbedded") }, "\(conversion.omissions)")
        let allTypes = try #require(conversion.schema["AllTypes"])
        let owning = allTypes.properties.filter { $0.objectClassName == "Embedded" }
        #expect(owning.map(\.name) == ["embeddedObj", "embeddedList", "embeddedDict"])

        // Every parent's embedded objects, inline in the dump, against the converted ones.
        let dump = try CoreJSONCompare.parse(
            try CoreJSONCompare.readJSON(CoreFixtures.url("generated-alltypes.json.gz")))
        let tables = try #require((dump as? [String: Any])?["tables"] as? [[String: Any]])
        let objects = try #require(
            tables.first { $0["name"] as? String == "class_AllTypes" }?["objects"] as? [[String: Any]])
        var embeddedCompared = 0
        for object in objects {
            let key = try #require((object["_key"] as? NSNumber)?.int64Value)
            let fields = try #require(object["fields"] as? [String: Any])
            let converted = try #require(try realm.object(ofType: "AllTypes", key: ObjectKey(key)))
            for property in owning {
                embeddedCompared += try Self.compare(
                    try converted.value(forKey: property.name), fields[property.name] ?? NSNull(), property,
                    in: realm, at: "AllTypes[\(key)].\(property.name)")
            }
        }
        // Every object of both embedded tables was reached through its parent, once.
        let embeddedCount = try #require(file.table(named: "class_Embedded")).objectCount
        let childCount = try #require(file.table(named: "class_EmbeddedChild")).objectCount
        #expect(embeddedCount == 11 && childCount == 5)
        #expect(embeddedCompared == embeddedCount + childCount)
        try CoreConversionTests.expectSameContent(file, conversion, realm)

        // The converted file holds together (every embedded object has exactly one parent) and
        // answers queries through embedded objects, as Realm Core's parser does.
        let integrity = try realm.checkIntegrity()
        #expect(integrity.warnings.isEmpty, "\(integrity.warnings)")
        #expect(integrity.objects["Embedded"] == embeddedCount)
        let results = try realm.objects("AllTypes")
        #expect(try results.filter("embeddedObj.label == 'embedded of 3'").keys() == [ObjectKey(3)])
        #expect(try results.filter("embeddedObj.child.note == '深い'").keys() == [ObjectKey(3)])
        #expect(try results.filter("embeddedObj.target._id != nil").checkedCount() == 4)
        #expect(try results.filter("ANY embeddedList.child.depth == 3").keys() == [ObjectKey(4)])
        #expect(try results.filter("embeddedList.@count == 3").keys() == [ObjectKey(4)])
        #expect(
            try results.filter("embeddedDict['first'].label == 'dictionary value'").keys() == [
                ObjectKey(3), ObjectKey(4),
            ])
        #expect(throws: RealmError.self) { try realm.objects("Embedded") }
        // Backlinks from embedded objects to the top-level objects they link to.
        #expect(try realm.objects("Target").filter("@links.Embedded.target.@count > 0").checkedCount() == 4)
    }
}
