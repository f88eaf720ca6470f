import Foundation
import Testing
@testable import RealmEngine

@Suite struct SchemaValidationTests {
    @Test func rejectsTooLongNames() {
        let long = String(repeating: "a", count: 64)
        let schema = Schema([ObjectSchema(name: long, properties: [Property(name: "x", type: .int)])])
        #expect(throws: RealmError.self) { try schema.validate() }
        let ok = Schema([
            ObjectSchema(name: String(repeating: "名", count: 21), properties: [Property(name: "x", type: .int)])
        ])
        #expect(throws: Never.self) { try ok.validate() }
    }

    @Test func rejectsUnknownLinkTarget() {
        let schema = Schema([
            ObjectSchema(
                name: "Dog",
                properties: [
                    Property(name: "owner", type: .object, objectClassName: "Person")
                ])
        ])
        #expect(throws: RealmError.self) { try schema.validate() }
    }

    @Test func dateRoundTripsThroughISO8601WithNanoseconds() throws {
        let t = try #require(Timestamp.parseISO8601("2020-01-02T03:04:05.250000001Z"))
        #expect(t.iso8601 == "2020-01-02T03:04:05.250000001Z")
        #expect(Timestamp.parseISO8601("1969-12-31T23:59:59.5Z")?.seconds == -1)
        #expect(Timestamp.parseISO8601("not a date") == nil)
    }

    /// A default date in the stored schema is read from the file: nanoseconds outside 0..<1e9
    /// are bad bytes (an error), not carried into seconds (which traps at Int64's ends).
    @Test func aStoredDateWithBadNanosecondsIsAnErrorNotATrap() throws {
        func decode(_ seconds: Int64, _ nanoseconds: Int64) throws -> Value {
            try JSONDecoder().decode(
                Value.self, from: Data(#"{"t": "date", "v": [\#(seconds), \#(nanoseconds)]}"#.utf8))
        }
        #expect(try decode(5, 7) == .date(Timestamp(seconds: 5, nanoseconds: 7)))
        #expect(try decode(.max, 999_999_999) == .date(Timestamp(seconds: .max, nanoseconds: 999_999_999)))
        #expect(throws: DecodingError.self) { try decode(.max, 2_000_000_000) }
        #expect(throws: DecodingError.self) { try decode(.min, -1) }
        #expect(throws: DecodingError.self) { try decode(0, 1_000_000_000) }
        #expect(throws: DecodingError.self) { try decode(0, 1 << 40) }
    }
}
