import Foundation
import Testing
@testable import RealmEngine

/// Embedded classes in realm-js's schema JSON: `{"name": "Address", "embedded": true, …}` read
/// into `ObjectSchema.isEmbedded` and written back the same way; Realm's rules as clear errors.
@Suite struct EmbeddedSchemaJSONTests {
    static let json = #"""
        [{"name": "Person", "primaryKey": "name", "properties": {
            "name": "string", "address": "Address", "previous": "Address[]", "places": "Address{}"}},
         {"name": "Address", "embedded": true, "properties": {
            "city": "string", "geo": "Geo?",
            "resident": {"type": "linkingObjects", "objectType": "Person", "property": "address"}}},
         {"name": "Geo", "embedded": true, "properties": {"lat": "double"}}]
        """#

    @Test func readsEmbeddedClasses() throws {
        let schema = try Schema(realmJSJSON: Data(Self.json.utf8))
        #expect(schema["Person"]?.isEmbedded == false)
        #expect(schema["Address"]?.isEmbedded == true)
        #expect(schema["Geo"]?.isEmbedded == true)
        let person = try #require(schema["Person"])
        #expect(person["address"]?.isLink == true && person["address"]?.isOptional == true)
        #expect(person["previous"]?.isList == true && person["places"]?.isMap == true)
    }

    @Test func writesEmbeddedBackTheSameWay() throws {
        let schema = try Schema(realmJSJSON: Data(Self.json.utf8))
        let out = try schema.realmJSJSON()
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains(#""name": "Address",\#n    "embedded": true,"#), "\(text)")
        #expect(
            text.components(separatedBy: "\"embedded\"").count == 3, "only the two embedded classes say so: \(text)")
        let again = try Schema(realmJSJSON: out)
        #expect(again == schema)
        #expect(try again.realmJSJSON() == out)
        // `"embedded": false` is the default, read as not embedded.
        let plain = try Schema(
            realmJSJSON: Data(#"[{"name": "A", "embedded": false, "properties": {"x": "int"}}]"#.utf8))
        #expect(plain["A"]?.isEmbedded == false)
    }

    @Test func realmsRulesAreClearErrors() {
        expectError(
            #"[{"name": "Address", "embedded": true, "primaryKey": "id", "properties": {"id": "int"}}]"#,
            mentioning: ["Address", "embedded", "primary key"])
        expectError(
            #"[{"name": "Address", "embedded": true, "properties": {"id": {"type": "int", "primaryKey": true}}}]"#,
            mentioning: ["Address", "embedded", "primary key"])
        expectError(
            #"[{"name": "P", "properties": {"s": "Address<>"}}, {"name": "Address", "embedded": true, "properties": {"x": "int"}}]"#,
            mentioning: ["P.s", "set", "embedded"])
        expectError(
            #"[{"name": "Address", "embedded": "yes", "properties": {"x": "int"}}]"#,
            mentioning: ["Address", "\"embedded\"", "true or false"])
        expectError(
            #"[{"name": "Address", "asymmetric": true, "properties": {"x": "int"}}]"#,
            mentioning: ["Address", "asymmetric"])
    }

    func expectError(_ json: String, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
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
}
