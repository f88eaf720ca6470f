import Foundation
@testable import RealmCoreFormat
import RealmEngine
import Testing

/// A Realm Core file converted into this engine: every kept value equals what the reader reads
/// (which equals Realm Core's own dump), keys and links stay, primary keys and indexes answer,
/// and what is left out is listed.
@Suite struct CoreConversionTests {
    static func convert(_ name: String) throws -> (RealmCoreFile, RealmCoreConversion, Realm) {
        let file = try CoreDumpConformanceTests.open(CoreFixtures.url(name))
        var conversion = try RealmCoreConversion(file: file)
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "conversion-\(UUID().uuidString)", schema: conversion.schema))
        try realm.write { try conversion.copy(into: realm) }
        return (file, conversion, realm)
    }

    /// Every object of every converted class, value for value against the reader.
    static func expectSameContent(_ file: RealmCoreFile, _ conversion: RealmCoreConversion, _ realm: Realm) throws {
        for objectSchema in conversion.schema.objectSchemas {
            let table = try #require(file.table(named: "class_" + objectSchema.name))
            // An embedded class is not listed on its own (each object is found by its key below).
            if !objectSchema.isEmbedded {
                #expect(
                    try realm.objects(objectSchema.name).checkedCount() == table.objectCount,
                    "\(objectSchema.name) count")
            }
            var compared = 0
            try table.forEachObject { object in
                guard let converted = try? realm.object(ofType: objectSchema.name, key: ObjectKey(object.key)) else {
                    Issue.record("\(objectSchema.name) object \(object.key) is missing")
                    return false
                }
                for property in objectSchema.properties {
                    guard let position = table.columns.firstIndex(where: { $0.name == property.name }) else { continue }
                    let expected = try conversion.value(object.values[position], for: property, in: objectSchema.name)
                    let actual = try converted.value(forKey: property.name)
                    #expect(
                        Value.identical(actual, expected),
                        "\(objectSchema.name)[\(object.key)].\(property.name): \(actual) ≠ \(expected)")
                }
                compared += 1
                return true
            }
            #expect(compared == table.objectCount)
        }
    }

    @Test func dogsConvertWithKeysLinksAndPrimaryKeys() throws {
        let (file, conversion, realm) = try Self.convert("generated-dogs.realm")
        #expect(conversion.omissions.isEmpty, "\(conversion.omissions)")
        #expect(conversion.schema.classNames.sorted() == ["Dog", "Person"])
        try Self.expectSameContent(file, conversion, realm)
        // The primary key is indexed and answers; links reach the same objects as in the file.
        let person = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(3)))
        let dogs = try person.list(forKey: "dogs")
        #expect(dogs.count > 0)
        // Backlinks were computed from the links: every dog is in exactly one person's list.
        let listed = try realm.objects("Dog").filter("@links.Person.dogs.@count == 1").checkedCount()
        #expect(listed == 750)
        #expect(try realm.objects("Person").filter("ANY dogs.name BEGINSWITH 'ポチ'").checkedCount() > 0)
    }

    @Test func historyWithDeletedObjectsKeepsItsKeys() throws {
        let (file, conversion, realm) = try Self.convert("generated-history.realm")
        try Self.expectSameContent(file, conversion, realm)
        #expect(try realm.objects("Item").checkedCount() == 1750)
    }

    @Test func allTypesKeepsWhatThisEngineHoldsAndListsTheRest() throws {
        let (file, conversion, realm) = try Self.convert("generated-alltypes.realm")
        try Self.expectSameContent(file, conversion, realm)
        let omitted = Set(conversion.omissions.map(\.description))
        #expect(!omitted.contains { $0.contains("mixed") }, "\(omitted.sorted())")
        #expect(
            !omitted.contains { $0.hasPrefix("AllTypes.intSet") || $0.hasPrefix("AllTypes.intDict") },
            "\(omitted.sorted())")
        // Embedded classes and the links to them are kept (CoreEmbeddedConversionTests).
        #expect(omitted.isEmpty, "\(omitted.sorted())")
        #expect(
            conversion.schema["Embedded"]?.isEmbedded == true && conversion.schema["EmbeddedChild"]?.isEmbedded == true)
        // Kept: every scalar type, lists, sets and dictionaries of each, links, link lists, sets and dictionaries.
        let kept = Set(try #require(conversion.schema["AllTypes"]).properties.map(\.name))
        for name in [
            "intCol", "optDecimalCol", "uuidList", "optDateList", "objectCol", "objectList", "indexedString",
            "intSet", "optStringSet", "decimalSet", "objectSet", "intDict", "optUuidDict", "objectDict",
            "embeddedObj", "embeddedList", "embeddedDict",
        ] {
            #expect(kept.contains(name), "\(name) was left out")
        }
        // Through the index (objects 0 and 3 hold it), and the same answer by a scan.
        #expect(
            try realm.objects("AllTypes").filter("indexedString == 'indexed 0'").keys() == [ObjectKey(0), ObjectKey(3)])
        #expect(
            try realm.objects("AllTypes").filter("indexedString ==[c] 'INDEXED 0'").keys() == [
                ObjectKey(0), ObjectKey(3),
            ])
    }
}

/// The converted sets and dictionaries of alltypes against Realm Core's own JSON dump of the
/// file (not against the reader): each set holds the dump's elements (in this engine's order,
/// which is Core's but for where a NaN stands), each dictionary the dump's entries.
@Suite struct CoreSetDictionaryConversionTests {
    @Test func setsAndDictionariesEqualRealmCoresDump() throws {
        let (_, conversion, realm) = try CoreConversionTests.convert("generated-alltypes.realm")
        let dump = try CoreJSONCompare.parse(
            try CoreJSONCompare.readJSON(CoreFixtures.url("generated-alltypes.json.gz")))
        let tables = try #require((dump as? [String: Any])?["tables"] as? [[String: Any]])
        let table = try #require(tables.first { $0["name"] as? String == "class_AllTypes" })
        let objects = try #require(table["objects"] as? [[String: Any]])
        let schema = try #require(conversion.schema["AllTypes"])
        // Mixed: CoreMixedConversionTests; dictionaries of embedded objects: CoreEmbeddedConversionTests.
        let collections = schema.properties.filter {
            ($0.isSet || $0.isMap) && $0.type != .mixed && $0.objectClassName != "Embedded"
        }
        #expect(collections.count >= 24, "\(collections.map(\.name))")
        var compared = 0
        for object in objects {
            let key = try #require(object["_key"] as? Int64)
            let fields = try #require(object["fields"] as? [String: Any])
            let converted = try #require(try realm.object(ofType: "AllTypes", key: ObjectKey(key)))
            for property in collections {
                let actual = try converted.value(forKey: property.name)
                let expected: Value
                if property.isSet {
                    let items = try #require(fields[property.name] as? [Any], "\(property.name)")
                    let values = try items.map { try Self.value($0, property.type) }
                    expected = .list(SetElements.normalized(values))
                    #expect(
                        values.count == (try? converted.set(forKey: property.name).count()),
                        "\(property.name)[\(key)] lost an element")
                } else {
                    let entries = try #require(fields[property.name] as? [String: Any], "\(property.name)")
                    expected = .map(try entries.mapValues { try Self.value($0, property.type) })
                }
                #expect(Self.same(actual, expected), "AllTypes[\(key)].\(property.name): \(actual) ≠ \(expected)")
                compared += 1
            }
        }
        #expect(compared == objects.count * collections.count)
        // The converted file holds together: sets sorted and unique, backlinks from sets and dictionaries of links.
        #expect(try realm.checkIntegrity().objects["AllTypes"] == objects.count)
        let withLinks = objects.filter { (($0["fields"] as? [String: Any])?["objectSet"] as? [Any])?.isEmpty == false }
            .count
        #expect(try realm.objects("AllTypes").filter("objectSet.@count > 0").checkedCount() == withLinks)
        #expect(try realm.objects("AllTypes").filter("objectDict.@count > 0").checkedCount() > 0)
    }

    /// Identical, but for the sign of a zero, which the dump's JSON numbers do not keep.
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.isNaN ? y.isNaN : x == y
        case (.float(let x), .float(let y)): return x.isNaN ? y.isNaN : x == y
        case (.list(let x), .list(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.map(let x), .map(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
        default: return a.isIdentical(to: b)
        }
    }

    /// A value of Realm Core's JSON dump as this engine's value of `type`.
    static func value(_ json: Any, _ type: PropertyType) throws -> Value {
        struct Unreadable: Error { let json: String }
        if json is NSNull { return .null }
        switch type {
        case .int: if let n = json as? NSNumber { return .int(n.int64Value) }
        case .bool: if let b = json as? Bool { return .bool(b) }
        case .float, .double:
            var d: Double?
            if let n = json as? NSNumber { d = n.doubleValue }
            if let s = json as? String {
                d =
                    [
                        "NaN": .nan, "inf": .infinity, "-inf": -.infinity, "Infinity": .infinity,
                        "-Infinity": -.infinity,
                    ][s]
            }
            if let d { return type == .float ? .float(Float(d)) : .double(d) }
        case .string: if let s = json as? String { return .string(s) }
        case .data: if let s = json as? String, let d = Data(base64Encoded: s) { return .data(d) }
        case .date:
            if let t = json as? [String: Any], let s = (t["seconds"] as? NSNumber)?.int64Value,
                let n = (t["nanoseconds"] as? NSNumber)?.int32Value
            {
                return .date(Timestamp(seconds: s, nanoseconds: n))
            }
        case .decimal128:
            if let t = json as? [String: Any], let hex = t["bid128"] as? String, hex.count == 32,
                let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16)
            {
                return .decimal128(Decimal128(low: low, high: high))
            }
        case .objectId: if let s = json as? String, let id = ObjectId(parsing: s) { return .objectId(id) }
        case .uuid: if let s = json as? String, let u = UUID(uuidString: s) { return .uuid(u) }
        case .object:
            if let t = json as? [String: Any], let k = (t["key"] as? NSNumber)?.int64Value {
                return .link(ObjectKey(k))
            }
        default: break
        }
        throw Unreadable(json: "\(json)".prefix(100).description)
    }
}

/// The conversion's value mapping, reached for the comparison (the same function the copy uses).
enum RealmCoreConversionProbe {
    static func value(_ value: CoreValue, for property: Property, in className: String) throws -> Value {
        try RealmCoreConversion.value(value, for: property, in: className)
    }
}
