import Foundation
import Testing
@testable import RealmEngine

@Suite struct InterchangeRealmJSSchemaTests {
    static let dogsJSON = #"""
        [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "dogs": "Dog[]"}},
         {"name": "Dog", "primaryKey": "id", "properties": {
            "id": "int",
            "name": {"type": "string", "indexed": true, "optional": true, "default": "Rex"},
            "age": "int?", "weight": "double", "small": "int8", "mid": "int16", "big": "int32", "huge": "int64",
            "f": "float?", "ok": "bool", "born": "date?", "photo": "data?", "oid": "objectId", "u": "uuid?",
            "owner": "Person?", "boss": "Person", "tags": "string[]", "scores": "int?[]", "friends": "Dog[]",
            "longLink": {"type": "object", "objectType": "Person"},
            "longList": {"type": "list", "objectType": "string"},
            "longLinks": {"type": "list", "objectType": "Dog"},
            "when": {"type": "date", "default": "2020-01-02T03:04:05.5Z"},
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}}]
        """#

    func schema() throws -> Schema { try Schema(realmJSJSON: Data(Self.dogsJSON.utf8)) }

    @Test func readsEveryForm() throws {
        let s = try schema()
        #expect(s.classNames == ["Person", "Dog"])
        let dog = try #require(s["Dog"])
        #expect(
            dog.properties.map(\.name) == [
                "id", "name", "age", "weight", "small", "mid", "big", "huge", "f", "ok", "born",
                "photo", "oid", "u", "owner", "boss", "tags", "scores", "friends", "longLink",
                "longList", "longLinks", "when", "owners",
            ])
        #expect(dog.primaryKeyProperty?.name == "id")
        let name = try #require(dog["name"])
        #expect(name.type == .string && name.isOptional && name.isIndexed && name.defaultValue == .string("Rex"))
        #expect(dog["age"]?.isOptional == true && dog["age"]?.type == .int)
        #expect(dog["huge"]?.type == .int)
        #expect(dog["small"]?.type == .int8 && dog["mid"]?.type == .int16 && dog["big"]?.type == .int32)
        #expect(
            dog["owner"]?.isLink == true && dog["owner"]?.objectClassName == "Person"
                && dog["owner"]?.isOptional == true)
        #expect(dog["boss"]?.isOptional == true)  // to-one links are always optional
        #expect(dog["tags"]?.isList == true && dog["tags"]?.type == .string && dog["tags"]?.isOptional == false)
        #expect(dog["scores"]?.isList == true && dog["scores"]?.isOptional == true)
        #expect(dog["friends"]?.isList == true && dog["friends"]?.objectClassName == "Dog")
        #expect(dog["longLink"]?.isLink == true && dog["longLink"]?.isList == false)
        #expect(dog["longList"]?.isList == true && dog["longList"]?.type == .string)
        #expect(dog["longLinks"]?.isList == true && dog["longLinks"]?.isLink == true)
        #expect(dog["when"]?.defaultValue == .date(Timestamp(seconds: 1_577_934_245, nanoseconds: 500_000_000)))
        let owners = try #require(dog["owners"])
        #expect(
            owners.type == .linkingObjects && owners.objectClassName == "Person"
                && owners.linkOriginPropertyName == "dogs")
    }

    @Test func roundTrips() throws {
        let s = try schema()
        let out = try s.realmJSJSON()
        let again = try Schema(realmJSJSON: out)
        #expect(again == s)
        #expect(try again.realmJSJSON() == out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains(#""age": "int?""#))
        #expect(text.contains(#""friends": "Dog[]""#))
        #expect(text.contains(#""owner": "Person?""#))
    }

    @Test func readsTheArrayFormOfProperties() throws {
        let json = #"""
            [{"name": "IntObject", "primaryKey": "intCol", "properties": [{"name": "intCol", "type": "int"}]},
             {"name": "LinkObject", "properties": [
                {"name": "linkCol", "type": "object", "objectType": "IntObject"},
                {"name": "list", "type": "IntObject[]"},
                {"name": "maybe", "type": "double", "optional": true},
                {"name": "d", "type": "date?"},
                {"name": "s", "type": "string", "indexed": true}]}]
            """#
        let s = try Schema(realmJSJSON: Data(json.utf8))
        let link = try #require(s["LinkObject"])
        #expect(link.properties.map(\.name) == ["linkCol", "list", "maybe", "d", "s"])
        #expect(link["linkCol"]?.objectClassName == "IntObject")
        #expect(link["list"]?.isList == true)
        #expect(link["maybe"]?.isOptional == true && link["d"]?.isOptional == true && link["s"]?.isIndexed == true)
        #expect(s["IntObject"]?.primaryKeyProperty?.name == "intCol")
        #expect(try Schema(realmJSJSON: s.realmJSJSON()) == s)
    }

    @Test func acceptsTheConfigurationWrapper() throws {
        let s = try Schema(realmJSJSON: Data(#"{"schema": [{"name": "A", "properties": {"x": "int"}}]}"#.utf8))
        #expect(s.classNames == ["A"])
    }

    /// Every schema of realm-js's query tests reads.
    @Test(.enabled(if: ConformanceRunner.isPresent, "../shared/conformance/query-tests.json is absent"))
    func readsEveryConformanceSchema() throws {
        let data = try Data(contentsOf: ConformanceRunner.fileURL)
        let suites = try JSONParser.parse(data)
        for suite in suites.objectMembers ?? [] {
            let schemaJSON = try #require(suite.value.member("schema"))
            let schema = try Schema(realmJS: schemaJSON)
            #expect(try Schema(realmJSJSON: schema.realmJSJSON()) == schema, "\(suite.key)")
            // And every object of the suite converts.
            for object in suite.value.member("objects")?.arrayValue ?? [] {
                let className = try #require(object.member("type")?.stringValue)
                let objectSchema = try #require(schema[className])
                _ = try JSONImport.objectInput(
                    fromJSON: try #require(object.member("value")), objectSchema: objectSchema, schema: schema)
            }
        }
    }

    func expectSchemaError(
        _ json: String, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try Schema(realmJSJSON: Data(json.utf8))
            Issue.record("no error for \(json)", sourceLocation: sourceLocation)
        } catch let error as RealmError {
            for word in words {
                #expect(
                    error.description.contains(word), "\(error) should mention \(word)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// realm-js's `decimal128` (and its alias `decimal`), required, optional and in lists.
    @Test func decimal128PropertiesRead() throws {
        let schema = try Schema(
            realmJSJSON: Data(
                #"[{"name": "Item", "properties": {"price": "decimal128", "discount": "decimal128?", "history": "decimal128[]", "alias": "decimal"}}]"#
                    .utf8))
        let item = try #require(schema["Item"])
        #expect(item["price"]?.type == .decimal128 && item["price"]?.isOptional == false)
        #expect(item["discount"]?.type == .decimal128 && item["discount"]?.isOptional == true)
        #expect(item["history"]?.type == .decimal128 && item["history"]?.isList == true)
        #expect(item["alias"]?.type == .decimal128)
        #expect(item["price"]?.typeDescription == "decimal128")
    }

    /// realm-js's sets (`X<>`) and dictionaries (`X{}`), short and long forms, of values and of
    /// objects, read and written back the same.
    @Test func setsAndDictionariesReadAndRoundTrip() throws {
        let json =
            #"[{"name": "Item", "properties": {"tags": "string<>", "maybe": "int?<>", "friends": "Item<>", "attrs": "string{}", "counts": "int?{}", "pets": "Item{}", "long": {"type": "set", "objectType": "date"}, "longMap": {"type": "dictionary", "objectType": "Item"}, "optionalPets": "Item?{}"}}]"#
        let schema = try Schema(realmJSJSON: Data(json.utf8))
        let item = try #require(schema["Item"])
        #expect(item["tags"]?.isSet == true && item["tags"]?.type == .string && item["tags"]?.isOptional == false)
        #expect(item["maybe"]?.isSet == true && item["maybe"]?.isOptional == true)
        #expect(
            item["friends"]?.isSet == true && item["friends"]?.type == .object && item["friends"]?.isOptional == false)
        #expect(item["attrs"]?.isMap == true && item["attrs"]?.isList == false && item["attrs"]?.type == .string)
        #expect(item["counts"]?.isMap == true && item["counts"]?.isOptional == true)
        #expect(
            item["pets"]?.isMap == true && item["pets"]?.objectClassName == "Item" && item["pets"]?.isOptional == true)
        #expect(item["long"]?.isSet == true && item["long"]?.type == .date)
        #expect(item["longMap"]?.isMap == true && item["longMap"]?.type == .object)
        #expect(
            item["optionalPets"]
                == item["pets"].map { p in
                    var q = p
                    q.name = "optionalPets"
                    return q
                })
        #expect(
            item.properties.map(\.typeDescription) == [
                "string<>", "int?<>", "Item<>", "string{}", "int?{}", "Item{}", "date<>", "Item{}", "Item{}",
            ])
        let back = try Schema(realmJSJSON: try schema.realmJSJSON())
        #expect(back == schema)
    }

    @Test func errorsNameTheClassAndProperty() {
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"age": "integer"}}]"#, mentioning: ["Dog.age", "unknown type", "integer"])
        expectSchemaError(#"[{"name": "Dog", "properties": {"owner": "Persn?"}}]"#, mentioning: ["Dog.owner", "Persn"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"s": "string<>[]"}}]"#,
            mentioning: ["Dog.s", "collection of collections"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"s": "Dog?<>"}}]"#, mentioning: ["Dog.s", "set of objects"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"s": "int<>", "x": {"type": "int<>", "primaryKey": true}}}]"#,
            mentioning: ["Dog.x", "primary key"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"o": {"type": "object"}}}]"#, mentioning: ["Dog.o", "objectType"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"o": {"type": "object", "objectType": "int"}}}]"#, mentioning: ["Dog.o"])
        expectSchemaError(#"[{"name": "Dog", "properties": {"o": {"indexed": true}}}]"#, mentioning: ["Dog.o", "type"])
        expectSchemaError(#"[{"name": "Dog", "properties": {"o": 5}}]"#, mentioning: ["Dog.o"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"o": {"type": "int", "indexed": "yes"}}}]"#,
            mentioning: ["Dog.o", "indexed"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"o": {"type": "string", "indexed": "full-text"}}}]"#,
            mentioning: ["Dog.o", "full-text"])
        expectSchemaError(#"[{"name": "Dog", "properties": {"l": "Dog?[]"}}]"#, mentioning: ["Dog.l"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"x": "int"}}, {"name": "Dog", "properties": {"x": "int"}}]"#,
            mentioning: ["Dog", "twice"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"x": "int", "x": "string"}}]"#, mentioning: ["Dog.x", "twice"])
        expectSchemaError(#"[{"properties": {"x": "int"}}]"#, mentioning: ["name"])
        expectSchemaError(#"[{"name": "Dog"}]"#, mentioning: ["Dog", "properties"])
        expectSchemaError(#"{"name": "Dog"}"#, mentioning: ["array"])
        expectSchemaError("[{", mentioning: ["JSON"])
    }

    @Test func rejectsBadNamesAndKeys() {
        let long = String(repeating: "a", count: 64)
        expectSchemaError(#"[{"name": "\#(long)", "properties": {"x": "int"}}]"#, mentioning: ["63"])
        expectSchemaError(#"[{"name": "Dog", "properties": {"\#(long)": "int"}}]"#, mentioning: ["63"])
        expectSchemaError(#"[{"name": "", "properties": {"x": "int"}}]"#, mentioning: ["empty"])
        expectSchemaError(
            #"[{"name": "Dog", "primaryKey": "idd", "properties": {"id": "int"}}]"#, mentioning: ["Dog", "idd"])
        expectSchemaError(
            #"[{"name": "Dog", "primaryKey": "w", "properties": {"w": "double"}}]"#,
            mentioning: ["Dog.w", "primary key"])
        expectSchemaError(
            #"[{"name": "Dog", "primaryKey": 3, "properties": {"w": "int"}}]"#, mentioning: ["Dog", "primaryKey"])
        expectSchemaError(
            #"[{"name": "Dog", "primaryKey": "a", "properties": {"a": "int", "b": {"type": "string", "primaryKey": true}}}]"#,
            mentioning: ["Dog", "more than one primary key"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"w": {"type": "double", "indexed": true}}}]"#,
            mentioning: ["Dog.w", "indexed"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"o": {"type": "linkingObjects", "objectType": "Dog", "property": "nope"}}}]"#,
            mentioning: ["Dog.o"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"o": {"type": "linkingObjects", "objectType": "Dog"}}}]"#,
            mentioning: ["Dog.o", "property"])
    }

    @Test func rejectsBadDefaults() {
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"a": {"type": "int", "default": "x"}}}]"#, mentioning: ["Dog.a", "int"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"a": {"type": "int8", "default": 300}}}]"#, mentioning: ["Dog.a", "int8"])
        expectSchemaError(
            #"[{"name": "Dog", "properties": {"a": {"type": "date", "default": "yesterday"}}}]"#,
            mentioning: ["Dog.a", "date"])
    }

    @Test func writesIndexedAndDefaultsInTheObjectForm() throws {
        let s = Schema([
            ObjectSchema(
                name: "A",
                properties: [
                    Property(name: "id", type: .string, isPrimaryKey: true),
                    Property(name: "n", type: .int, isOptional: true, isIndexed: true, defaultValue: .int(3)),
                    Property(name: "d", type: .data, defaultValue: .data(Data([1, 2]))),
                    Property(name: "f", type: .float, defaultValue: .float(.nan)),
                ])
        ])
        let text = String(decoding: try s.realmJSJSON(pretty: false), as: UTF8.self)
        #expect(
            text
                == #"[{"name":"A","primaryKey":"id","properties":{"id":"string","n":{"type":"int?","indexed":true,"default":3},"d":{"type":"data","default":"AQI="},"f":{"type":"float","default":"nan"}}}]"#
                + "\n")
        let again = try Schema(realmJSJSON: Data(text.utf8))
        #expect(again["A"]?["n"] == s["A"]?["n"])
        #expect(again["A"]?["d"] == s["A"]?["d"])
        if case .float(let f)? = again["A"]?["f"]?.defaultValue {
            #expect(f.isNaN)
        } else {
            Issue.record("nan default lost")
        }
    }
}
