import Foundation
import RealmEngine

/// Realm Core's search index on a Mixed column (`Mixed::get_index_data`): nil has no data; an
/// int, a bool (0/1), a float or double that is a whole number in 32-bit int range, and a
/// decimal that converts to an int64 are all keyed as that int (8 little-endian bytes); other
/// floats and doubles by their 4 or 8 bytes, other decimals by their 16; strings and binaries by
/// their bytes (so the string "a" and the binary "a" share data); timestamps, ObjectIds and
/// UUIDs as in their own columns; a typed link by its table key (4 bytes) and object key (8); a
/// nested list as the text "__List__", a dictionary as "__Dictionary__".
///
/// Realm Core decides where a value goes by comparing Mixed values (equal ones share a row
/// list, unequal ones with the same leading bytes get a sub-index), while this builder compares
/// index data. The two agree unless values with the same data differ as Mixed values, or equal
/// Mixed values have different data that meet in one node: such columns are refused by name
/// (`checkMixedColumn`) rather than written with an index Realm Core would not have built.
extension CoreStringIndexBuilder {
    /// The index data of a value of a Mixed column, nil for null.
    static func mixedIndexData(_ value: CoreValue, what: @autoclosure () -> String) throws -> [UInt8]? {
        func littleEndian(_ v: UInt64, bytes: Int) -> [UInt8] {
            (0..<bytes).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
        }
        func int(_ i: Int64) -> [UInt8] { littleEndian(UInt64(bitPattern: i), bytes: 8) }
        switch value {
        case .null: return nil
        case .int(let i): return int(i)
        case .bool(let b): return int(b ? 1 : 0)
        case .float(let f):
            // C++ `int(v)` then `i == v`: a whole number in 32-bit int range.
            if let i = Int32(exactly: f) { return int(Int64(i)) }
            return littleEndian(UInt64(f.bitPattern), bytes: 4)
        case .double(let d):
            if let i = Int32(exactly: d) { return int(Int64(i)) }
            return littleEndian(d.bitPattern, bytes: 8)
        case .decimal128(let low, let high):
            let d = Decimal128(low: low, high: high)
            if let i = d.exactInt64 { return int(i) }
            // `Decimal128::to_int` truncates a fraction, and fails only past int64's range (or
            // on NaN and infinities): then the raw 16 bytes. Truncation is not done here.
            guard !d.isFinite || abs(d.doubleValue) > 1e19 else {
                throw RealmError.unsupportedFeature(
                    "\(what()): a search index on a Mixed column holding the decimal \(d), not a whole number, cannot be written to a Realm Core file yet"
                )
            }
            return littleEndian(low, bytes: 8) + littleEndian(high, bytes: 8)
        case .string(let s): return Array(s.utf8)
        case .binary(let b): return [UInt8](b)
        case .timestamp(let s, let ns): return int(s) + littleEndian(UInt64(UInt32(bitPattern: ns)), bytes: 4)
        case .objectId(let d), .uuid(let d): return [UInt8](d)
        case .typedLink(let table, let key), .link(let table, let key):
            return littleEndian(UInt64(truncatingIfNeeded: table), bytes: 4) + int(key)
        case .list: return Array("__List__".utf8)
        case .dictionary: return Array("__Dictionary__".utf8)
        case .set: throw RealmError.invalidInput("\(what()): a search index cannot hold \(value.typeName)")
        }
    }

    /// What a value is to Realm Core's Mixed equality among values of the same index data: all
    /// numbers keyed as one int are that int; otherwise each case is its own kind.
    private static func kind(_ value: CoreValue, _ data: [UInt8]) -> String {
        switch value {
        case .int, .float, .double, .decimal128: data.count == 8 && isIntData(value) ? "number" : value.typeName
        default: value.typeName
        }
    }

    private static func isIntData(_ value: CoreValue) -> Bool {
        switch value {
        case .int: true
        case .float(let f): Int32(exactly: f) != nil
        case .double(let d): Int32(exactly: d) != nil
        case .decimal128(let low, let high): Decimal128(low: low, high: high).exactInt64 != nil
        default: false
        }
    }

    /// A number's value as a nearest double's bits (every NaN one, -0 as 0): numbers Realm Core
    /// takes as equal share it (and some unequal ones, which are refused needlessly but safely).
    private static func numericKey(_ value: CoreValue) -> UInt64? {
        let d: Double
        switch value {
        case .int(let i): d = Double(i)
        case .float(let f): d = Double(f)
        case .double(let x): d = x
        case .decimal128(let low, let high): d = Decimal128(low: low, high: high).doubleValue
        default: return nil
        }
        return d.isNaN ? Double.nan.bitPattern : (d == 0 ? 0 : d.bitPattern)
    }

    private static func isNaN(_ value: CoreValue) -> Bool {
        switch value {
        case .float(let f): f.isNaN
        case .double(let d): d.isNaN
        case .decimal128(let low, let high): Decimal128(low: low, high: high).isNaN
        default: false
        }
    }

    /// Refuses a Mixed column whose index this builder cannot make exactly as Realm Core would:
    /// two values with the same data that are different kinds (the string "a" and the binary
    /// "a"; true and 1) or NaNs; two equal numbers with different data (the float 0.5 and the
    /// double 0.5; Realm Core would put them in one row list where they meet); two long values
    /// of different kinds sharing the
    /// prefix past which Realm Core sorts a list by Mixed value.
    static func checkMixedColumn(_ values: [CoreValue], what: String) throws {
        var kinds: [[UInt8]: (kind: String, value: CoreValue)] = [:]
        var numbersByValue: [UInt64: (data: [UInt8], value: CoreValue)] = [:]
        var longKinds: [ArraySlice<UInt8>: String] = [:]
        func refuse(_ a: CoreValue, _ b: CoreValue) -> RealmError {
            .unsupportedFeature(
                "\(what): a search index on a Mixed column holding both \(a.typeName) \(a) and \(b.typeName) \(b) cannot be written to a Realm Core file exactly as Realm Core builds it"
            )
        }
        for value in values {
            guard let data = try mixedIndexData(value, what: what) else { continue }
            let k = kind(value, data)
            if let seen = kinds[data] {
                if seen.kind != k || isNaN(value) { throw refuse(seen.value, value) }
            } else {
                kinds[data] = (k, value)
            }
            if let number = numericKey(value) {
                if let other = numbersByValue[number], other.data != data { throw refuse(other.value, value) }
                numbersByValue[number] = (data, value)
            }
            if data.count >= maxOffset {
                let prefix = data[..<maxOffset]
                if let seen = longKinds[prefix], seen != k {
                    throw RealmError.unsupportedFeature(
                        "\(what): a search index on a Mixed column holding a long string and a long binary with the same first \(maxOffset) bytes cannot be written to a Realm Core file yet"
                    )
                }
                longKinds[prefix] = k
            }
        }
    }
}
