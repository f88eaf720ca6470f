import Foundation
import Testing
@testable import RealmEngine

/// `Timestamp.iso8601` and `Timestamp.parseISO8601` over every value a file can hold: years
/// 0000–9999 as four digits, others in ISO 8601's expanded form (`+10000-…`, `-0001-…`), and
/// the text always parses back to the same timestamp (what export → import relies on).
@Suite struct TimestampTextTests {
    /// Year 10000's first second.
    static let year10000 = Timestamp.days(year: 10000, month: 1, day: 1) * 86400
    /// Year 0's (1 BC) first second.
    static let year0 = Timestamp.days(year: 0, month: 1, day: 1) * 86400

    static let edgeSeconds: [Int64] = [
        .min, .min + 1, .min + 86399, .min + 86400, .min + 86401, .max, .max - 1, .max - 86399, .max - 86400,
        year10000 - 1, year10000, year10000 + 1, year0 - 1, year0, year0 + 1,
        Timestamp.days(year: -1, month: 1, day: 1) * 86400, Timestamp.days(year: -10000, month: 1, day: 1) * 86400 - 1,
        -86401, -86400, -86399, -1, 0, 1, 86399, 86400,
        1_700_000_000_000,  // milliseconds stored as seconds: year ~55,800
        -1_700_000_000_000,
    ]
    static let edgeNanoseconds: [Int32] = [0, 1, 10, 500_000_000, 999_999_999]

    func expectRoundTrip(_ t: Timestamp, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = t.iso8601
        #expect(
            Timestamp.parseISO8601(text) == t, "\(t.seconds)s \(t.nanoseconds)ns → \(text)",
            sourceLocation: sourceLocation)
    }

    @Test func edgeValuesFormatAndParseBack() {
        for seconds in Self.edgeSeconds {
            for nanoseconds in Self.edgeNanoseconds {
                expectRoundTrip(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
            }
        }
    }

    @Test func randomValuesFormatAndParseBack() {
        var rng = SeededGenerator(seed: 0x15_08_601)
        for i in 0..<20_000 {
            // Alternately anywhere in Int64 and within a few thousand years of 1970.
            let seconds =
                i % 2 == 0
                ? Int64.random(in: .min ... .max, using: &rng)
                : Int64.random(in: -400_000_000_000...400_000_000_000, using: &rng)
            expectRoundTrip(Timestamp(seconds: seconds, nanoseconds: Int32.random(in: 0..<1_000_000_000, using: &rng)))
        }
    }

    @Test func yearsOutside0000To9999AreWrittenExpanded() {
        #expect(Timestamp(seconds: Self.year10000 - 1).iso8601 == "9999-12-31T23:59:59Z")
        #expect(Timestamp(seconds: Self.year10000).iso8601 == "+10000-01-01T00:00:00Z")
        #expect(Timestamp(seconds: Self.year0).iso8601 == "0000-01-01T00:00:00Z")
        #expect(Timestamp(seconds: Self.year0 - 1).iso8601 == "-0001-12-31T23:59:59Z")
        #expect(Timestamp(seconds: 1_700_000_000_000).iso8601 == "+55840-11-08T22:13:20Z")
        #expect(Timestamp(seconds: .max).iso8601 == "+292277026596-12-04T15:30:07Z")
        #expect(Timestamp(seconds: .min).iso8601 == "-292277022657-01-27T08:29:52Z")
    }

    /// A day the month does not have is refused, never moved into the next month.
    @Test func daysTheMonthDoesNotHaveAreRefused() {
        for text in ["2021-02-30", "2021-02-29", "2021-04-31", "2021-06-31T00:00:00Z", "1900-02-29", "-0001-02-29"] {
            #expect(Timestamp.parseISO8601(text) == nil, "\(text)")
        }
        for text in [
            "2020-02-29", "2000-02-29", "2021-01-31", "2021-04-30", "2021-12-31T23:59:59Z", "0000-02-29", "-0004-02-29",
        ] {
            #expect(Timestamp.parseISO8601(text) != nil, "\(text)")
        }
    }

    @Test func theParserTakesTheExpandedFormAndRefusesWhatDoesNotFit() {
        #expect(Timestamp.parseISO8601("+10000-01-01T00:00:00Z")?.seconds == Self.year10000)
        #expect(Timestamp.parseISO8601("-0001-12-31T23:59:59Z")?.seconds == Self.year0 - 1)
        #expect(Timestamp.parseISO8601("+2020-01-02T03:04:05Z") == Timestamp.parseISO8601("2020-01-02T03:04:05Z"))
        #expect(Timestamp.parseISO8601("+10000-01-01") != nil)
        // Five digits need a sign (ISO 8601's expanded years); too few or too many digits are refused.
        #expect(Timestamp.parseISO8601("10000-01-01T00:00:00Z") == nil)
        #expect(Timestamp.parseISO8601("+100-01-01T00:00:00Z") == nil)
        #expect(Timestamp.parseISO8601("+1000000000000-01-01T00:00:00Z") == nil)
        // Just past Int64's seconds either way, and large offsets at the edge: nil, not a trap.
        #expect(Timestamp.parseISO8601("+292277026596-12-04T15:30:07Z")?.seconds == .max)
        #expect(Timestamp.parseISO8601("+292277026596-12-04T15:30:08Z") == nil)
        #expect(Timestamp.parseISO8601("+292277026596-12-04T15:30:07-01:00") == nil)
        #expect(Timestamp.parseISO8601("-292277022657-01-27T08:29:52Z")?.seconds == .min)
        #expect(Timestamp.parseISO8601("-292277022657-01-27T08:29:51Z") == nil)
        #expect(Timestamp.parseISO8601("-292277022657-01-27T08:29:52+01:00") == nil)
        #expect(Timestamp.parseISO8601("+999999999999-12-31T23:59:59Z") == nil)
        #expect(Timestamp.parseISO8601("-999999999999-01-01T00:00:00Z") == nil)
    }
}
