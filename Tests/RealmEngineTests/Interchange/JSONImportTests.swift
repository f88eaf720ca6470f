import Foundation
import Testing
@testable import RealmEngine

@Suite struct InterchangeJSONImportTests {
    static let schemaJSON = #"""
        [{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "dogs": "Dog[]"}},
         {"name": "Tag", "primaryKey": "label", "properties": {"label": "string"}},
         {"name": "Dog", "properties": {
            "name": {"type": "string", "indexed": true}, "age": "int?", "born": "date?", "tags": "string[]",
            "ok": "bool?", "i8": "int8?", "i16": "int16?", "i32": "int32?", "f": "float?", "d": "double?",
            "photo": "data?", "oid": "objectId?", "u": "uuid?", "owner": "Person?", "friend": "Dog?", "labels": "Tag[]",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}}]
        """#

    let schema: Schema
    let dog: ObjectSchema
    init() throws {
        schema = try Schema(realmJSJSON: Data(Self.schemaJSON.utf8))
        dog = try #require(schema["Dog"])
    }

    func input(_ property: String, _ json: String) throws -> ObjectInput {
        let p = try #require(dog[property])
        return try JSONImport.input(fromJSON: try JSONParser.parse(json), for: p, className: "Dog", schema: schema)
    }

    func expectMismatch(
        _ property: String, _ json: String, mentioning words: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let got = try input(property, json)
            Issue.record("\(property) = \(json) gave \(got)", sourceLocation: sourceLocation)
        } catch let error as RealmError {
            #expect(error.code == "type-mismatch", "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains("Dog.\(property)"), "\(error)", sourceLocation: sourceLocation)
            for word in words {
                #expect(
                    error.description.contains(word), "\(error) should mention \(word)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func readsTheCommandLineContractFile() throws {
        let file = #"""
            {"Person": [{"id": 1, "name": "张三", "dogs": [{"name": "大黄", "age": 1, "born": "2020-01-02T03:04:05.250Z", "tags": ["a", "b"]}]},
                        [2, "李四", [["小白", 3, null, []]]]],
             "Dog": [{"name": "阿黄", "age": 2, "unknown": {"x": 1}}]}
            """#
        let result = try JSONImport.objects(fromJSON: Data(file.utf8), schema: schema)
        #expect(result.map(\.className) == ["Person", "Dog"])
        #expect(result[0].objects.count == 2)
        let born = Timestamp(seconds: 1_577_934_245, nanoseconds: 250_000_000)
        #expect(
            result[0].objects[0]
                == .dictionary([
                    "id": .value(.int(1)), "name": .value(.string("张三")),
                    "dogs": .array([
                        .dictionary([
                            "name": .value(.string("大黄")), "age": .value(.int(1)), "born": .value(.date(born)),
                            "tags": .array([.value(.string("a")), .value(.string("b"))]),
                        ])
                    ]),
                ]))
        #expect(
            result[0].objects[1]
                == .array([
                    .value(.int(2)), .value(.string("李四")),
                    .array([.array([.value(.string("小白")), .value(.int(3)), .value(.null), .array([])])]),
                ]))
        #expect(result[1].objects == [.dictionary(["name": .value(.string("阿黄")), "age": .value(.int(2))])])
    }

    @Test func keepsTheFileOrderOfClasses() throws {
        let file = #"{"Tag": [], "Dog": [], "Person": [], "Tag": [{"label": "x"}]}"#
        let result = try JSONImport.objects(fromJSON: Data(file.utf8), schema: schema)
        #expect(result.map(\.className) == ["Tag", "Dog", "Person", "Tag"])
    }

    @Test func rejectsBadFileShapes() {
        #expect(throws: RealmError.noSuchClass("Cat")) {
            try JSONImport.objects(fromJSON: Data(#"{"Cat": []}"#.utf8), schema: schema)
        }
        #expect(throws: RealmError.self) {
            try JSONImport.objects(fromJSON: Data(#"[{"name": "x"}]"#.utf8), schema: schema)
        }
        #expect(throws: RealmError.self) {
            try JSONImport.objects(fromJSON: Data(#"{"Dog": {"name": "x"}}"#.utf8), schema: schema)
        }
        #expect(throws: RealmError.self) {
            try JSONImport.objects(fromJSON: Data(#"{"Dog": [5]}"#.utf8), schema: schema)
        }
        #expect(throws: RealmError.self) { try JSONImport.objects(fromJSON: Data("{".utf8), schema: schema) }
        // More values than stored properties.
        #expect(throws: RealmError.self) {
            try JSONImport.objects(fromJSON: Data(#"{"Tag": [["a", "b"]]}"#.utf8), schema: schema)
        }
    }

    @Test func skipsComputedProperties() throws {
        let result = try JSONImport.objectInput(
            fromJSON: try JSONParser.parse(#"{"name": "x", "owners": [1, 2]}"#), objectSchema: dog, schema: schema)
        #expect(result == .dictionary(["name": .value(.string("x"))]))
    }

    @Test func scalars() throws {
        #expect(try input("name", #""Rex""#) == .value(.string("Rex")))
        #expect(try input("age", "42") == .value(.int(42)))
        #expect(try input("age", "4.0") == .value(.int(4)))
        #expect(try input("age", "9223372036854775807") == .value(.int(.max)))
        #expect(try input("age", "null") == .value(.null))
        #expect(try input("ok", "true") == .value(.bool(true)))
        #expect(try input("ok", "false") == .value(.bool(false)))
        #expect(try input("i8", "-128") == .value(.int(-128)))
        #expect(try input("i16", "32767") == .value(.int(32767)))
        #expect(try input("i32", "-2147483648") == .value(.int(-2_147_483_648)))
        #expect(try input("f", "1.5") == .value(.float(1.5)))
        #expect(try input("f", "3") == .value(.float(3)))
        #expect(try input("d", "0.1") == .value(.double(0.1)))
        #expect(try input("d", "-1e300") == .value(.double(-1e300)))
        #expect(try input("d", #""inf""#) == .value(.double(.infinity)))
        #expect(try input("d", #""-inf""#) == .value(.double(-.infinity)))
        if case .value(.double(let d)) = try input("d", #""nan""#) { #expect(d.isNaN) } else { Issue.record("nan") }
        #expect(try input("photo", #""AQID""#) == .value(.data(Data([1, 2, 3]))))
        #expect(try input("photo", #""""#) == .value(.data(Data())))
        #expect(try input("photo", "[1, 100, 255, 0]") == .value(.data(Data([1, 100, 255, 0]))))
        let oid = ObjectId("6001c033600510df3bbfd864")
        #expect(try input("oid", #""6001c033600510df3bbfd864""#) == .value(.objectId(oid)))
        let uuid = try #require(UUID(uuidString: "d1b186e1-e9e0-4768-a1a7-c492519d47ee"))
        #expect(try input("u", #""d1b186e1-e9e0-4768-a1a7-c492519d47ee""#) == .value(.uuid(uuid)))
        #expect(try input("u", #""D1B186E1-E9E0-4768-A1A7-C492519D47EE""#) == .value(.uuid(uuid)))
    }

    @Test func dates() throws {
        #expect(
            try input("born", #""2020-01-02T03:04:05.123456789Z""#)
                == .value(.date(Timestamp(seconds: 1_577_934_245, nanoseconds: 123_456_789))))
        #expect(try input("born", #""2020-01-02T04:04:05+01:00""#) == .value(.date(Timestamp(seconds: 1_577_934_245))))
        #expect(try input("born", #""2020-01-02""#) == .value(.date(Timestamp(seconds: 1_577_923_200))))
        #expect(try input("born", "10001") == .value(.date(Timestamp(seconds: 10, nanoseconds: 1_000_000))))
        #expect(try input("born", "-1") == .value(.date(Timestamp(seconds: -1, nanoseconds: 999_000_000))))
        #expect(try input("born", "1.5") == .value(.date(Timestamp(seconds: 0, nanoseconds: 1_500_000))))
        expectMismatch("born", #""yesterday""#, mentioning: ["ISO 8601", "yesterday"])
        expectMismatch("born", #""2020-13-01T00:00:00Z""#)
        expectMismatch("born", "true")
        expectMismatch("born", "1e300")
    }

    @Test func boolsAreNotNumbers() {
        expectMismatch("ok", "1", mentioning: ["true or false"])
        expectMismatch("ok", "0")
        expectMismatch("ok", #""true""#)
        expectMismatch("age", "true", mentioning: ["whole number"])
        expectMismatch("d", "false")
        expectMismatch("f", "true")
    }

    @Test func integersAreRangeChecked() {
        expectMismatch("i8", "128", mentioning: ["int8", "-128...127", "128"])
        expectMismatch("i8", "-129")
        expectMismatch("i16", "32768", mentioning: ["int16"])
        expectMismatch("i32", "2147483648", mentioning: ["int32"])
        expectMismatch("age", "9223372036854775808")
        expectMismatch("age", "4.5")
        expectMismatch("age", #""4""#)
        expectMismatch("f", "1e39", mentioning: ["float range"])
        expectMismatch("d", "1e400")
    }

    @Test func otherWrongTypes() {
        expectMismatch("name", "5", mentioning: ["5"])
        expectMismatch("name", #"{"a": 1}"#)
        expectMismatch("photo", #""not base64!""#, mentioning: ["base64"])
        expectMismatch("photo", "[1, 256]")
        expectMismatch("photo", "[true]")
        expectMismatch("oid", #""xyz""#, mentioning: ["hexadecimal"])
        expectMismatch("oid", #""6001c033600510df3bbfd86g""#)
        expectMismatch("u", #""not-a-uuid""#)
        expectMismatch("tags", #""a""#, mentioning: ["array"])
        expectMismatch("tags", "[1]", mentioning: ["tags[0]"])
        expectMismatch("tags", #"["a", null]"#, mentioning: ["tags[1]"])
        expectMismatch("labels", #"[null]"#, mentioning: ["labels[0]"])
    }

    @Test func lists() throws {
        #expect(try input("tags", #"["a", "b"]"#) == .array([.value(.string("a")), .value(.string("b"))]))
        #expect(try input("tags", "[]") == .array([]))
        #expect(try input("tags", "null") == .value(.null))
        #expect(
            try input("labels", #"["x", {"label": "y"}, ["z"]]"#)
                == .array([
                    .primaryKey(.string("x")), .dictionary(["label": .value(.string("y"))]),
                    .array([.value(.string("z"))]),
                ]))
    }

    @Test func links() throws {
        // An object: nested create (or upsert) of the target.
        #expect(
            try input("owner", #"{"id": 7, "name": "王五"}"#)
                == .dictionary(["id": .value(.int(7)), "name": .value(.string("王五"))]))
        // An array: the target's properties in order.
        #expect(try input("owner", #"[7, "王五", []]"#) == .array([.value(.int(7)), .value(.string("王五")), .array([])]))
        // A scalar: the primary key of an existing target, typed by the key.
        #expect(try input("owner", "7") == .primaryKey(.int(7)))
        #expect(try input("owner", "null") == .value(.null))
        // Nested two levels deep, through a list.
        #expect(
            try input("owner", #"{"id": 1, "dogs": [{"name": "a", "owner": 2}]}"#)
                == .dictionary([
                    "id": .value(.int(1)),
                    "dogs": .array([.dictionary(["name": .value(.string("a")), "owner": .primaryKey(.int(2))])]),
                ]))
        // No primary key on Dog: a scalar cannot name one.
        expectMismatch("friend", "3", mentioning: ["no primary key"])
        // Wrong key type.
        expectMismatch("owner", #""seven""#, mentioning: ["primary key"])
        expectMismatch("owner", "true")
    }

    @Test func valuesWithoutTheEngine() throws {
        let p = try #require(dog["tags"])
        #expect(
            try JSONImport.value(fromJSON: try JSONParser.parse(#"["a"]"#), for: p, className: "Dog")
                == .list([.string("a")]))
        let age = try #require(dog["age"])
        #expect(try JSONImport.value(fromJSON: .number("3"), for: age, className: "Dog") == .int(3))
        let owner = try #require(dog["owner"])
        #expect(throws: RealmError.self) { try JSONImport.value(fromJSON: .number("3"), for: owner, className: "Dog") }
        #expect(try JSONImport.value(fromJSON: .null, for: owner, className: "Dog") == .null)
    }

    @Test func assignments() throws {
        func set(_ text: String) throws -> (String, ObjectInput) {
            let r = try JSONImport.assignment(text, objectSchema: dog, schema: schema)
            return (r.property.name, r.input)
        }
        #expect(try set("age=4") == ("age", .value(.int(4))))
        #expect(try set(#"name="x""#) == ("name", .value(.string("x"))))
        #expect(try set(#"name="a=b""#) == ("name", .value(.string("a=b"))))
        #expect(try set(#"born="2020-01-01T00:00:00Z""#) == ("born", .value(.date(Timestamp(seconds: 1_577_836_800)))))
        #expect(try set("age=null") == ("age", .value(.null)))
        #expect(try set("owner=1") == ("owner", .primaryKey(.int(1))))
        #expect(try set(#"tags=["a"]"#) == ("tags", .array([.value(.string("a"))])))
        #expect(throws: RealmError.self) { try set("age") }
        #expect(throws: RealmError.self) { try set("age=") }
        #expect(throws: RealmError.self) { try set("age=\"x\"") }
        #expect(throws: RealmError.self) { try set("owners=[]") }
        // The one value syntax: bare text is the string; JSON quotes spell "null" and the like.
        #expect(try set("name=Rex") == ("name", .value(.string("Rex"))))
        #expect(try set(#"name="null""#) == ("name", .value(.string("null"))))
        #expect(try set("name=42") == ("name", .value(.string("42"))))
        #expect(try set("born=2020-01-01") == ("born", .value(.date(Timestamp(seconds: 1_577_836_800)))))
        #expect(try set("born=1577836800000") == ("born", .value(.date(Timestamp(seconds: 1_577_836_800)))))
        do {
            _ = try set("nmae=1")
            Issue.record("unknown property accepted")
        } catch let error as RealmError {
            #expect(error.code == "no-such-property")
            #expect(error.description.contains("age"))
        }
    }

    @Test func queryArguments() throws {
        #expect(try JSONImport.queryArgument("4") == .int(4))
        #expect(try JSONImport.queryArgument("-4") == .int(-4))
        #expect(try JSONImport.queryArgument("4.5") == .double(4.5))
        #expect(try JSONImport.queryArgument("1e2") == .double(100))
        #expect(try JSONImport.queryArgument("99999999999999999999") == .double(1e20))
        #expect(try JSONImport.queryArgument(#""Rex""#) == .string("Rex"))
        #expect(try JSONImport.queryArgument("true") == .bool(true))
        #expect(try JSONImport.queryArgument("null") == .null)
        #expect(
            try JSONImport.queryArgument(#"[1, "a", [false]]"#)
                == .list([.int(1), .string("a"), .list([.bool(false)])]))
        #expect(
            try JSONImport.queryArgument(#"{"$date": "2020-01-01T00:00:00.5Z"}"#)
                == .date(Timestamp(seconds: 1_577_836_800, nanoseconds: 500_000_000)))
        #expect(try JSONImport.queryArgument(#"{"$date": 1000}"#) == .date(Timestamp(seconds: 1)))
        #expect(try JSONImport.queryArgument(#"{"$date": {"$numberLong": "-1000"}}"#) == .date(Timestamp(seconds: -1)))
        #expect(
            try JSONImport.queryArgument(#"{"$oid": "6001c033600510df3bbfd864"}"#)
                == .objectId(ObjectId("6001c033600510df3bbfd864")))
        #expect(
            try JSONImport.queryArgument(#"{"$uuid": "d1b186e1-e9e0-4768-a1a7-c492519d47ee"}"#)
                == .uuid(try #require(UUID(uuidString: "d1b186e1-e9e0-4768-a1a7-c492519d47ee"))))
        #expect(try JSONImport.queryArgument(#"{"$binary": "AQI="}"#) == .data(Data([1, 2])))
        #expect(
            try JSONImport.queryArgument(#"{"$binary": {"base64": "AQI=", "subType": "00"}}"#) == .data(Data([1, 2])))
        #expect(try JSONImport.queryArgument(#"{"$numberLong": "12"}"#) == .int(12))
        if case .double(let d) = try JSONImport.queryArgument(#"{"$numberDouble": "NaN"}"#) {
            #expect(d.isNaN)
        } else {
            Issue.record("NaN")
        }
        // Text that is not JSON is a string (the property it meets decides its type).
        #expect(try JSONImport.queryArgument("Rex") == .string("Rex"))
        #expect(try JSONImport.queryArgument("2020-01-01") == .string("2020-01-01"))
        #expect(throws: RealmError.self) { try JSONImport.queryArgument(#"{"a": 1}"#) }
        #expect(throws: RealmError.self) { try JSONImport.queryArgument(#"{"$date": "soon"}"#) }
        #expect(throws: RealmError.self) { try JSONImport.queryArgument(#"{"$oid": 1}"#) }
        #expect(throws: RealmError.self) { try JSONImport.queryArgument("1e999") }
    }
}
