import Foundation
@testable import RealmCoreFormat
@testable import RealmEngine
import Testing

/// The Mixed columns of a real Realm file (alltypes: `mixedCol` with typed links and
/// collections nested in Mixed, `mixedList`, `mixedSet`, `mixedDict` with a value of every type,
/// `indexedMixed`) converted into this engine's Mixed, against Realm Core's own JSON dump of the
/// file: every value, type for type (an int stays an int, a float a float), links naming the
/// class of their table; the converted file passes the integrity check and answers queries.
@Suite struct CoreMixedConversionTests {
    struct Unreadable: Error { var json: String }

    /// A Mixed value as the dump writes it: `null` or `{"type": T, "value": V}`. Read with the
    /// engine's JSON parser, which keeps each number's text (Foundation's reads `-0` as 0).
    static func mixed(_ json: JSONValue) throws -> Value {
        if case .null = json { return .null }
        guard let type = json.member("type")?.stringValue, let v = json.member("value") else {
            throw Unreadable(json: json.snippet())
        }
        func number() throws -> String {
            switch v {
            case .number(let text): return text
            case .string("NaN"): return "nan"
            case .string("Infinity"): return "inf"
            case .string("-Infinity"): return "-inf"
            default: throw Unreadable(json: v.snippet())
            }
        }
        switch type {
        case "int": if case .number(let text) = v, let i = Int64(text) { return .int(i) }
        case "bool": if let b = v.boolValue { return .bool(b) }
        case "float": if let f = Float(try number()) { return .float(f) }
        case "double": if let d = Double(try number()) { return .double(d) }
        case "string": if let s = v.stringValue { return .string(s) }
        case "binary": if let s = v.stringValue, let d = Data(base64Encoded: s) { return .data(d) }
        case "timestamp":
            if let s = v.member("seconds")?.int64Value, let n = v.member("nanoseconds")?.int64Value,
                let ns = Int32(exactly: n)
            {
                return .date(Timestamp(seconds: s, nanoseconds: ns))
            }
        case "decimal128":
            if let hex = v.member("bid128")?.stringValue, hex.count == 32,
                let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16)
            {
                return .decimal128(Decimal128(low: low, high: high))
            }
        case "object_id": if let s = v.stringValue, let id = ObjectId(parsing: s) { return .objectId(id) }
        case "uuid": if let s = v.stringValue, let u = UUID(uuidString: s) { return .uuid(u) }
        case "typed_link":
            if let table = v.member("table")?.stringValue, let k = v.member("key")?.int64Value {
                return .typedLink(TypedLink(className: String(table.dropFirst("class_".count)), key: ObjectKey(k)))
            }
        case "list": if case .array(let items) = v { return .list(try items.map(mixed)) }
        case "dictionary":
            if case .object(let members) = v {
                return .map(
                    Dictionary(try members.map { ($0.key, try mixed($0.value)) }, uniquingKeysWith: { a, _ in a }))
            }
        default: break
        }
        throw Unreadable(json: json.snippet())
    }

    @Test func mixedColumnsEqualRealmCoresDump() throws {
        let (_, conversion, realm) = try CoreConversionTests.convert("generated-alltypes.realm")
        let schema = try #require(conversion.schema["AllTypes"])
        let mixedProperties = schema.properties.filter { $0.type == .mixed }
        #expect(
            Set(mixedProperties.map(\.typeDescription)) == ["mixed", "mixed[]", "mixed<>", "mixed{}"],
            "\(mixedProperties.map(\.typeDescription))")
        #expect(mixedProperties.count == 5)
        let dump = try JSONParser.parse(try CoreJSONCompare.readJSON(CoreFixtures.url("generated-alltypes.json.gz")))
        guard case .array(let tables)? = dump.member("tables"),
            case .array(let objects)? = tables.first(where: { $0.member("name")?.stringValue == "class_AllTypes" })?
                .member("objects")
        else {
            Issue.record("no AllTypes in the dump")
            return
        }
        var compared = 0
        var links = 0
        var nested = 0
        for object in objects {
            let key = try #require(object.member("_key")?.int64Value)
            let fields = try #require(object.member("fields"))
            let converted = try #require(try realm.object(ofType: "AllTypes", key: ObjectKey(key)))
            for property in mixedProperties {
                let json = try #require(fields.member(property.name), "\(property.name)")
                let expected: Value
                if property.isSet {
                    expected = .list(SetElements.normalized(try #require(json.arrayValue).map(Self.mixed)))
                } else if property.isList {
                    expected = .list(try #require(json.arrayValue).map(Self.mixed))
                } else if property.isMap {
                    expected = try Self.mixed(
                        .object([JSONMember("type", .string("dictionary")), JSONMember("value", json)]))
                } else {
                    expected = try Self.mixed(json)
                }
                let actual = try converted.value(forKey: property.name)
                #expect(
                    actual.isIdentical(to: expected),
                    "AllTypes[\(key)].\(property.name): \(String(describing: actual).prefix(300)) ≠ \(String(describing: expected).prefix(300))"
                )
                links += actual.typedLinks.count
                if case .list(let items) = actual, !property.isCollection, items.contains(where: { $0.mixedDepth > 0 })
                {
                    nested += 1
                }
                compared += 1
            }
        }
        #expect(compared == objects.count * mixedProperties.count)
        #expect(links >= 3 && nested >= 1, "links \(links), nested \(nested)")
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        // The converted values answer queries: a link to Target 1, a nested dictionary, types.
        #expect(try realm.objects("AllTypes").filter("mixedCol.@type == 'link'").checkedCount() >= 1)
        #expect(try realm.objects("AllTypes").filter("mixedCol[3].k == 3.5").checkedCount() == 1)
        #expect(try realm.objects("AllTypes").filter("mixedCol == 'mixed string 混合'").checkedCount() == 1)
    }
}

/// A Realm Core Mixed column with a search index (`indexedMixed`) converts to an indexed Mixed
/// property (before, the index was dropped: Mixed could not be indexed); lookups of each of its
/// values and of numbers of other kinds answer through the index as a scan does.
@Suite struct CoreIndexedMixedConversionTests {
    @Test func anIndexedMixedColumnStaysIndexed() throws {
        let (_, conversion, realm) = try CoreConversionTests.convert("generated-alltypes.realm")
        let property = try #require(conversion.schema["AllTypes"]?.properties.first { $0.name == "indexedMixed" })
        #expect(property.type == .mixed && property.isIndexed)
        let all = try realm.objects("AllTypes")
        var probes: [Value] = [.int(1), .double(1), .string("five"), .null, .float(2.5)]
        for key in try all.keys() {
            probes.append(try #require(try realm.object(ofType: "AllTypes", key: key)).value(forKey: "indexedMixed"))
        }
        #expect(probes.count > 5)
        var found = 0
        for probe in probes {
            let indexed = try all.filter("indexedMixed == $0", probe)
            #expect(indexed.planDescription == "index lookup on indexedMixed")
            // An OR is not answered from the index: a scan.
            let scanned = try all.filter("indexedMixed == $0 OR indexedMixed == $0", probe)
            #expect(scanned.planDescription == "scan AllTypes")
            #expect(try indexed.keys() == scanned.keys(), "\(probe)")
            found += try indexed.keys().count
        }
        #expect(found >= 5)
        _ = try realm.checkIntegrity()
    }
}
