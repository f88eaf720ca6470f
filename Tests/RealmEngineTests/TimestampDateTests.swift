import Foundation
import Testing
@testable import RealmEngine

/// `Timestamp(date)` and `timestamp.date`: a `Date` comes back exactly as it went in (it is a
/// `Double` of seconds since 2001, so the conversion must not go through seconds since 1970),
/// and a date no timestamp holds is an error, not a trap.
@Suite struct TimestampDateTests {
    /// Before, about half of these came back one ulp off.
    @Test func aDateComesBackExactly() throws {
        var generator = SeededRandom(seed: 2026)
        var dates = [
            Date(), Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 0),
            Date(timeIntervalSince1970: 1.123456), Date(timeIntervalSince1970: -1.5),
            Date(timeIntervalSinceReferenceDate: 1e12 + 0.25), Date(timeIntervalSinceReferenceDate: -1e12 - 0.75),
            Date.distantPast, Date.distantFuture,
        ]
        for _ in 0..<2_000 {
            // 2026 ± 60 years, at Date's own resolution, and within 97 days of 2001.
            dates.append(Date(timeIntervalSinceReferenceDate: Double.random(in: -1.2e9...2.6e9, using: &generator)))
            dates.append(Date(timeIntervalSinceReferenceDate: Double.random(in: -0x1p23...0x1p23, using: &generator)))
        }
        dates.append(contentsOf: (0..<1_000).map { _ in Date() })
        for date in dates {
            let back = try Timestamp(date).date
            if abs(date.timeIntervalSinceReferenceDate) >= 0x1p23 {
                #expect(
                    back == date,
                    "\(date.timeIntervalSinceReferenceDate) came back as \(back.timeIntervalSinceReferenceDate)")
            } else {
                // Within 2^23 s (97 days) of 2001, `Date` holds fractions finer than a nanosecond:
                // the nearest nanosecond, then the nearest `Date` to that.
                let interval = date.timeIntervalSinceReferenceDate
                #expect(
                    abs(back.timeIntervalSinceReferenceDate - interval) <= 0.5e-9 + interval.ulp,
                    "\(interval) came back as \(back.timeIntervalSinceReferenceDate)")
            }
        }
    }

    @Test func theTimestampCountsFrom1970() throws {
        #expect(try Timestamp(Date(timeIntervalSince1970: 0)) == Timestamp(seconds: 0))
        #expect(try Timestamp(Date(timeIntervalSinceReferenceDate: 0)) == Timestamp(seconds: 978_307_200))
        #expect(try Timestamp(Date(timeIntervalSince1970: -1.5)) == Timestamp(seconds: -2, nanoseconds: 500_000_000))
        #expect(try Timestamp(Date(timeIntervalSince1970: 1.25)) == Timestamp(seconds: 1, nanoseconds: 250_000_000))
        #expect(
            Timestamp(seconds: 978_307_200, nanoseconds: 500_000_000).date == Date(timeIntervalSinceReferenceDate: 0.5))
    }

    @Test func aDateNoTimestampHoldsIsAnError() {
        for interval in [Double.infinity, -.infinity, .nan, 1e19, -1e19, .greatestFiniteMagnitude] {
            #expect(throws: RealmError.self, "\(interval)") {
                try Timestamp(Date(timeIntervalSinceReferenceDate: interval))
            }
        }
    }

    /// The extremes of a file's timestamps read as dates without trapping.
    @Test func everyStoredTimestampReadsAsADate() {
        for seconds in [Int64.min, .min + 1, -978_307_200, 0, .max - 978_307_200, .max] {
            #expect(Timestamp(seconds: seconds, nanoseconds: 999_999_999).date.timeIntervalSince1970.isFinite)
        }
    }
}
