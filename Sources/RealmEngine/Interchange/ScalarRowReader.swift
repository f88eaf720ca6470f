import Foundation

/// Reads one streamed object of a class whose stored properties are all plain scalars (bool,
/// int, double, string, date; optional or not) straight from its JSON bytes into the row the
/// engine stores: no `JSONValue` tree, no `ObjectInput`, each member name matched to its column
/// by comparing bytes (the previous object's order tried first), each value converted from its
/// token. A million-object import spent about 40 % of its time building and converting trees.
///
/// It reads only the common form and leaves everything else to the general path, which parses
/// the same bytes and gives the same answer or the same error: `read` returns nil (and has
/// changed nothing) for any byte it does not expect, a member named twice or not a column, a
/// missing member, `null`, a string with an escape, a number that is not in the one form whose
/// value is certain here (an int column's plain integer literal of at most 18 digits, a double
/// column's finite number, a date's ISO 8601 string or integer milliseconds). So what this
/// accepts is exactly a subset of what the general path accepts, with the same values.
struct ScalarRowReader {
    private enum Kind { case bool, int, double, string, date }

    private struct Column {
        var name: [UInt8]
        var kind: Kind
    }

    private let columns: [Column]
    /// Every column given: the bits of `seen` when an object named each column once.
    private let allSeen: UInt64
    /// The column of each member position in the previous object (tried first: most inputs
    /// write every object's members in one order).
    private var order: [Int]
    /// The values `read` found, by column (reused from object to object: no array is made per
    /// object; a `read` that returns false leaves it partly written).
    private(set) var row: [Value]

    /// A reader for a class with these stored properties (in column order), or nil when one
    /// of them is of a kind this does not read (then every object takes the general path).
    init?(persisted: [Property]) {
        guard !persisted.isEmpty, persisted.count <= 64 else { return nil }
        var columns: [Column] = []
        for property in persisted {
            guard !property.isCollection, property.isPersisted else { return nil }
            let kind: Kind
            switch property.type {
            case .bool: kind = .bool
            case .int: kind = .int
            case .double: kind = .double
            case .string: kind = .string
            case .date: kind = .date
            default: return nil
            }
            columns.append(Column(name: Array(property.name.utf8), kind: kind))
        }
        self.columns = columns
        allSeen = persisted.count == 64 ? ~0 : (1 << UInt64(persisted.count)) - 1
        order = Array(columns.indices)
        row = [Value](repeating: .null, count: columns.count)
    }

    /// Reads the object in `bytes` (one JSON value, as `JSONElementStream` cut it out) into
    /// `row`, its stored values by column; false when the general path is to read it.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var cursor = Cursor(base: base, end: bytes.count)
        cursor.skipWhitespace()
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        var seen: UInt64 = 0
        var member = 0
        while true {
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: "\"")), let column = matchName(&cursor, position: member) else {
                return false
            }
            let bit: UInt64 = 1 << UInt64(column)
            guard seen & bit == 0 else { return false }
            seen |= bit
            if member < order.count { order[member] = column }
            member += 1
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: ":")) else { return false }
            cursor.skipWhitespace()
            guard let value = readValue(&cursor, kind: columns[column].kind) else { return false }
            row[column] = value
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: ",")) { continue }
            guard cursor.take(UInt8(ascii: "}")) else { return false }
            break
        }
        cursor.skipWhitespace()
        return cursor.index == cursor.end && seen == allSeen
    }

    /// The column named by the member name at the cursor (just past its opening quote), the
    /// cursor moved past its closing quote; nil for a name with an escape or of no column.
    private func matchName(_ cursor: inout Cursor, position: Int) -> Int? {
        let start = cursor.index
        while cursor.index < cursor.end {
            let byte = cursor.base[cursor.index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            cursor.index += 1
        }
        guard cursor.index < cursor.end else { return nil }
        let name = UnsafeBufferPointer(start: cursor.base + start, count: cursor.index - start)
        cursor.index += 1
        if position < order.count, Self.same(columns[order[position]].name, name) { return order[position] }
        return columns.firstIndex { Self.same($0.name, name) }
    }

    private static func same(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        return name.withUnsafeBufferPointer { name in
            guard let a = name.baseAddress, let b = bytes.baseAddress else { return name.count == 0 }
            return memcmp(a, b, name.count) == 0
        }
    }

    private func readValue(_ cursor: inout Cursor, kind: Kind) -> Value? {
        guard cursor.index < cursor.end else { return nil }
        switch kind {
        case .bool:
            if cursor.takeWord("true") { return .bool(true) }
            if cursor.takeWord("false") { return .bool(false) }
            return nil
        case .int:
            return cursor.integer().map(Value.int)
        case .double:
            return cursor.double().map(Value.double)
        case .string:
            return cursor.string().map(Value.string)
        case .date:
            if let milliseconds = cursor.integer() { return .date(Timestamp(milliseconds: milliseconds)) }
            return cursor.stringBytes().flatMap(Timestamp.parseISO8601(utf8:)).map(Value.date)
        }
    }

    /// A position in one object's bytes.
    private struct Cursor {
        let base: UnsafePointer<UInt8>
        let end: Int
        var index = 0

        init(base: UnsafePointer<UInt8>, end: Int) {
            self.base = base
            self.end = end
        }

        mutating func skipWhitespace() {
            while index < end {
                switch base[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < end, base[index] == byte else { return false }
            index += 1
            return true
        }

        /// `word` (ASCII) followed by a byte that cannot continue a JSON token.
        mutating func takeWord(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard end - index >= count, memcmp(base + index, word.utf8Start, count) == 0 else { return false }
            guard index + count == end || Self.endsToken(base[index + count]) else { return false }
            index += count
            return true
        }

        static func endsToken(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: true
            default: false
            }
        }

        /// A JSON number's end from the cursor, and whether it is an integer literal (no fraction
        /// or exponent); nil when the bytes are not a JSON number followed by a token's end.
        func numberEnd() -> (end: Int, isInteger: Bool)? {
            var i = index
            func digits() -> Int {
                let s = i
                while i < end, base[i] >= 0x30, base[i] <= 0x39 { i += 1 }
                return i - s
            }
            if i < end, base[i] == UInt8(ascii: "-") { i += 1 }
            guard i < end, base[i] >= 0x30, base[i] <= 0x39 else { return nil }
            if base[i] == UInt8(ascii: "0") {
                i += 1
                if i < end, base[i] >= 0x30, base[i] <= 0x39 { return nil }
            } else {
                _ = digits()
            }
            var isInteger = true
            if i < end, base[i] == UInt8(ascii: ".") {
                i += 1
                isInteger = false
                guard digits() > 0 else { return nil }
            }
            if i < end, base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E") {
                i += 1
                isInteger = false
                if i < end, base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return nil }
            }
            guard i == end || endsToken(base[i]) else { return nil }
            return (i, isInteger)
        }

        private func endsToken(_ byte: UInt8) -> Bool { Self.endsToken(byte) }

        /// An integer literal of at most 18 digits (always within Int64); nil for anything else.
        mutating func integer() -> Int64? {
            guard let (numberEnd, isInteger) = numberEnd(), isInteger else { return nil }
            var i = index
            let negative = base[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            guard numberEnd - i <= 18 else { return nil }
            var value: Int64 = 0
            while i < numberEnd {
                value = value * 10 + Int64(base[i] &- 0x30)
                i += 1
            }
            index = numberEnd
            return negative ? -value : value
        }

        /// A JSON number read as the nearest double, by `Double(String)` as the general path
        /// reads it (the same rounding, the same refusals); nil when that refuses it or it is
        /// not finite (the general path says why).
        mutating func double() -> Double? {
            guard let (numberEnd, _) = numberEnd() else { return nil }
            if let value = exactDouble(upTo: numberEnd) {
                index = numberEnd
                return value
            }
            let text = String(
                decoding: UnsafeBufferPointer(start: base + index, count: numberEnd - index), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            index = numberEnd
            return value
        }

        /// Powers of ten a double holds exactly (10^22 is the last).
        private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
            (0..<exponent).reduce(1.0) { power, _ in power * 10 }
        }

        /// The JSON number from the cursor to `numberEnd` (checked to be one) when its digits, as
        /// an integer, are at most 2^53 and its decimal exponent at most 22 either way: then
        /// both are exact doubles and one multiplication or division rounds once, to the
        /// nearest double, as `Double(String)` does (Clinger's fast path). Nil for any other
        /// number, which the caller reads the slow way.
        private func exactDouble(upTo numberEnd: Int) -> Double? {
            var i = index
            let negative = base[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var digits: UInt64 = 0
            var significant = 0
            var exponent = 0
            var inFraction = false
            while i < numberEnd {
                let byte = base[i]
                if byte == UInt8(ascii: ".") {
                    inFraction = true
                } else if byte >= 0x30 && byte <= 0x39 {
                    if digits != 0 || byte != 0x30 { significant += 1 }
                    // 19 digits always fit in UInt64.
                    guard significant <= 19 else { return nil }
                    digits = digits * 10 + UInt64(byte - 0x30)
                    if inFraction { exponent -= 1 }
                } else {
                    break
                }
                i += 1
            }
            if i < numberEnd {
                // An exponent: 'e' or 'E', an optional sign, digits (checked by `numberEnd`).
                i += 1
                let negativeExponent = base[i] == UInt8(ascii: "-")
                if base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+") { i += 1 }
                guard numberEnd - i <= 4 else { return nil }
                var value = 0
                while i < numberEnd {
                    value = value * 10 + Int(base[i] - 0x30)
                    i += 1
                }
                exponent += negativeExponent ? -value : value
            }
            guard digits <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
            let powers = Self.exactPowersOfTen
            let magnitude =
                exponent < 0 ? Double(digits) / powers[-exponent] : Double(digits) * powers[exponent]
            return negative ? -magnitude : magnitude
        }

        /// The bytes of a string without escapes or control characters (nil for any other),
        /// valid while the input is; the cursor moves past it.
        mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < end {
                let byte = base[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            guard index < end else { return nil }
            index += 1
            return UnsafeBufferPointer(start: base + start, count: index - 1 - start)
        }

        /// A string without escapes or control characters, valid UTF-8 and within the length of
        /// a stored value; nil for anything else.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var ascii = true
            while index < end {
                let byte = base[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            guard index < end, index - start <= Limits.maxValueBytes else { return nil }
            let bytes = UnsafeBufferPointer(start: base + start, count: index - start)
            let text = String(decoding: bytes, as: UTF8.self)
            // Decoding repairs bad UTF-8; if that changed the bytes, the general path says where.
            guard ascii || text.utf8.elementsEqual(bytes) else { return nil }
            index += 1
            return text
        }
    }
}
