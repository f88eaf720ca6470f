import Testing
@testable import RealmEngine

@Suite struct SchemaValidationTests {
    @Test func rejectsTooLongNames() {
        let long = String(repeating: "a", count: 64)
        let schema = Schema([ObjectSchema(name: long, properties: [Property(name: "x", type: .int)])])
        #expect(throws: RealmError.self) { try schema.validate() }
        let ok = Schema([ObjectSchema(name: String(repeating: "名", count: 21), properties: [Property(name: "x", type: .int)])])
        #expect(throws: Never.self) { try ok.validate() }
    }

    @Test func rejectsUnknownLinkTarget() {
        let schema = Schema([ObjectSchema(name: "Dog", properties: [
            Property(name: "owner", type: .object, objectClassName: "Person"),
        ])])
        #expect(throws: RealmError.self) { try schema.validate() }
    }

    @Test func dateRoundTripsThroughISO8601WithNanoseconds() throws {
        let t = try #require(Timestamp.parseISO8601("2020-01-02T03:04:05.250000001Z"))
        #expect(t.iso8601 == "2020-01-02T03:04:05.250000001Z")
        #expect(Timestamp.parseISO8601("1969-12-31T23:59:59.5Z")?.seconds == -1)
        #expect(Timestamp.parseISO8601("not a date") == nil)
    }
}
