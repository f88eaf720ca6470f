import Foundation
import RealmEngine

/// How property values travel to and from the server: one JSON value per property, in the form
/// PostgreSQL's `jsonb_populate_record` reads into the class table's typed column
/// (`SyncServerSchema.columnType`), so one encoding serves the change feed and the tables.
///
/// | Realm type          | JSON                                   | column             |
/// |---------------------|----------------------------------------|--------------------|
/// | bool                | true/false                             | boolean            |
/// | int, int8/16/32     | number                                 | bigint             |
/// | float, double       | number; "NaN", "Infinity", "-Infinity" | real, double prec. |
/// | string              | string                                 | text               |
/// | date                | nanoseconds since 1970 as a string     | numeric (lossless) |
/// | data                | "\x…" (bytea's hex input)              | bytea              |
/// | objectId            | 24 hex digits                          | text               |
/// | uuid                | lowercase text                         | uuid               |
/// | decimal128          | its exact text                         | text               |
/// | link                | the target's primary key (or null)     | the key's column   |
/// | list, set           | array of element forms                 | jsonb              |
/// | map                 | object of element forms                | jsonb              |
/// | mixed               | the engine's `{"t":…, "v":…}` form     | jsonb              |
///
/// Links travel as the target's primary key, never as a local object key (keys differ per file).
enum SyncCodec {
    /// The JSON form of `value`, a value of `property` read from `realm`.
    static func encode(_ value: Value, _ property: Property, in realm: Realm) throws -> JSONValue {
        if property.isMap {
            guard case .map(let entries) = value else { return .null }
            return .object(
                try entries.keys.sorted().map { key in
                    JSONMember(key, try element(entries[key] ?? .null, property, realm))
                })
        }
        if property.isList {
            guard case .list(let items) = value else { return .null }
            return .array(try items.map { try element($0, property, realm) })
        }
        return try element(value, property, realm)
    }

    private static func element(_ value: Value, _ property: Property, _ realm: Realm) throws -> JSONValue {
        if case .null = value, property.type != .mixed { return .null }
        switch (property.type, value) {
        case (.bool, .bool(let b)): return .bool(b)
        case (.int, .int(let v)), (.int8, .int(let v)), (.int16, .int(let v)), (.int32, .int(let v)): return .integer(v)
        case (.float, .float(let f)): return number(Double(f))
        case (.double, .double(let d)): return number(d)
        case (.string, .string(let s)): return .string(s)
        case (.date, .date(let t)): return .string(nanosecondText(t))
        case (.data, .data(let d)): return .string("\\x" + d.map { String(format: "%02x", $0) }.joined())
        case (.objectId, .objectId(let id)): return .string(id.description)
        case (.uuid, .uuid(let id)): return .string(id.uuidString.lowercased())
        case (.decimal128, .decimal128(let d)): return .string(d.description)
        case (.object, .link(let key)):
            guard let target = property.objectClassName else { throw RealmError.internalError("link without a class") }
            guard let object = try realm.object(ofType: target, key: key) else { return .null }
            guard let pk = object.objectSchema.primaryKeyProperty else {
                throw RealmError.notSyncable("\(target) has no primary key, so links to it cannot be synced")
            }
            return try element(try object.value(forKey: pk.name), pk, realm)
        case (.mixed, _):
            if case .typedLink = value {
                throw RealmError.notSyncable("a link inside a Mixed value cannot be synced yet")
            }
            if case .link = value { throw RealmError.notSyncable("a link inside a Mixed value cannot be synced yet") }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]  // one text per value, whatever the process
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            return try JSONParser.parse(try encoder.encode(value))
        default:
            throw RealmError.typeMismatch(
                className: property.objectClassName ?? "", property: property.name,
                expected: property.typeDescription, got: value.kindName)
        }
    }

    /// The value of `json` for `property`; a link resolves the target's primary key in `realm`
    /// (nil when the target is not there; a missing list element is left out).
    static func decode(_ json: JSONValue, _ property: Property, in realm: Realm) throws -> Value {
        if property.isMap {
            guard let members = json.objectMembers else { return json == .null ? .map([:]) : try bad(json, property) }
            var entries: [String: Value] = [:]
            for m in members { entries[m.key] = try decodeElement(m.value, property, realm) }
            return .map(entries)
        }
        if property.isList {
            guard let items = json.arrayValue else { return json == .null ? .list([]) : try bad(json, property) }
            var out: [Value] = []
            for item in items {
                let v = try decodeElement(item, property, realm)
                if property.type == .object, case .null = v { continue }  // a target that is gone
                out.append(v)
            }
            return .list(out)
        }
        return try decodeElement(json, property, realm)
    }

    private static func decodeElement(_ json: JSONValue, _ property: Property, _ realm: Realm) throws -> Value {
        if json == .null, property.type != .mixed { return .null }
        switch (property.type, json) {
        case (.bool, .bool(let b)): return .bool(b)
        case (.int, .number(let n)), (.int8, .number(let n)), (.int16, .number(let n)), (.int32, .number(let n)):
            guard let v = Int64(n) else { return try bad(json, property) }
            return .int(v)
        case (.float, _):
            guard let d = double(json) else { return try bad(json, property) }
            return .float(Float(d))
        case (.double, _):
            guard let d = double(json) else { return try bad(json, property) }
            return .double(d)
        case (.string, .string(let s)): return .string(s)
        case (.date, .string(let s)), (.date, .number(let s)):
            guard let t = timestamp(s) else { return try bad(json, property) }
            return .date(t)
        case (.data, .string(let s)):
            guard let d = hexData(s) else { return try bad(json, property) }
            return .data(d)
        case (.objectId, .string(let s)):
            guard let id = ObjectId(parsing: s) else { return try bad(json, property) }
            return .objectId(id)
        case (.uuid, .string(let s)):
            guard let id = UUID(uuidString: s) else { return try bad(json, property) }
            return .uuid(id)
        case (.decimal128, .string(let s)):
            guard let d = Decimal128(s) else { return try bad(json, property) }
            return .decimal128(d)
        case (.object, _):
            guard let target = property.objectClassName, let schema = realm.schema[target],
                let pk = schema.primaryKeyProperty
            else { return try bad(json, property) }
            let key = try decodeElement(json, pk, realm)
            return try realm.object(ofType: target, forPrimaryKey: key).map { .link($0.key) } ?? .null
        case (.mixed, _):
            var writer = JSONWriter()
            writer.write(json)
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            do {
                return try decoder.decode(Value.self, from: Data(writer.flush().utf8))
            } catch {
                return try bad(json, property)
            }
        default:
            return try bad(json, property)
        }
    }

    private static func bad(_ json: JSONValue, _ property: Property) throws -> Value {
        throw RealmError.invalidInput(
            "the server sent \(json) for \(property.name), which is \(property.typeDescription)")
    }

    private static func number(_ d: Double) -> JSONValue {
        if let n = JSONValue.double(d) { return n }
        return .string(d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
    }

    private static func double(_ json: JSONValue) -> Double? {
        switch json {
        case .number(let n): Double(n)
        case .string("NaN"): .nan
        case .string("Infinity"): .infinity
        case .string("-Infinity"): -.infinity
        default: nil
        }
    }

    /// Nanoseconds since 1970 as decimal text, exact for every timestamp (beyond Int64's range).
    static func nanosecondText(_ t: Timestamp) -> String {
        func nine(_ n: Int64) -> String {
            let s = String(n)
            return String(repeating: "0", count: 9 - s.count) + s
        }
        if t.seconds >= 0 {
            return t.seconds == 0 ? String(t.nanoseconds) : String(t.seconds) + nine(Int64(t.nanoseconds))
        }
        // seconds < 0: the total is -(|seconds| × 10⁹ − nanoseconds).
        let magnitude = t.seconds.magnitude  // UInt64: Int64.min has a magnitude too
        if t.nanoseconds == 0 { return "-" + String(magnitude) + "000000000" }
        let whole = magnitude - 1
        let fraction = 1_000_000_000 - Int64(t.nanoseconds)
        return "-" + (whole == 0 ? String(fraction) : String(whole) + nine(fraction))
    }

    /// The timestamp of nanoseconds since 1970 written as decimal text (PostgreSQL's numeric
    /// prints it without a fraction).
    static func timestamp(_ text: String) -> Timestamp? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        let secondsText = digits.dropLast(9)
        let nanosText = digits.suffix(9)
        guard let nanos = Int64(nanosText) else { return nil }
        let seconds: Int64
        if secondsText.isEmpty {
            seconds = 0
        } else if negative, let m = UInt64(secondsText), m == Int64.min.magnitude {
            return nanos == 0 ? Timestamp(seconds: .min) : nil
        } else {
            guard let s = Int64(secondsText) else { return nil }
            seconds = s
        }
        return negative
            ? Timestamp(seconds: -seconds, nanoseconds: -Int32(nanos))
            : Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
    }

    private static func hexData(_ text: String) -> Data? {
        guard text.hasPrefix("\\x") else { return nil }
        let hex = Array(text.utf8.dropFirst(2))
        guard hex.count % 2 == 0 else { return nil }
        var out = Data(capacity: hex.count / 2)
        var i = 0
        while i < hex.count {
            guard let hi = nibble(hex[i]), let lo = nibble(hex[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// JSON text of a value (for SQL parameters and the outbox).
    static func text(_ json: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(json)
        return writer.flush()
    }
}
