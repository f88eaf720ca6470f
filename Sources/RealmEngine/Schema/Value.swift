import Foundation

/// The key of an object inside its class's table. Keys are never reused within a file's history
/// of one table, so a stale key cannot silently name a new object.
public struct ObjectKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw 63-bit key.
    public var rawValue: Int64
    /// Wraps a raw key.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public static func < (a: ObjectKey, b: ObjectKey) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "\(rawValue)" }
}

/// A point in time with full nanosecond precision (seconds since 1970 plus nanoseconds).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z (may be negative).
    public var seconds: Int64
    /// Nanoseconds, 0..<1_000_000_000 (same sign convention as Realm: added to `seconds`).
    public var nanoseconds: Int32

    /// Creates a timestamp; nanoseconds outside 0..<1e9 are carried into seconds.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        var s = seconds
        var n = Int64(nanoseconds)
        s += n / 1_000_000_000
        n %= 1_000_000_000
        if n < 0 {
            n += 1_000_000_000
            s -= 1
        }
        self.seconds = s
        self.nanoseconds = Int32(n)
    }

    /// Seconds from 1970-01-01 to 2001-01-01, the reference date `Date` counts from.
    static let referenceDateSeconds: Int64 = 978_307_200

    /// Converts a Foundation date to the nearest nanosecond: `Timestamp(d).date == d` for every
    /// date at least 2^23 seconds (97 days) from 2001-01-01, where a `Double` of seconds holds
    /// no finer fraction than a nanosecond (closer, `Date` holds finer ones, and the date comes
    /// back as the `Date` nearest to the nearest nanosecond: within half a nanosecond and one
    /// step of `Date`'s resolution there).
    ///
    /// `Date` stores a `Double` of seconds since 2001, so the conversion goes through
    /// `timeIntervalSinceReferenceDate`: through `timeIntervalSince1970` the addition of
    /// 978,307,200 seconds rounds away the interval's last bit, and half of all `Date()`
    /// values came back different.
    ///
    /// Throws `RealmError.invalidInput` for a date no timestamp holds: an infinite or NaN
    /// interval, or one beyond `Int64` seconds (about ±292 billion years).
    public init(_ date: Date) throws {
        let interval = date.timeIntervalSinceReferenceDate
        let whole = interval.rounded(.down)
        guard interval.isFinite, let sinceReference = Int64(exactly: whole) else {
            throw RealmError.invalidInput(
                "the date \(interval) seconds from 2001-01-01 cannot be stored: a Realm date holds "
                    + "finite times within Int64 seconds of 1970 (about ±292 billion years)")
        }
        let (seconds, overflow) = sinceReference.addingReportingOverflow(Timestamp.referenceDateSeconds)
        guard !overflow else {
            throw RealmError.invalidInput(
                "the date \(interval) seconds from 2001-01-01 cannot be stored: it is beyond "
                    + "Int64 seconds of 1970 (about 292 billion years)")
        }
        // `interval - whole` is exact; a fraction that rounds to 1e9 ns is carried by `init`.
        self.init(seconds: seconds, nanoseconds: Int32(((interval - whole) * 1e9).rounded()))
    }

    /// From milliseconds since 1970.
    public init(milliseconds: Int64) {
        let (q, r) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        self.init(seconds: q, nanoseconds: Int32(r * 1_000_000))
    }

    /// The Foundation date for this timestamp (the nearest one `Date` holds). Goes through
    /// seconds since 2001, as `init(_:)` does, so a date converted there comes back the same.
    public var date: Date {
        let (sinceReference, overflow) = seconds.subtractingReportingOverflow(Timestamp.referenceDateSeconds)
        let whole = overflow ? Double(seconds) - Double(Timestamp.referenceDateSeconds) : Double(sinceReference)
        return Date(timeIntervalSinceReferenceDate: whole + Double(nanoseconds) / 1e9)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        a.seconds != b.seconds ? a.seconds < b.seconds : a.nanoseconds < b.nanoseconds
    }

    /// ISO 8601 in UTC with as many fraction digits as needed (`2020-01-02T03:04:05.25Z`).
    ///
    /// Years 0000–9999 are four digits; others take ISO 8601's expanded form, a sign and at
    /// least four digits (`+10000-01-01T00:00:00Z`, `-0001-12-31T23:59:59Z`), so every value
    /// from `Int64.min` to `Int64.max` seconds has a text that `parseISO8601` reads back.
    public var iso8601: String {
        // Floor division without `seconds - 86399`, which overflows near Int64.min.
        let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: 86400)
        let days = remainder < 0 ? quotient - 1 : quotient
        let secondOfDay = remainder < 0 ? remainder + 86400 : remainder
        let (y, m, d) = Timestamp.civil(fromDays: days)
        let hh = secondOfDay / 3600
        let mm = (secondOfDay % 3600) / 60
        let ss = secondOfDay % 60
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        func four(_ v: Int64) -> String {
            let t = "\(v)"
            return String(repeating: "0", count: max(0, 4 - t.count)) + t
        }
        let year = y < 0 ? "-" + four(-y) : y < 10000 ? four(y) : "+\(y)"
        var out = "\(year)-\(two(m))-\(two(d))T\(two(hh)):\(two(mm)):\(two(ss))"
        if nanoseconds != 0 {
            var frac = String(nanoseconds)
            frac = String(repeating: "0", count: max(0, 9 - frac.count)) + frac
            while frac.hasSuffix("0") { frac.removeLast() }
            out += "." + frac
        }
        return out + "Z"
    }

    public var description: String { iso8601 }

    /// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (Howard Hinnant's algorithm).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// (year, month, day) → days since 1970-01-01.
    static func days(year y0: Int64, month m: Int64, day d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The number of days of `month` (1–12) in the proleptic Gregorian `year`.
    static func daysIn(month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The most digits an expanded year may have: Int64 seconds reach years ±292,277,026,596
    /// (12 digits); the bound keeps the day arithmetic far from overflowing.
    static let maxYearDigits = 12

    /// Parses ISO 8601 (`2020-01-02T03:04:05.25Z`, `2020-01-02T03:04:05+01:00`, `2020-01-02`).
    ///
    /// The year is four digits, optionally signed (`-0001`), or a sign and up to 12 digits
    /// (`+10000`, what `iso8601` writes outside 0000–9999). Nil for any other text, for a
    /// time outside what `Int64` seconds hold, and for a fraction finer than a nanosecond
    /// (zeros past the ninth digit are accepted: they change nothing).
    public static func parseISO8601(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parseISO8601(utf8: $0) }
    }

    /// `parseISO8601(_:)` of the text whose UTF-8 bytes are `b` (an importer reads dates
    /// straight from its input, making no `String` of them).
    static func parseISO8601(utf8 b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var i = 0
        func number(_ n: Int) -> Int64? {
            guard i + n <= b.count else { return nil }
            var v: Int64 = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        var sign: UInt8?
        if i < b.count && (b[i] == 45 || b[i] == 43) {
            sign = b[i]
            i += 1
        }
        var yearDigits = 0
        while i + yearDigits < b.count, b[i + yearDigits] >= 48 && b[i + yearDigits] <= 57 { yearDigits += 1 }
        guard yearDigits == 4 || (sign != nil && (4...maxYearDigits).contains(yearDigits)) else { return nil }
        guard var year = number(yearDigits), expect(45), let month = number(2), expect(45), let day = number(2),
            (1...12).contains(month)
        else { return nil }
        if sign == 45 { year = -year }
        guard (1...Timestamp.daysIn(month: month, of: year)).contains(day) else { return nil }
        let days = Timestamp.days(year: year, month: month, day: day)
        var timeOfDay: Int64 = 0
        var offset: Int64 = 0
        var nanos: Int64 = 0
        if i < b.count {
            guard b[i] == 84 || b[i] == 116 || b[i] == 32 else { return nil }
            i += 1
            guard let hh = number(2), expect(58), let mm = number(2), hh < 24, mm < 60 else { return nil }
            var ss: Int64 = 0
            if expect(58) {
                guard let s = number(2), s < 61 else { return nil }
                ss = s
                if i < b.count && (b[i] == 46 || b[i] == 44) {
                    i += 1
                    var digits = 0
                    while i < b.count, b[i] >= 48 && b[i] <= 57 {
                        if digits < 9 {
                            nanos = nanos * 10 + Int64(b[i] - 48)
                        } else if b[i] != 48 {
                            return nil  // finer than a nanosecond: it would be cut silently
                        }
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in min(digits, 9)..<9 { nanos *= 10 }
                }
            }
            timeOfDay = hh * 3600 + mm * 60 + ss
            if i < b.count {
                if b[i] == 90 || b[i] == 122 {
                    i += 1
                } else if b[i] == 43 || b[i] == 45 {
                    let sign: Int64 = b[i] == 43 ? 1 : -1
                    i += 1
                    guard let oh = number(2) else { return nil }
                    _ = expect(58)
                    let om = number(2) ?? 0
                    offset = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
        }
        guard i == b.count, let local = seconds(days: days, plus: timeOfDay) else { return nil }
        let (secs, overflow) = local.subtractingReportingOverflow(offset)
        guard !overflow else { return nil }
        return Timestamp(seconds: secs, nanoseconds: Int32(nanos))
    }

    /// `days * 86400 + timeOfDay` (0 ≤ timeOfDay ≤ 86400), or nil when it does not fit in Int64.
    /// For a day before 1970 one day is taken out of the product first, so the first and last
    /// days Int64 reaches (whose midnight lies outside it) still give their in-range seconds.
    private static func seconds(days: Int64, plus timeOfDay: Int64) -> Int64? {
        let (d, rest) = days < 0 ? (days + 1, timeOfDay - 86400) : (days, timeOfDay)
        let (product, overflow) = d.multipliedReportingOverflow(by: 86400)
        guard !overflow else { return nil }
        let (sum, overflow2) = product.addingReportingOverflow(rest)
        return overflow2 ? nil : sum
    }
}

/// A 12-byte MongoDB-style object id.
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The twelve bytes, most significant first.
    public var bytes: (UInt32, UInt32, UInt32)

    /// Parses 24 hexadecimal digits; throws `RealmError.invalidInput` for anything else (as
    /// RealmSwift's `ObjectId(string:)` throws).
    public init(string: String) throws {
        guard let parsed = ObjectId(parsing: string) else {
            let shown = string.count > 40 ? String(string.prefix(40)) + "…" : string
            throw RealmError.invalidInput("'\(shown)' is not an ObjectId: an ObjectId is 24 hexadecimal digits")
        }
        self = parsed
    }

    /// An ObjectId written in the program's source, as RealmSwift's `ObjectId("…")`: a literal
    /// that is not 24 hexadecimal digits is a programming error and stops the program, as it
    /// does in RealmSwift. Text from a user or a file goes through `init(string:)`.
    public init(_ literal: StaticString) {
        let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        guard let parsed = ObjectId(parsing: text) else {
            preconditionFailure("ObjectId(\"\(text)\"): an ObjectId literal must be 24 hexadecimal digits")
        }
        self = parsed
    }

    /// Parses 24 hexadecimal digits, or nil.
    public init?(parsing string: String) {
        let b = Array(string.utf8)
        guard b.count == 24 else { return nil }
        var words: [UInt32] = [0, 0, 0]
        for (k, c) in b.enumerated() {
            let v: UInt8
            switch c {
            case 48...57: v = c - 48
            case 97...102: v = c - 87
            case 65...70: v = c - 55
            default: return nil
            }
            words[k / 8] = words[k / 8] << 4 | UInt32(v)
        }
        bytes = (words[0], words[1], words[2])
    }

    /// From three big-endian words.
    public init(words: (UInt32, UInt32, UInt32)) { bytes = words }

    /// A new id from the time and random bytes.
    public static func generate() -> ObjectId {
        let time = UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970))
        return ObjectId(words: (time, UInt32.random(in: .min ... .max), UInt32.random(in: .min ... .max)))
    }

    public var description: String {
        func hex(_ w: UInt32) -> String {
            let s = String(w, radix: 16)
            return String(repeating: "0", count: 8 - s.count) + s
        }
        return hex(bytes.0) + hex(bytes.1) + hex(bytes.2)
    }

    public static func == (a: ObjectId, b: ObjectId) -> Bool {
        a.bytes.0 == b.bytes.0 && a.bytes.1 == b.bytes.1 && a.bytes.2 == b.bytes.2
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
        hasher.combine(bytes.2)
    }
    public static func < (a: ObjectId, b: ObjectId) -> Bool {
        (a.bytes.0, a.bytes.1, a.bytes.2) < (b.bytes.0, b.bytes.1, b.bytes.2)
    }
}

/// A dynamically typed value of a property: what the dynamic API, the query engine and the
/// command line exchange. Links are object keys in the property's target class.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case date(Timestamp)
    case data(Data)
    case objectId(ObjectId)
    case uuid(UUID)
    /// A decimal128 (equal by value: `1.0 == 1.00`).
    case decimal128(Decimal128)
    /// A link to an object of the property's target class.
    case link(ObjectKey)
    /// A link held by a Mixed value: the target's class and key (a Mixed property names no class).
    case typedLink(TypedLink)
    /// The elements of a list property (or of a set property: sorted, unique).
    case list([Value])
    /// The entries of a dictionary (`Map<String, T>`) property: key → value (`.null` for a nil
    /// value, or a link whose target was deleted).
    case map([String: Value])

    /// Whether this is `.null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// A short name of the value's kind for error messages.
    public var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .decimal128: "decimal128"
        case .link: "object"
        case .typedLink: "link"
        case .list: "list"
        case .map: "dictionary"
        }
    }

    /// A dictionary's entries in key order (by UTF-8 bytes, as Realm Core orders keys).
    public var sortedEntries: [(key: String, value: Value)] {
        guard case .map(let entries) = self else { return [] }
        return entries.sorted { ValueOrder.bytes($0.key, $1.key) < 0 }.map { (key: $0.key, value: $0.value) }
    }

    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let v): "\(v)"
        case .int(let v): "\(v)"
        case .float(let v): "\(v)"
        case .double(let v): "\(v)"
        case .string(let v): v
        case .date(let v): v.iso8601
        case .data(let v): v.base64EncodedString()
        case .objectId(let v): v.description
        case .uuid(let v): v.uuidString.lowercased()
        case .decimal128(let v): v.description
        case .link(let k): "→\(k.rawValue)"
        case .typedLink(let l): "→\(l.className)#\(l.key.rawValue)"
        case .list(let vs): "[" + vs.map(\.description).joined(separator: ", ") + "]"
        case .map: "{" + sortedEntries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension Property {
    /// Converts `value` to the stored form for this property (or for one element of a list when
    /// `element` is true), or throws a type error naming the property.
    func coerce(_ value: Value, className: String, element: Bool = false) throws -> Value {
        var mismatch: RealmError {
            RealmError.typeMismatch(
                className: className, property: name, expected: element ? type.rawValue : typeDescription,
                got: value.kindName)
        }
        if isMap && !element {
            guard case .map(let entries) = value else {
                if value.isNull { return .map([:]) }
                throw mismatch
            }
            var out = [String: Value](minimumCapacity: entries.count)
            for (key, v) in entries {
                try MapKey.check(key, className: className, property: name)
                out[key] = try coerce(v, className: className, element: true)
            }
            return .map(out)
        }
        if isList && !element {
            guard case .list(let items) = value else {
                if value.isNull { return .list([]) }
                throw mismatch
            }
            let coerced = try items.map { try coerce($0, className: className, element: true) }
            return .list(isSet ? SetElements.normalized(coerced) : coerced)
        }
        if case .null = value {
            if isOptional && !(isList && type == .object) { return .null }
            throw RealmError.missingValue(className: className, property: name)
        }
        if type == .mixed { return try coerceMixed(value, className: className) }
        switch (type, value) {
        case (.bool, .bool): return value
        case (.int, .int), (.int8, .int), (.int16, .int), (.int32, .int):
            guard case .int(let v) = value, type.integerRange.contains(v) else {
                throw RealmError.typeMismatch(
                    className: className, property: name,
                    expected: "\(type.rawValue) in \(type.integerRange)", got: value.description)
            }
            return value
        case (.float, .float): return value
        case (.float, .double(let d)): return .float(Float(d))
        case (.float, .int(let i)): return .float(Float(i))
        case (.double, .double): return value
        case (.double, .float(let f)): return .double(Double(f))
        case (.double, .int(let i)): return .double(Double(i))
        case (.string, .string(let s)):
            if s.utf8.count > Limits.maxValueBytes {
                throw RealmError.limitExceeded(
                    "\(className).\(name): a string of \(s.utf8.count) bytes exceeds the limit of \(Limits.maxValueBytes) bytes"
                )
            }
            return value
        case (.data, .data(let d)):
            if d.count > Limits.maxValueBytes {
                throw RealmError.limitExceeded(
                    "\(className).\(name): data of \(d.count) bytes exceeds the limit of \(Limits.maxValueBytes) bytes")
            }
            return value
        case (.date, .date): return value
        case (.decimal128, .decimal128): return value
        case (.decimal128, .int(let i)): return .decimal128(Decimal128(i))
        // A double converts as Realm Core converts one (its 15 significant digits).
        case (.decimal128, .double(let d)): return .decimal128(Decimal128(d))
        case (.decimal128, .float(let f)): return .decimal128(Decimal128(Double(f)))
        case (.objectId, .objectId), (.uuid, .uuid), (.object, .link): return value
        default: throw mismatch
        }
    }
}
